/**
 * Captures (spec 2.12): values taken from an answer into variables that later targets of the same
 * virtual user see. `json` reads a path (`data.items[0].id`, `$.token` or `/a/b`), `header` a
 * header by name, `regex` the first group (or the whole match) of a pattern over the body.
 *
 * A target's captures are made ready once, when its generator is built (`captureReader`): the
 * patterns compiled and the JSON paths split, so an answer only runs them (and parses its body
 * once for all its JSON captures).
 */
import type { Capture } from './wire.js';

type Headers = Record<string, string | string[] | undefined>;

/** Reads a target's captures from one answer: the variables that got a value, in capture order. */
export type CaptureReader = (headers: Headers, body: string) => Array<[variable: string, value: string]>;

/** What one capture reads from an answer, given the body parsed as JSON (`undefined` when it is not JSON). */
type Read = (headers: Headers, body: string, json: () => unknown) => string | undefined;

const NOT_JSON = Symbol('not JSON');

export function captureReader(captures: readonly Capture[]): CaptureReader {
  const reads = captures.map((capture) => [capture.variable, compileCapture(capture)] as const);
  return (headers, body) => {
    let parsed: unknown = NOT_JSON;
    const json = () => {
      if (parsed === NOT_JSON) {
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = undefined;
        }
      }
      return parsed;
    };
    const values: Array<[string, string]> = [];
    for (const [variable, read] of reads) {
      const value = read(headers, body, json);
      if (value !== undefined) values.push([variable, value]);
    }
    return values;
  };
}

/** One capture made ready; a pattern that does not compile (the plan refuses those) never matches. */
function compileCapture(capture: Capture): Read {
  if (capture.from === 'header') {
    const name = capture.path.toLowerCase();
    return (headers) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
  }
  if (capture.from === 'regex') {
    let pattern: RegExp;
    try {
      pattern = new RegExp(capture.path);
    } catch {
      return () => undefined;
    }
    return (_, body) => {
      const match = pattern.exec(body);
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
    if (data === undefined) return undefined;
    return typeof data === 'string' ? data : JSON.stringify(data);
  };
}

export function jsonSteps(path: string): string[] {
  const trimmed = path.trim();
  if (trimmed.startsWith('/')) return trimmed.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return trimmed
    .replace(/^\$\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\[["']([^"']*)["']\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '');
}
