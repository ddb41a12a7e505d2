/**
 * Which documented response a status matches, and which schema (if any) its body is checked
 * against (spec 7.1, status rule and body rule).
 */
import { isObject, type JsonObject, type OpenApiDocument } from '../openapi-document/index.js';
import type { ContractHeaders } from './types.js';

/** The documented response keys (`200`, `4XX`, `default`), vendor extensions left out. */
export function documentedStatuses(responses: JsonObject): string[] {
  return Object.keys(responses).filter((key) => !key.startsWith('x-'));
}

/** Lookup order: the exact code, its range such as `2XX` (any case), then `default`. */
export function findResponseKey(responses: JsonObject, status: number): string | undefined {
  const keys = documentedStatuses(responses);
  const exact = String(status);
  if (keys.includes(exact)) return exact;
  const range = `${Math.floor(status / 100)}XX`;
  const rangeKey = keys.find((key) => key.toUpperCase() === range);
  if (rangeKey !== undefined) return rangeKey;
  return keys.find((key) => key === 'default');
}

/** The media type without parameters, lower case: `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeEssence(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

/** Whether a response's Content-Type says JSON: `.../json` or `...+json`. */
export function isJsonMediaType(essence: string): boolean {
  const subtype = essence.slice(essence.indexOf('/') + 1);
  return essence.includes('/') && (subtype === 'json' || subtype.endsWith('+json'));
}

/** Document content entries that may describe a JSON body (spec 7.1 list). */
export function isJsonLikeEntry(essence: string): boolean {
  return essence === 'application/json' || essence.endsWith('+json') || essence === 'application/*' || essence === '*/*';
}

export function headerValue(headers: ContractHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  if (Array.isArray(headers)) {
    for (const [key, value] of headers as ReadonlyArray<readonly [string, string]>) {
      if (key.toLowerCase() === wanted) return value;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}

/**
 * The schema the body is checked against, or undefined when only the status is checked
 * (no JSON body schema documented, the response is not JSON, or the schema is a reference that
 * cannot be followed: to another file or URL, to nowhere, or in a loop; nothing is known of the
 * body then, so not even an empty one is refused). A response without a Content-Type is read as
 * JSON when the document gives a JSON schema.
 */
export function bodySchemaFor(document: OpenApiDocument, response: unknown, contentType: string | undefined): unknown {
  const schema = documentedSchema(document, response, contentType);
  return schema === undefined || document.followRefs(schema) === undefined ? undefined : schema;
}

function documentedSchema(document: OpenApiDocument, response: unknown, contentType: string | undefined): unknown {
  const resolved = document.followRefs(response);
  if (!isObject(resolved)) return undefined;
  const essence = contentType === undefined ? undefined : mediaTypeEssence(contentType);
  if (essence !== undefined && essence !== '' && !isJsonMediaType(essence)) return undefined;

  if (document.dialect === 'swagger2') return resolved.schema ?? undefined;

  if (!isObject(resolved.content)) return undefined;
  const entries = Object.entries(resolved.content).map(([key, entry]) => ({ essence: mediaTypeEssence(key), entry }));
  const exact = essence === undefined ? undefined : entries.find((candidate) => candidate.essence === essence);
  const chosen = exact ?? entries.find((candidate) => isJsonLikeEntry(candidate.essence));
  if (chosen === undefined || !isObject(chosen.entry)) return undefined;
  return chosen.entry.schema ?? undefined;
}
