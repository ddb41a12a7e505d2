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
let endIn = NaN;
let endOut = NaN;
let endNote: string | undefined;
let endText = '';

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

/** ` duration ms ↑in ↓out (note)` */
function lineEnd(record: TrafficRecord): string {
  if (record.durationMs !== endDuration || record.bytesIn !== endIn || record.bytesOut !== endOut || record.note !== endNote) {
    endDuration = record.durationMs;
    endIn = record.bytesIn;
    endOut = record.bytesOut;
    endNote = record.note;
    const note = record.note !== undefined ? ` (${record.note})` : '';
    endText = ` ${milliseconds(record.durationMs)} ms ↑${size(record.bytesIn)} ↓${size(record.bytesOut)}${note}`;
  }
  return endText;
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

/** A duration as `toFixed(2)` below 10 ms and `toFixed(0)` from there, without its cost. */
function milliseconds(ms: number): string {
  if (!(ms >= 0) || ms >= 1e9) return ms.toFixed(0);
  if (ms >= 9.995) return String(Math.round(ms));
  const hundredths = Math.round(ms * 100);
  const whole = Math.floor(hundredths / 100);
  const rest = hundredths - whole * 100;
  return `${whole}.${rest < 10 ? '0' : ''}${rest}`;
}

function hms(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1048576) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}
