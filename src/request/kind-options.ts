/**
 * A request kind's option section (spec 2.8) ready to send: the format's defaults for fields left
 * out, and every text value filled with `{{variables}}` (a topic, a Socket.IO auth payload, MCP
 * arguments and environment values may all hold them).
 */
import { requestSchema } from '../model/index.js';
import type { KindOptionsKey } from './prepared.js';

export function fillKindOptions(key: KindOptionsKey, written: unknown, fill: (text: string) => string): Record<string, unknown> {
  const withDefaults = requestSchema.shape[key].unwrap().parse(written ?? {}) as Record<string, unknown>;
  return fillTexts(withDefaults, fill) as Record<string, unknown>;
}

function fillTexts(value: unknown, fill: (text: string) => string): unknown {
  if (typeof value === 'string') return fill(value);
  if (Array.isArray(value)) return value.map((item) => fillTexts(item, fill));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillTexts(v, fill)]));
  return value;
}
