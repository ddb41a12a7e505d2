/**
 * Captures (spec 2.12): values taken from an answer into variables that later targets of the same
 * virtual user see. `json` reads a path (`data.items[0].id`, `$.token` or `/a/b`), `header` a
 * header by name, `regex` the first group (or the whole match) of a pattern over the body.
 */
import type { Capture } from './wire.js';

export function captureValue(capture: Capture, headers: Record<string, string | string[] | undefined>, body: string): string | undefined {
  if (capture.from === 'header') {
    const value = headers[capture.path.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }
  if (capture.from === 'regex') {
    let match: RegExpExecArray | null;
    try {
      match = new RegExp(capture.path).exec(body);
    } catch {
      return undefined;
    }
    return match ? (match[1] ?? match[0]) : undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return undefined;
  }
  for (const step of jsonSteps(capture.path)) {
    if (data === null || typeof data !== 'object') return undefined;
    data = Object.hasOwn(data, step) ? (data as Record<string, unknown>)[step] : undefined;
  }
  if (data === undefined) return undefined;
  return typeof data === 'string' ? data : JSON.stringify(data);
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
