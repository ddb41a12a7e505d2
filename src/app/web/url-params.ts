/**
 * The query parameters of a URL as typed (with `{{variables}}`), read and written as text: the
 * URL stays exactly as the user typed it; nothing is encoded or decoded here.
 */
import type { Row } from './KeyValueTable.js';

export function splitUrl(url: string): { base: string; query: string; hash: string } {
  const hashAt = url.indexOf('#');
  const hash = hashAt >= 0 ? url.slice(hashAt) : '';
  const rest = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const q = rest.indexOf('?');
  return q >= 0 ? { base: rest.slice(0, q), query: rest.slice(q + 1), hash } : { base: rest, query: '', hash };
}

/**
 * Enabled parameters from the URL, descriptions from `paramDescriptions` (spec 2.3: by key, the
 * text in the row's `description`, as the importers write it; `value` is read too, where the app
 * wrote it before).
 */
export function queryRows(url: string, descriptions: readonly { key: string; value: string; description?: string }[]): Row[] {
  const { query } = splitUrl(url);
  if (!query) return [];
  return query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const key = eq >= 0 ? pair.slice(0, eq) : pair;
    const described = descriptions.find((d) => d.key === key);
    return { key, value: eq >= 0 ? pair.slice(eq + 1) : '', enabled: true, description: described?.description || described?.value || '' };
  });
}

/** The request fields a Params table sets: the URL (enabled rows), `disabledParams`, and `paramDescriptions` by key. */
export function paramFields(url: string, rows: readonly Row[]): { url: string; disabledParams: Row[]; paramDescriptions: Row[] } {
  return {
    url: withQuery(url, rows),
    disabledParams: rows.filter((r) => !r.enabled).map((r) => ({ ...r, enabled: false })),
    paramDescriptions: rows.filter((r) => r.enabled && r.description).map((r) => ({ key: r.key, value: '', enabled: true, description: r.description })),
  };
}

export function withQuery(url: string, rows: readonly Row[]): string {
  const { base, hash } = splitUrl(url);
  const on = rows.filter((r) => r.enabled && (r.key || r.value));
  const query = on.map((r) => (r.value === '' && !r.key.includes('=') ? r.key : `${r.key}=${r.value}`)).join('&');
  return `${base}${query ? `?${query}` : ''}${hash}`;
}

/** `:name` segments of the URL's path, in order (spec 2.3). */
export function pathParamNames(url: string): string[] {
  const { base } = splitUrl(url);
  const pathStart = base.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return [...pathStart.matchAll(/(?:^|\/):([A-Za-z_][\w-]*)/g)].map((m) => m[1]!);
}
