/** One traffic record as a line of text, for the CLI and plain-text views. */
import type { TrafficRecord } from './types.js';

/** `time server summary duration ↑in ↓out (note)`, the same for every kind. */
export function formatTrafficLine(record: TrafficRecord): string {
  return `${lineStart(record)}${record.summary}${lineEnd(record)}`;
}

/*
 * The line's start and end of the last record: at thousands of records a second many share the
 * millisecond and server, and every echo of a same-sized message has the same end. Reused, they are
 * not built again (a dozen small strings a line, each made, joined and copied).
 */
let startTime = NaN;
let startServer = '';
let startText = '';
let endDuration = NaN;
let endText = '';
let sizesIn = NaN;
let sizesOut = NaN;
let sizesNote: string | undefined;
let sizesText = '';

/** `time server ` */
function lineStart(record: TrafficRecord): string {
  const ms = Math.floor(record.time);
  if (ms !== startTime || record.server !== startServer) {
    startTime = ms;
    startServer = record.server;
    startText = `${clock(ms)} ${record.server} `;
  }
  return startText;
}

/**
 * ` duration ms ↑in ↓out (note)`: the sizes and note of the last record, and the duration's text
 * looked up (durations differ from one request to the next; sizes mostly do not).
 */
function lineEnd(record: TrafficRecord): string {
  const { bytesIn, bytesOut, note, durationMs } = record;
  if (bytesIn !== sizesIn || bytesOut !== sizesOut || note !== sizesNote) {
    sizesIn = bytesIn;
    sizesOut = bytesOut;
    sizesNote = note;
    sizesText = `↑${size(bytesIn)} ↓${size(bytesOut)}${note !== undefined ? ` (${note})` : ''}`;
    endDuration = NaN;
  }
  if (durationMs !== endDuration) {
    endDuration = durationMs;
    endText = durationText(durationMs) + sizesText;
  }
  return endText;
}

/** ` 0.00 ms ` … ` 9.99 ms `, made when first needed: most requests to a mock take under 10 ms. */
const SHORT_DURATIONS: string[] = [];

/** ` duration ms `: `toFixed(2)` below 10 ms and `toFixed(0)` from there, without its cost. */
function durationText(ms: number): string {
  if (ms >= 0 && ms < 9.995) {
    const hundredths = Math.round(ms * 100);
    return (SHORT_DURATIONS[hundredths] ??= ` ${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')} ms `);
  }
  return ` ${!(ms >= 0) || ms >= 1e9 ? ms.toFixed(0) : String(Math.round(ms))} ms `;
}

/** The last second formatted: at high rates most records share it. */
let lastSecond = -1;
let lastSecondText = '';

/** Local time of day with milliseconds, as a terminal log shows it (a Date made once a second). */
function clock(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastSecondText = hms(new Date(ms));
  }
  return `${lastSecondText}.${THREE_DIGITS[ms - second * 1000]}`;
}

/** '000' … '999': the milliseconds of a time of day, looked up (one line per request is printed). */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

function hms(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1048576) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}
