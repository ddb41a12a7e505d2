/**
 * A small incremental parser for one HTTP/1.x response at a time, for the load generator's
 * plain-HTTP client (Node's llhttp is not exposed). It reads the status, Content-Length or
 * chunked framing (or a body that ends with the connection) and the keep-alive verdict; headers
 * and body are kept only when a capture needs them. Every buffer it keeps is bounded.
 */

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

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export class ResponseParser {
  status = 0;
  /** False when the answer says the connection closes after it. */
  keepAlive = true;
  /** Body bytes (after chunked decoding). */
  bodyBytes = 0;
  headers: Record<string, string | string[]> | undefined;
  body: Buffer[] | undefined;
  private state = DONE;
  private noBody = false;
  private collect = false;
  private head: Buffer | undefined;
  private remaining = 0;
  private line = '';
  private trailerBytes = 0;

  /** Gets ready for the answer to the next request; `noBody`: it was a HEAD request. */
  reset(noBody: boolean, collect: boolean): void {
    this.status = 0;
    this.keepAlive = true;
    this.bodyBytes = 0;
    this.headers = collect ? {} : undefined;
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
   * Feeds bytes from the socket. Returns the offset just past the end of the answer when it is
   * complete, or -1 when more bytes are needed. Throws BadResponse.
   */
  execute(data: Buffer): number {
    let i = 0;
    while (i < data.length || this.state === DONE) {
      switch (this.state) {
        case HEAD: {
          const at = this.readHead(data, i);
          if (at < 0) return -1;
          i = at;
          break;
        }
        case LENGTH: {
          i = this.take(data, i);
          if (this.remaining === 0) this.state = DONE;
          break;
        }
        case CHUNK_SIZE: {
          const at = this.readLine(data, i);
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
          i = this.take(data, i);
          if (this.remaining === 0) this.state = CHUNK_END;
          break;
        }
        case CHUNK_END: {
          const at = this.readLine(data, i);
          if (at < 0) return -1;
          i = at;
          if (this.line !== '') throw new BadResponse('chunk data longer than its size');
          this.state = CHUNK_SIZE;
          break;
        }
        case TRAILERS: {
          const at = this.readLine(data, i);
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
          this.take(data, i);
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

  private take(data: Buffer, i: number): number {
    const n = this.state === UNTIL_CLOSE ? data.length - i : Math.min(this.remaining, data.length - i);
    if (this.collect) this.body!.push(data.subarray(i, i + n));
    this.bodyBytes += n;
    this.remaining -= n;
    return i + n;
  }

  /** Reads a line ending in LF (CR stripped) into `this.line`; -1 when it goes on in the next bytes. */
  private readLine(data: Buffer, i: number): number {
    const lf = data.indexOf(10, i);
    const end = lf < 0 ? data.length : lf;
    this.line += data.toString('latin1', i, end);
    if (this.line.length > MAX_LINE) throw new BadResponse('line too long');
    if (lf < 0) return -1;
    if (this.line.endsWith('\r')) this.line = this.line.slice(0, -1);
    return lf + 1;
  }

  /** Finds the end of the head (CRLF CRLF), across reads if needed; -1 when not there yet. */
  private readHead(data: Buffer, i: number): number {
    let buf = data;
    let from = i;
    let kept = 0;
    if (this.head) {
      kept = this.head.length;
      buf = Buffer.concat([this.head, data.subarray(i)]);
      from = 0;
    }
    const end = buf.indexOf('\r\n\r\n', Math.max(from, kept - 3), 'latin1');
    if (end < 0) {
      if (buf.length - from > MAX_HEAD) throw new BadResponse('response head too large');
      this.head = Buffer.from(buf.subarray(from));
      return -1;
    }
    if (end - from > MAX_HEAD) throw new BadResponse('response head too large');
    this.head = undefined;
    this.parseHead(buf.toString('latin1', from, end));
    // Offset in `data` just past the blank line.
    return kept > 0 ? i + (end + 4 - kept) : end + 4;
  }

  private parseHead(text: string): void {
    // Line by line with indexOf (no split): this runs once per answer.
    let eol = text.indexOf('\r\n');
    if (eol < 0) eol = text.length;
    const code = statusOf(text, eol);
    if (code === 0) throw new BadResponse(`bad status line "${text.slice(0, Math.min(eol, 40))}"`);
    const http10 = text.charCodeAt(7) === 48;
    let length = -1;
    let chunked = false;
    let encoded = false;
    let close = http10;
    for (let at = eol + 2; at < text.length; at = eol + 2) {
      eol = text.indexOf('\r\n', at);
      if (eol < 0) eol = text.length;
      const colon = text.indexOf(':', at);
      const first = text.charCodeAt(at);
      // No name, or a folded line (starts with space or tab): refused, as llhttp does.
      if (colon <= at || colon > eol || first === 32 || first === 9) throw new BadResponse(`bad header line "${text.slice(at, Math.min(eol, at + 40))}"`);
      const size = colon - at;
      // Only the three framing headers matter unless a capture reads headers: the rest are skipped.
      if (!(this.collect || size === 14 || size === 17 || size === 10)) continue;
      const name = text.slice(at, colon);
      if (!TOKEN.test(name)) throw new BadResponse(`bad header name "${name.slice(0, 40)}"`);
      const value = text.slice(colon + 1, eol).trim();
      if (/[\r\n\0]/.test(value)) throw new BadResponse('bad header value');
      const lower = name.toLowerCase();
      if (lower === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length >= 0 && Number(value) !== length)) throw new BadResponse('bad content-length');
        length = Number(value);
      } else if (lower === 'transfer-encoding') {
        encoded = true;
        chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
      } else if (lower === 'connection') {
        const tokens = value.toLowerCase().split(',').map((t) => t.trim());
        if (tokens.includes('close')) close = true;
        else if (http10 && tokens.includes('keep-alive')) close = false;
      }
      if (this.collect) {
        const had = this.headers![lower];
        this.headers![lower] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
      }
    }
    // 1xx: an interim answer; the real one follows.
    if (code < 200) {
      if (code === 101) throw new BadResponse('unexpected protocol switch (101)');
      if (this.collect) this.headers = {};
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

/** The status code of `HTTP/1.0|1 DDD[ reason]` (the first `eol` characters), or 0 when the line is not one. */
function statusOf(text: string, eol: number): number {
  if (eol < 12 || !text.startsWith('HTTP/1.')) return 0;
  const minor = text.charCodeAt(7);
  if ((minor !== 48 && minor !== 49) || text.charCodeAt(8) !== 32) return 0;
  let code = 0;
  for (let i = 9; i < 12; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return 0;
    code = code * 10 + d;
  }
  const after = text.charCodeAt(12);
  if (eol > 12 && after !== 32 && after !== 9) return 0;
  return code >= 100 ? code : 0;
}
