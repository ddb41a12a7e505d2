/**
 * One traffic record as a line, for the CLI and plain-text views. The line is made as UTF-8 bytes
 * (`writeTrafficLine`): `ferry serve` writes each line straight into its output chunk, so a busy
 * server makes no string per line; `formatTrafficLine` reads the same bytes back as text.
 */
import type { ServerKind } from '../model/index.js';
import type { TrafficRecord } from './types.js';
import { BIDI_CONTROLS } from '../support/terminal-text.js';

/** `time server summary duration ↑in ↓out (note)`, the same for every kind. */
export function formatTrafficLine(record: TrafficRecord): string {
  const most = trafficLineMaxBytes(record);
  if (scratch.length < most) scratch = Buffer.allocUnsafe(most);
  return scratch.toString('utf8', 0, writeTrafficLine(record, scratch, 0));
}
let scratch = Buffer.allocUnsafe(1024);

/** Bytes `writeTrafficLine` writes for the record at most. */
export function trafficLineMaxBytes(record: TrafficRecord): number {
  // UTF-8 takes at most 3 bytes per UTF-16 unit; the time, numbers, units and arrows take under 200.
  const summaryLength = record.summaryLength !== undefined ? record.summaryLength() : record.summary.length;
  return (record.server.length + summaryLength + (record.note?.length ?? 0)) * 3 + 200;
}

/**
 * Writes the record's line (without a newline) as UTF-8 into `out` from `at`, which has room for
 * `trafficLineMaxBytes(record)` bytes; returns where the line ends.
 */
export function writeTrafficLine(record: TrafficRecord, out: Buffer, at: number): number {
  at = copy(lineStart(record), out, at);
  at = record.writeSummary !== undefined ? record.writeSummary(out, at) : writeUtf8(record.summary, out, at);
  at = copy(durationBytes(record.durationMs), out, at);
  return copy(lineSizes(record), out, at);
}

/*
 * The parts of the last record's line, as bytes: at thousands of records a second many share the
 * millisecond and server, and the sizes (every answer of a route, every echo of a message); the
 * duration's bytes are looked up. So a line costs its summary's bytes and a few copies.
 */
let startTime = NaN;
let startServer = '';
let startBytes: Uint8Array = new Uint8Array(0);
let sizesIn = NaN;
let sizesOut = NaN;
let sizesNote: string | undefined;
let sizesBytes: Uint8Array = new Uint8Array(0);

/** `time server ` */
function lineStart(record: TrafficRecord): Uint8Array {
  const ms = Math.floor(record.time);
  if (ms !== startTime || record.server !== startServer) {
    startTime = ms;
    startServer = record.server;
    // The server's id is a file name, which may hold an ESC or U+202E: shown as the summary is.
    startBytes = Buffer.from(`${clock(ms)} ${printable(record.server)} `, 'utf8');
  }
  return startBytes;
}

/** `↑in ↓out (note)` */
function lineSizes(record: TrafficRecord): Uint8Array {
  const { bytesIn, bytesOut, note } = record;
  if (bytesIn !== sizesIn || bytesOut !== sizesOut || note !== sizesNote) {
    sizesIn = bytesIn;
    sizesOut = bytesOut;
    sizesNote = note;
    sizesBytes = Buffer.from(`↑${size(bytesIn)} ↓${size(bytesOut)}${note !== undefined ? ` (${printable(note)})` : ''}`, 'utf8');
  }
  return sizesBytes;
}

/** ` 0.00 ms ` … ` 9.99 ms `, each made when first needed: most requests to a mock take under 10 ms. */
const SHORT_DURATIONS: Uint8Array[] = [];

/** ` duration ms `: `toFixed(2)` below 10 ms and `toFixed(0)` from there, without its cost. */
function durationBytes(ms: number): Uint8Array {
  if (ms >= 0 && ms < 9.995) {
    const hundredths = Math.round(ms * 100);
    return (SHORT_DURATIONS[hundredths] ??= Buffer.from(` ${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')} ms `, 'latin1'));
  }
  return Buffer.from(` ${!(ms >= 0) || ms >= 1e9 ? ms.toFixed(0) : String(Math.round(ms))} ms `, 'latin1');
}

function copy(bytes: Uint8Array, out: Buffer, at: number): number {
  out.set(bytes, at);
  return at + bytes.length;
}

/**
 * `text` as UTF-8 into `out` from `at`; returns where it ends. ASCII (nearly every summary) is
 * stored byte by byte, cheaper for a few dozen characters than a call into Node's encoder; from
 * the first other character on, Node's encoder writes the rest (a lone surrogate becomes U+FFFD).
 * Control characters are written as their symbols (`printable`), in at most 3 bytes each as the
 * room asked for allows.
 */
export function writeUtf8(text: string, out: Buffer, at: number): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return at + out.write(printable(i === 0 ? text : text.slice(i)), at, 'utf8');
    if (c < 0x20 || c === 0x7f) {
      // U+2400 + c (␛ for ESC), U+2421 (␡) for DEL: E2 90 80+c / E2 90 A1.
      out[at++] = 0xe2;
      out[at++] = 0x90;
      out[at++] = c === 0x7f ? 0xa1 : 0x80 + c;
      continue;
    }
    out[at++] = c;
  }
  return at;
}

const CONTROL = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}]`);

/**
 * Text a client chose (a DNS name, an event name, a tool name) as a terminal shows it safely:
 * C0 controls and DEL as their symbols (␛, ␍, ␡), C1 controls and bidi overrides as U+FFFD (3
 * bytes, as `trafficLineMaxBytes` allows per character). Raw, an ESC sequence would clear or
 * retitle the terminal of `ferry serve`, a CR would overwrite the line, and U+202E would show the
 * rest of it reversed (`ferry serve | tee log` too: a pipe gets these bytes, not the terminal escapes).
 * Clean ASCII never gets here (`writeUtf8` stores it byte by byte).
 */
export function printable(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(new RegExp(CONTROL.source, 'g'), (ch) => {
    const c = ch.charCodeAt(0);
    return c < 0x20 ? String.fromCharCode(0x2400 + c) : c === 0x7f ? '\u2421' : '\ufffd';
  });
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

/** What one traffic record of a kind is called in a count: a request, a message, a datagram, a DNS query. */
const RECORD_NOUNS: Record<ServerKind, readonly [one: string, many: string]> = {
  http: ['request', 'requests'],
  sse: ['request', 'requests'],
  mcp: ['request', 'requests'],
  websocket: ['message', 'messages'],
  socketio: ['message', 'messages'],
  tcp: ['TCP message', 'TCP messages'],
  tcpProxy: ['relayed message', 'relayed messages'],
  udp: ['UDP datagram', 'UDP datagrams'],
  dns: ['DNS query', 'DNS queries'],
};

/**
 * `n` records counted by kind, worded for them: `1,234 requests`, `3 DNS queries`, and for a mix
 * `1,237 records (1,234 requests, 3 DNS queries)`. `byKind` undefined or empty: requests.
 */
export function countRecords(n: number, byKind?: Readonly<Partial<Record<ServerKind, number>>>): string {
  const nouns = new Map<string, number>();
  for (const [kind, count] of Object.entries(byKind ?? {}) as [ServerKind, number][]) {
    if (!count) continue;
    const many = RECORD_NOUNS[kind]?.[1] ?? 'records';
    nouns.set(many, (nouns.get(many) ?? 0) + count);
  }
  const groups = [...nouns.entries()];
  const counted = (count: number, many: string) => {
    const one = Object.values(RECORD_NOUNS).find(([, m]) => m === many)?.[0] ?? many.replace(/s$/, '');
    return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
  };
  if (groups.length === 0) return counted(n, 'requests');
  if (groups.length === 1) return counted(n, groups[0]![0]);
  return `${counted(n, 'records')} (${groups.map(([many, count]) => counted(count, many)).join(', ')})`;
}
