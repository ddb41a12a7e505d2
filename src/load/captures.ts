/**
 * Captures (spec 2.12): values taken from an answer into variables that later targets of the same
 * virtual user see. `json` reads a path (`data.items[0].id`, `$.token` or `/a/b`), `header` a
 * header by name, `regex` the first group (or the whole match) of a pattern over the body (run
 * by support/bounded-regex.ts: linear time, or a time limit, whatever the workspace wrote).
 *
 * A target's captures are made ready once, when its generator is built (`captureReader`): the
 * patterns compiled and the JSON paths split, so an answer only runs them (and parses its body
 * once for all its JSON captures).
 *
 * The body is read as k6 reads it: decoded by its Content-Encoding (gzip, deflate, br, zstd), as
 * a request that asks for compression (`Accept-Encoding`, common in a browser's "Copy as cURL")
 * gets it; then as UTF-8 text.
 */
import { headerTextOfLatin1 } from '../protocols/http/header-text.js';
import { boundedRegex, RegexTimeLimitError, type BoundedRegex } from '../support/bounded-regex.js';
import { CaptureTimeLimitError, type Capture } from './wire.js';

/** An answer's headers by lower-case name, each byte of a value as one Latin-1 character (as undici parses them). */
type Headers = Record<string, string | string[] | undefined>;

/** Most bytes a compressed answer is decoded to for captures; past it, the body captures find nothing. */
const DECODED_MAX_BYTES = 50 * 1024 * 1024;

/** Reads a target's captures from one answer (`body` undefined: not kept, too large): the variables that got a value, in capture order. */
export type CaptureReader = (headers: Headers, body: Buffer | undefined) => Array<[variable: string, value: string]>;

/**
 * Decodes a body by a Content-Encoding value: the HTTP client's `decodeBody`
 * (support/content-coding.ts), which the generator loads when a target has captures, so a
 * load worker without captures, and `ferry run`'s files, stay as they are.
 */
export type BodyDecoder = (body: Uint8Array, contentEncoding: string, maxBytes: number) => Uint8Array;

/** The answer's body as text, decoded by its Content-Encoding; undefined when it cannot be decoded. */
function bodyText(headers: Headers, body: Buffer | undefined, decode: BodyDecoder): string | undefined {
  if (body === undefined) return undefined;
  const encoding = headers['content-encoding'];
  const coding = Array.isArray(encoding) ? encoding.join(', ') : encoding;
  if (!coding || coding.trim().toLowerCase() === 'identity') return body.toString('utf8');
  try {
    return Buffer.from(decode(body, coding, DECODED_MAX_BYTES)).toString('utf8');
  } catch {
    return undefined;
  }
}

/** What one capture reads from an answer: its body as text and as JSON, each made once, when first asked for (undefined when there is none). */
type Read = (headers: Headers, text: () => string | undefined, json: () => unknown) => string | undefined;

const NOT_YET = Symbol('not yet');

export function captureReader(captures: readonly Capture[], decode: BodyDecoder): CaptureReader {
  const reads = captures.map((capture) => [capture.variable, compileCapture(capture)] as const);
  return (headers, body) => {
    let decoded: string | undefined | typeof NOT_YET = NOT_YET;
    const text = () => (decoded === NOT_YET ? (decoded = bodyText(headers, body, decode)) : decoded);
    let parsed: unknown = NOT_YET;
    const json = () => {
      if (parsed === NOT_YET) {
        const source = text();
        try {
          parsed = source === undefined ? undefined : JSON.parse(source);
        } catch {
          parsed = undefined;
        }
      }
      return parsed;
    };
    const values: Array<[string, string]> = [];
    for (const [variable, read] of reads) {
      const value = read(headers, text, json);
      if (value !== undefined) values.push([variable, value]);
    }
    return values;
  };
}

/** One capture made ready; a pattern that does not compile (the plan refuses those) never matches. */
function compileCapture(capture: Capture): Read {
  if (capture.from === 'header') {
    const name = capture.path.trim().toLowerCase();
    return (headers) => {
      // Own names only: a capture of `constructor` or `__proto__` is a header, never Object's.
      const value = Object.hasOwn(headers, name) ? headers[name] : undefined;
      // A repeated header gives its last value, as pm.response.headers.get does in a run (and
      // Postman); its bytes read as UTF-8, as the run reads them.
      const last = Array.isArray(value) ? value[value.length - 1] : value;
      return last === undefined ? undefined : headerTextOfLatin1(last);
    };
  }
  if (capture.from === 'regex') {
    let pattern: BoundedRegex;
    try {
      pattern = boundedRegex(capture.path);
    } catch {
      return () => undefined;
    }
    return (_, text) => {
      const body = text();
      if (body === undefined) return undefined;
      let match: Array<string | undefined> | null;
      try {
        match = pattern.exec(body);
      } catch (error) {
        if (error instanceof RegexTimeLimitError) throw new CaptureTimeLimitError(`the capture of ${JSON.stringify(capture.variable)} (regex ${JSON.stringify(capture.path)}): ${error.message}.`);
        throw error;
      }
      return match ? (match[1] ?? match[0]) : undefined;
    };
  }
  const steps = jsonSteps(capture.path);
  return (_, __, json) => {
    let data = json();
    for (const step of steps) {
      if (data === null || typeof data !== 'object') return undefined;
      data = Object.hasOwn(data, step) ? (data as Record<string, unknown>)[step] : undefined;
    }
    // A null is no value, as a missing one: the variable keeps what it had (the text "null" in a
    // later URL or token would send a request that was never meant).
    if (data === undefined || data === null) return undefined;
    return typeof data === 'string' ? data : JSON.stringify(data);
  };
}

export function jsonSteps(path: string): string[] {
  const trimmed = path.trim();
  if (trimmed.startsWith('/')) return trimmed.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  // `a.b[0]`, `$.a`, `a["b.c"]` / `a['x y']`: a quoted name in brackets is one step, dots and
  // brackets in it included (split on the dots, `["a.b"]` read as two names and found nothing).
  const steps: string[] = [];
  for (const m of trimmed.replace(/^\$\.?/, '').matchAll(/\[\s*(\d+)\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*'((?:[^'\\]|\\.)*)'\s*\]|([^.[\]]+)/g)) {
    const quoted = m[2] ?? m[3];
    steps.push(m[1] ?? (quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : m[4]!));
  }
  return steps;
}
