/**
 * A small incremental parser for one HTTP/1.x response at a time, for the load generator's
 * plain-HTTP client (Node's llhttp is not exposed). It reads the status, Content-Length or
 * chunked framing (or a body that ends with the connection) and the keep-alive verdict; headers
 * and body are kept only when a capture needs them. Every buffer it keeps is bounded. The head is
 * read on the bytes (no string per header): it runs once per answer, on the generator's hot path.
 */
import { CAPTURED_BODY_MAX_BYTES } from '../wire.js';

/** A response the parser refuses; the generator counts it as an error of kind `other`. */
export class BadResponse extends Error {
  override name = 'BadResponse';
  readonly code = 'FERRY_BAD_RESPONSE';
}

const MAX_HEAD = 64 * 1024;
/** Chunk-size lines and trailer lines. */
const MAX_LINE = 8 * 1024;
const MAX_TRAILERS = 64 * 1024;

const HEAD = 0;
const LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;
const DONE = 7;

/** Bytes allowed in a header name (RFC 9110 token). */
const TOKEN_BYTE = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TOKEN_BYTE[c.charCodeAt(0)] = 1;
const HTTP_1 = 'HTTP/1.';
/** What String.prototype.trim removes, among latin1 bytes. */
const SPACE_BYTE = new Uint8Array(256);
for (const b of [9, 10, 11, 12, 13, 32, 160]) SPACE_BYTE[b] = 1;

export class ResponseParser {
  status = 0;
  /** A redirect's Location, read when the request follows redirects (reset()); undefined otherwise. */
  location: string | undefined;
  /** False when the answer says the connection closes after it. */
  keepAlive = true;
  /** Body bytes (after chunked decoding). */
  bodyBytes = 0;
  headers: Record<string, string | string[]> | undefined;
  /** Copies: the bytes fed to execute() may be a read buffer that is reused. Undefined past CAPTURED_BODY_MAX_BYTES. */
  body: Buffer[] | undefined;
  private state = DONE;
  private noBody = false;
  private collect = false;
  private follow = false;
  private head: Buffer | undefined;
  private remaining = 0;
  private line = '';
  private trailerBytes = 0;

  /** Gets ready for the answer to the next request; `noBody`: it was a HEAD request; `follow`: read a redirect's Location. */
  reset(noBody: boolean, collect: boolean, follow = false): void {
    this.status = 0;
    this.location = undefined;
    this.follow = follow;
    this.keepAlive = true;
    this.bodyBytes = 0;
    this.headers = collect ? headerRecord() : undefined;
    this.body = collect ? [] : undefined;
    this.state = HEAD;
    this.noBody = noBody;
    this.collect = collect;
    this.head = undefined;
    this.remaining = 0;
    this.line = '';
    this.trailerBytes = 0;
  }

  /**
   * Feeds the first `end` bytes of `data` (a socket's read). Returns the offset just past the end
   * of the answer when it is complete, or -1 when more bytes are needed. Throws BadResponse.
   */
  execute(data: Buffer, end = data.length): number {
    let i = 0;
    while (i < end || this.state === DONE) {
      switch (this.state) {
        case HEAD: {
          const at = this.readHead(data, i, end);
          if (at < 0) return -1;
          i = at;
          break;
        }
        case LENGTH: {
          i = this.take(data, i, end);
          if (this.remaining === 0) this.state = DONE;
          break;
        }
        case CHUNK_SIZE: {
          const at = this.readLine(data, i, end);
          if (at < 0) return -1;
          i = at;
          const size = this.line.split(';', 1)[0]!.trim();
          if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw new BadResponse(`bad chunk size "${size.slice(0, 20)}"`);
          this.remaining = parseInt(size, 16);
          this.line = '';
          this.state = this.remaining === 0 ? TRAILERS : CHUNK_DATA;
          break;
        }
        case CHUNK_DATA: {
          i = this.take(data, i, end);
          if (this.remaining === 0) this.state = CHUNK_END;
          break;
        }
        case CHUNK_END: {
          const at = this.readLine(data, i, end);
          if (at < 0) return -1;
          i = at;
          if (this.line !== '') throw new BadResponse('chunk data longer than its size');
          this.state = CHUNK_SIZE;
          break;
        }
        case TRAILERS: {
          const at = this.readLine(data, i, end);
          if (at < 0) return -1;
          this.trailerBytes += at - i;
          i = at;
          if (this.trailerBytes > MAX_TRAILERS) throw new BadResponse('trailers too large');
          const empty = this.line === '';
          this.line = '';
          if (empty) this.state = DONE;
          break;
        }
        case UNTIL_CLOSE: {
          this.take(data, i, end);
          return -1;
        }
        default:
          return i;
      }
    }
    return -1;
  }

  /** The connection ended: true when that completes the answer (a body read until close). */
  endsWithClose(): boolean {
    if (this.state !== UNTIL_CLOSE) return false;
    this.state = DONE;
    return true;
  }

  private take(data: Buffer, i: number, end: number): number {
    const n = this.state === UNTIL_CLOSE ? end - i : Math.min(this.remaining, end - i);
    if (this.body) {
      // Past the bound the body is let go: body captures find nothing, header captures still read.
      if (this.bodyBytes + n > CAPTURED_BODY_MAX_BYTES) this.body = undefined;
      else this.body.push(Buffer.from(data.subarray(i, i + n)));
    }
    this.bodyBytes += n;
    this.remaining -= n;
    return i + n;
  }

  /** Reads a line ending in LF (CR stripped) into `this.line`; -1 when it goes on in the next bytes. */
  private readLine(data: Buffer, i: number, end: number): number {
    let lf = data.indexOf(10, i);
    if (lf >= end) lf = -1;
    this.line += data.toString('latin1', i, lf < 0 ? end : lf);
    if (this.line.length > MAX_LINE) throw new BadResponse('line too long');
    if (lf < 0) return -1;
    if (this.line.endsWith('\r')) this.line = this.line.slice(0, -1);
    return lf + 1;
  }

  /** Finds the end of the head (CRLF CRLF), across reads if needed; -1 when not there yet. */
  private readHead(data: Buffer, i: number, end: number): number {
    let buf = data;
    let from = i;
    let size = end;
    let kept = 0;
    if (this.head) {
      kept = this.head.length;
      buf = Buffer.concat([this.head, data.subarray(i, end)]);
      from = 0;
      size = buf.length;
    }
    const blank = blankLine(buf, Math.max(from, kept - 3), size);
    if (blank < 0) {
      if (size - from > MAX_HEAD) throw new BadResponse('response head too large');
      this.head = Buffer.from(buf.subarray(from, size));
      return -1;
    }
    if (blank - from > MAX_HEAD) throw new BadResponse('response head too large');
    this.head = undefined;
    this.parseHead(buf, from, blank);
    // Offset in `data` just past the blank line.
    return kept > 0 ? i + (blank + 4 - kept) : blank + 4;
  }

  /** The head is `buf[from, to)`, without its blank line. */
  private parseHead(buf: Buffer, from: number, to: number): void {
    // Line by line on the bytes: a string is made only of what is kept (captures) or rare.
    let eol = lineEnd(buf, from, to);
    const code = statusOf(buf, from, eol);
    if (code === 0) throw new BadResponse(`bad status line "${buf.toString('latin1', from, Math.min(eol, from + 40))}"`);
    const http10 = buf[from + 7] === 48;
    let length = -1;
    let chunked = false;
    let encoded = false;
    let close = http10;
    // A redirect followed: its Location is read too (8 letters); other answers skip it.
    const wantLocation = this.follow && (code === 301 || code === 302 || code === 303 || code === 307 || code === 308);
    for (let at = eol + 2; at < to; at = eol + 2) {
      // One pass over the line: the first colon before its CR LF, then its end from there.
      const colon = colonOrLineEnd(buf, at, to);
      eol = buf[colon] === 58 && colon < to ? lineEnd(buf, colon + 1, to) : colon;
      const first = buf[at];
      // No name, or a folded line (starts with space or tab): refused, as llhttp does.
      if (colon === at || colon === eol || first === 32 || first === 9) throw new BadResponse(`bad header line "${buf.toString('latin1', at, Math.min(eol, at + 40))}"`);
      const size = colon - at;
      // Only the three framing headers matter unless a capture reads headers: the rest are skipped.
      if (!(this.collect || size === 14 || size === 17 || size === 10 || (size === 8 && wantLocation))) continue;
      for (let k = at; k < colon; k++) if (TOKEN_BYTE[buf[k]!] === 0) throw new BadResponse(`bad header name "${buf.toString('latin1', at, Math.min(colon, at + 40))}"`);
      let start = colon + 1;
      let stop = eol;
      while (start < stop && SPACE_BYTE[buf[start]!] === 1) start++;
      while (stop > start && SPACE_BYTE[buf[stop - 1]!] === 1) stop--;
      for (let k = start; k < stop; k++) {
        const b = buf[k];
        if (b === 13 || b === 10 || b === 0) throw new BadResponse('bad header value');
      }
      if (size === 14 && named(buf, at, 'content-length')) {
        const value = digits(buf, start, stop);
        if (value < 0 || (length >= 0 && value !== length)) throw new BadResponse('bad content-length');
        length = value;
      } else if (size === 17 && named(buf, at, 'transfer-encoding')) {
        encoded = true;
        chunked = /(?:^|,)\s*chunked\s*$/i.test(buf.toString('latin1', start, stop));
      } else if (size === 8 && wantLocation && named(buf, at, 'location')) {
        this.location ??= buf.toString('latin1', start, stop);
      } else if (size === 10 && named(buf, at, 'connection')) {
        // The usual values without a string; a list goes token by token.
        if (stop - start === 5 && named(buf, start, 'close')) close = true;
        else if (stop - start === 10 && named(buf, start, 'keep-alive')) {
          if (http10) close = false;
        } else {
          const tokens = buf.toString('latin1', start, stop).toLowerCase().split(',').map((t) => t.trim());
          if (tokens.includes('close')) close = true;
          else if (http10 && tokens.includes('keep-alive')) close = false;
        }
      }
      if (this.collect) {
        // Latin-1, one character per byte, as undici gives headers: captures read the bytes as UTF-8.
        const lower = buf.toString('latin1', at, colon).toLowerCase();
        const value = buf.toString('latin1', start, stop);
        const had = this.headers![lower];
        // Pushed, not copied: a head of 16,000 repeated lines would copy 128 million values.
        if (had === undefined) this.headers![lower] = value;
        else if (Array.isArray(had)) had.push(value);
        else this.headers![lower] = [had, value];
      }
    }
    // 1xx: an interim answer; the real one follows.
    if (code < 200) {
      if (code === 101) throw new BadResponse('unexpected protocol switch (101)');
      if (this.collect) this.headers = headerRecord();
      return;
    }
    this.status = code;
    this.keepAlive = !close;
    if (this.noBody || code === 204 || code === 304) this.state = DONE;
    else if (chunked) {
      this.state = CHUNK_SIZE;
      // Framing by both is a smuggling risk: use chunked, then drop the connection.
      if (length >= 0) this.keepAlive = false;
    } else if (encoded) {
      this.state = UNTIL_CLOSE;
      this.keepAlive = false;
    } else if (length >= 0) {
      this.remaining = length;
      this.state = length === 0 ? DONE : LENGTH;
    } else {
      this.state = UNTIL_CLOSE;
      this.keepAlive = false;
    }
  }
}

/** Headers by name with no prototype: an answer's `constructor` or `__proto__` header is kept as the others. */
function headerRecord(): Record<string, string | string[]> {
  return Object.create(null) as Record<string, string | string[]>;
}

/**
 * Where CR LF CR LF starts in `buf[from, to)`, or -1. Looks at the byte the pattern would end
 * on and skips as far as it allows (Horspool): most head bytes are neither CR nor LF, so about
 * one byte in four is read.
 */
function blankLine(buf: Buffer, from: number, to: number): number {
  let at = from;
  while (at + 3 < to) {
    const last = buf[at + 3];
    if (last === 10) {
      if (buf[at] === 13 && buf[at + 1] === 10 && buf[at + 2] === 13) return at;
      at += 2; // the LF could be the pattern's second byte
    } else at += last === 13 ? 1 : 4;
  }
  return -1;
}

/** Where the first colon of the line at `from` is, or where its CR LF is (or `to`) when it comes first. */
function colonOrLineEnd(buf: Buffer, from: number, to: number): number {
  for (let at = from; at < to; at++) {
    const b = buf[at];
    if (b === 58) return at;
    if (b === 13 && at + 1 < to && buf[at + 1] === 10) return at;
  }
  return to;
}

/** Where the CR LF ending the line at `from` is, or `to`. */
function lineEnd(buf: Buffer, from: number, to: number): number {
  for (let at = from; at + 1 < to; at++) if (buf[at] === 13 && buf[at + 1] === 10) return at;
  return to;
}

/** Whether `buf` at `at` holds `lower` (lowercase ASCII), ignoring case. */
function named(buf: Buffer, at: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    const b = buf[at + k]!;
    if ((b >= 65 && b <= 90 ? b + 32 : b) !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/** The value of 1 to 15 decimal digits in `buf[from, to)`, or -1. */
function digits(buf: Buffer, from: number, to: number): number {
  if (to - from < 1 || to - from > 15) return -1;
  let value = 0;
  for (let k = from; k < to; k++) {
    const d = buf[k]! - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** The status code of `HTTP/1.0|1 DDD[ reason]` (the line `buf[from, eol)`), or 0 when the line is not one. */
function statusOf(buf: Buffer, from: number, eol: number): number {
  if (eol - from < 12) return 0;
  for (let k = 0; k < 7; k++) if (buf[from + k] !== HTTP_1.charCodeAt(k)) return 0;
  const minor = buf[from + 7];
  if ((minor !== 48 && minor !== 49) || buf[from + 8] !== 32) return 0;
  let code = 0;
  for (let i = from + 9; i < from + 12; i++) {
    const d = buf[i]! - 48;
    if (d < 0 || d > 9) return 0;
    code = code * 10 + d;
  }
  const after = buf[from + 12];
  if (eol - from > 12 && after !== 32 && after !== 9) return 0;
  return code >= 100 ? code : 0;
}
