/**
 * Values that change per request in a load test: `{{$dynamic}}` values, data-row columns and
 * captured variables. Targets are prepared once with each such name replaced by a marker
 * (`ferry<token>v<i>x`: letters and digits, so URL encoding leaves it alone); each send swaps the
 * markers for this request's values, which is far cheaper than preparing again.
 */
import { dynamicValue } from '../template/dynamic-values.js';

export function markerRegExp(marker: string): RegExp {
  return new RegExp(`${marker}v(\\d+)x`, 'g');
}

export function markerFor(marker: string, index: number): string {
  return `${marker}v${index}x`;
}

export type Lookup = (name: string) => string | undefined;

/**
 * A filler for one target's text: returns the text unchanged when it holds no marker. A name the
 * send has no value for takes its default (`defaults`, as `names`: the environment's value), else
 * a dynamic value, else stays as written.
 */
export function filler(marker: string, names: readonly string[], defaults?: ReadonlyArray<string | null>): (text: string, lookup: Lookup, where: 'url' | 'text') => string {
  const pattern = markerRegExp(marker);
  return (text, lookup, where) => {
    if (!text.includes(marker)) return text;
    return text.replace(pattern, (_, i: string) => {
      const name = names[Number(i)] ?? '';
      const value = lookup(name) ?? defaults?.[Number(i)] ?? (name.startsWith('$') ? dynamicValue(name) : undefined) ?? `{{${name}}}`;
      // In a URL, only characters a URL may hold go as they are; the rest percent-encoded.
      return where === 'url' ? value.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => encodeURIComponent(c)) : value;
    });
  };
}
