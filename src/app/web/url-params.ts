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

/**
 * The Params table's rows: the enabled ones as the URL has them, and each switched-off one back
 * in its place in `shown` (the table as the user last set it), as Postman and Insomnia keep a
 * switched-off parameter where it was: right after the URL parameter it followed there (found by
 * key and value, else by key, as its value may have been edited since), else after as many of
 * the URL's parameters as came before it. A row `shown` does not have (a fresh open, a file
 * changed on disk) comes after the enabled ones, in the file's order: the format keeps
 * switched-off parameters apart from the URL (spec 2.3), with no place among them.
 */
export function paramRows(
  url: string,
  disabledParams: readonly Row[],
  descriptions: readonly { key: string; value: string; description?: string }[],
  shown: readonly Row[] = [],
): Row[] {
  const enabled = queryRows(url, descriptions);
  /** Where a row of `shown` goes: before `enabled[after]` (after them all when past the end). */
  const afterOf = (anchor: Row | null, count: number): number => {
    if (!anchor) return 0;
    const at = enabled.findIndex((r) => r.key === anchor.key && r.value === anchor.value);
    const byKey = at >= 0 ? at : enabled.findIndex((r) => r.key === anchor.key);
    return byKey >= 0 ? byKey + 1 : count;
  };
  const places: { row: Row; after: number }[] = [];
  let anchor: Row | null = null;
  let count = 0;
  for (const row of shown) {
    if (!row.enabled) places.push({ row, after: afterOf(anchor, count) });
    else if (inUrl(row)) {
      anchor = row;
      count += 1;
    }
  }
  const placed = disabledParams.map((param) => {
    const row = { ...param, enabled: false };
    const at = places.findIndex((p) => p.row.key === row.key && p.row.value === row.value && p.row.description === row.description);
    return { row, after: at >= 0 ? places.splice(at, 1)[0]!.after : enabled.length };
  });
  const rows: Row[] = [];
  enabled.forEach((row, i) => {
    rows.push(...placed.filter((p) => p.after === i).map((p) => p.row), row);
  });
  rows.push(...placed.filter((p) => p.after >= enabled.length).map((p) => p.row));
  return rows;
}

/** A row the URL holds when enabled (withQuery leaves out one with neither key nor value). */
const inUrl = (row: Row) => row.key !== '' || row.value !== '';

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
  const on = rows.filter((r) => r.enabled && inUrl(r));
  const query = on.map((r) => (r.value === '' && !r.key.includes('=') ? r.key : `${r.key}=${r.value}`)).join('&');
  return `${base}${query ? `?${query}` : ''}${hash}`;
}

/** `:name` segments of the URL's path, in order (spec 2.3). */
export function pathParamNames(url: string): string[] {
  const { base } = splitUrl(url);
  const pathStart = base.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return [...pathStart.matchAll(/(?:^|\/):([A-Za-z_][\w-]*)/g)].map((m) => m[1]!);
}
