/**
 * The JSON shapes of postman-collection's toJSON (as Newman's scripts get them) for the parts of
 * pm.request that are Ferry's own data: rows (headers, query, form fields) and auth. Keys come in
 * Postman's order, since scripts log, hash or sign `JSON.stringify(pm.request)` as text.
 */
import type { Property } from './property-list.js';

/**
 * A header, query or form row as Postman writes it: `disabled` first, a description as Postman's
 * Description, then `key` and `value`; a form row with its `type`, a file field with `src`
 * instead of a value; a header the client added with `system: true`.
 */
export function rowJSON(row: Property, form = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (row.disabled) out.disabled = true;
  if (typeof row.description === 'string' && row.description !== '') out.description = { content: row.description, type: 'text/plain' };
  out.key = row.key;
  if (form && row.type === 'file') {
    out.type = 'file';
    out.src = row.src ?? row.value;
  } else {
    out.value = row.value;
    if (form) out.type = typeof row.type === 'string' ? row.type : 'text';
  }
  if (row.system === true) out.system = true;
  return out;
}

/** Ferry's names for the settings of the auth types whose Postman names differ (the import's mapping, backwards). */
const POSTMAN_KEYS: Record<string, Record<string, string>> = { apiKey: { location: 'in' } };
/** Settings Postman has no key for, left out when they hold Ferry's default. */
const DEFAULTS: Record<string, Record<string, unknown>> = { bearer: { prefix: 'Bearer' } };
const POSTMAN_TYPES: Record<string, string> = { none: 'noauth', apiKey: 'apikey' };

/**
 * Auth as Postman's RequestAuth.toJSON: `{ type, [type]: [{ type, value, key }] }`, each setting
 * typed as a Postman export types it. `inherit` (the request uses its folder's) gives none, as a
 * Postman request without auth of its own.
 */
export function authJSON(auth: { type: string; [field: string]: unknown } | undefined): Record<string, unknown> | undefined {
  if (!auth || typeof auth !== 'object' || auth.type === 'inherit') return undefined;
  const ferryType = String(auth.type);
  const type = POSTMAN_TYPES[ferryType] ?? ferryType;
  const params: Record<string, unknown>[] = [];
  for (const [field, value] of Object.entries(auth)) {
    if (field === 'type' || value === undefined || DEFAULTS[ferryType]?.[field] === value) continue;
    const kind = typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number' ? typeof value : 'any';
    params.push({ type: kind, value, key: POSTMAN_KEYS[ferryType]?.[field] ?? field });
  }
  return { type, [type]: params };
}
