/**
 * Parameters to the request (spec 4.4 table): path parameters as `{{camelCase}}` variables,
 * required query parameters in the URL, optional ones switched off, headers and one `Cookie`.
 */
import type { KeyValue } from '../../model/index.js';
import type { ImportedVariable } from '../types.js';
import { pathVariableNames } from './names.js';
import { ExampleGenerator, isObject, type JsonObject, type SpecVersion, type RefResolver } from '../../openapi-document/index.js';

type Row = Partial<KeyValue> & { key: string };

export interface ParameterParts {
  /** The path with `{{variables}}` and the enabled query string, to put after the base URL. */
  pathAndQuery: string;
  disabledParams: Row[];
  paramDescriptions: Row[];
  headers: Row[];
  /** Path parameters as environment variables: the document's example, else one generated from the schema. */
  variables: ImportedVariable[];
  /** Swagger 2.0 `in: body` and `in: formData` parameters, for the body. */
  bodyParams: JsonObject[];
}

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Operation parameters override path-item parameters with the same name and location. */
export function mergeParameters(refs: RefResolver, pathItemParams: unknown, operationParams: unknown): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  for (const list of [pathItemParams, operationParams]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const param = refs.reference(raw);
      if (!param || typeof param.name !== 'string') continue;
      merged.set(`${String(param.in)}\0${param.name}`, param);
    }
  }
  return [...merged.values()];
}

/**
 * @param earlier the parameters as imports by earlier Ferry versions wrote them (an update tells
 *   such values from your edits): no generated values (left empty), object query parameters as
 *   JSON text, every array by repeating its key.
 */
export function buildParameters(pathTemplate: string, params: JsonObject[], refs: RefResolver, version: SpecVersion, earlier = false): ParameterParts {
  const generate = !earlier;
  const names = pathVariableNames(pathTemplate);
  const byName = new Map(params.filter((p) => p.in === 'path').map((p) => [p.name as string, p]));
  const variables: ImportedVariable[] = [];
  const path = pathTemplate.replace(/\{([^{}]+)\}/g, (_whole, param: string) => {
    const name = names.get(param) ?? param;
    const definition = byName.get(param);
    const example = definition ? (exampleOf(definition, refs, version) ?? (generate ? generatedValue(definition, refs, version) : undefined)) : undefined;
    variables.push({ key: name, value: example === undefined ? '' : scalarText(example) });
    return `{{${name}}}`;
  });

  const query: string[] = [];
  const disabledParams: Row[] = [];
  const paramDescriptions: Row[] = [];
  const headers: Row[] = [];
  const cookies: { text: string; required: boolean; description: string }[] = [];
  const bodyParams: JsonObject[] = [];

  for (const param of params) {
    const name = param.name as string;
    const description = typeof param.description === 'string' ? param.description.trim() : '';
    const required = param.required === true;
    // A required parameter is sent: without an example it gets a generated value, as path parameters do.
    const example = exampleOf(param, refs, version) ?? (generate && required && param.in !== 'body' && param.in !== 'formData' ? generatedValue(param, refs, version, param.in === 'query') : undefined);
    switch (param.in) {
      case 'query': {
        if (isObject(example) && !earlier) {
          // An object goes out as its style says: `filter[a]=1` (deepObject), `a=1` (form, exploded), `filter=a,1` (form).
          const pairs = objectQueryPairs(param, example);
          if (required) {
            for (const [key, value] of pairs) query.push(`${key}=${encodeQuery(value)}`);
            if (description) paramDescriptions.push({ key: name, description });
          } else {
            for (const [key, value] of pairs) disabledParams.push({ key: decodeURIComponent(key), value, ...(description ? { description } : {}) });
          }
          break;
        }
        const separator = Array.isArray(example) && !earlier ? arraySeparator(param, version) : undefined;
        const values = Array.isArray(example) ? (separator === undefined ? example.map(scalarText) : [example.map(scalarText).join(separator)]) : [example === undefined ? '' : scalarText(example)];
        if (required) {
          for (const value of values) query.push(`${encodeQuery(name)}=${encodeQuery(value)}`);
          if (description) paramDescriptions.push({ key: name, description });
        } else {
          disabledParams.push({ key: name, value: values.join(','), ...(description ? { description } : {}) });
        }
        break;
      }
      case 'header':
        if (IGNORED_HEADERS.has(name.toLowerCase())) break;
        headers.push({
          key: name,
          value: example === undefined ? '' : Array.isArray(example) ? example.map(scalarText).join(',') : scalarText(example),
          ...(required ? {} : { enabled: false }),
          ...(description ? { description } : {}),
        });
        break;
      case 'cookie':
        cookies.push({ text: `${name}=${example === undefined ? '' : scalarText(example)}`, required, description: description ? `${name}: ${description}` : '' });
        break;
      case 'body':
      case 'formData':
        bodyParams.push(param);
        break;
      default:
        break;
    }
  }
  if (cookies.length > 0) {
    const description = cookies.map((c) => c.description).filter(Boolean).join('\n');
    headers.push({
      key: 'Cookie',
      value: cookies.map((c) => c.text).join('; '),
      ...(cookies.some((c) => c.required) ? {} : { enabled: false }),
      ...(description ? { description } : {}),
    });
  }
  return { pathAndQuery: query.length > 0 ? `${path}?${query.join('&')}` : path, disabledParams, paramDescriptions, headers, variables, bodyParams };
}

/** The example a parameter gives: its own, its schema's, a default, or the first allowed value. */
export function exampleOf(param: JsonObject, refs: RefResolver, version: SpecVersion): unknown {
  if (param.example !== undefined) return param.example;
  if (isObject(param.examples)) {
    for (const entry of Object.values(param.examples)) {
      const example = refs.object(entry);
      if (example && example.value !== undefined) return example.value;
    }
  }
  const schema = version === 'swagger2' ? param : refs.schema(param.schema);
  if (!schema) return undefined;
  if (schema['x-example'] !== undefined) return schema['x-example'];
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const items = refs.schema(schema.items);
  if (items && Array.isArray(items.enum) && items.enum.length > 0) return [items.enum[0]];
  return undefined;
}

/**
 * A path or required parameter without an example gets one generated from its schema (`string`,
 * `0` or the minimum, a date…), as request bodies do: left empty, `/pets/{petId}` would be sent as
 * `/pets/`, the URL of another operation (a `DELETE` of the whole collection, at worst), and
 * `?limit=` fails the API's (and the mock's) check of an integer. Objects stay empty.
 */
function generatedValue(param: JsonObject, refs: RefResolver, version: SpecVersion, objects = false): unknown {
  const value = new ExampleGenerator(refs).generate(version === 'swagger2' ? param : param.schema);
  if (Array.isArray(value)) return value.every((item) => item === null || typeof item !== 'object') ? value.join(',') : undefined;
  if (objects && isObject(value)) return value;
  return value !== null && typeof value === 'object' ? undefined : value;
}

/**
 * How an array query parameter joins its values into one: Swagger 2.0's `collectionFormat`
 * (`csv`, the default; `ssv`, `tsv`, `pipes`; `multi` repeats the key), OpenAPI 3's `style`
 * unexploded (`form` with `explode: false` by commas, `spaceDelimited`, `pipeDelimited`). Undefined: the
 * key is repeated (`multi`, and OpenAPI 3's default exploded `form`).
 */
function arraySeparator(param: JsonObject, version: SpecVersion): string | undefined {
  if (version === 'swagger2') {
    const format = param.collectionFormat ?? 'csv';
    return format === 'multi' ? undefined : ({ csv: ',', ssv: ' ', tsv: '\t', pipes: '|' } as Record<string, string>)[String(format)] ?? ',';
  }
  const style = param.style ?? 'form';
  // `explode` defaults to true for `form` only (OpenAPI 3.0 4.7.12.1).
  if (param.explode ?? style === 'form') return undefined;
  return style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
}

/** An object query parameter's key/value pairs (keys encoded, values not), by its `style` and `explode` (OpenAPI 3). */
function objectQueryPairs(param: JsonObject, value: JsonObject): [string, string][] {
  const name = encodeQuery(String(param.name));
  const entries = Object.entries(value).filter(([, inner]) => inner !== undefined);
  if (param.style === 'deepObject') return entries.map(([key, inner]) => [`${name}[${encodeQuery(key)}]`, scalarText(inner)]);
  if (param.explode === false) return [[name, entries.flatMap(([key, inner]) => [key, scalarText(inner)]).join(',')]];
  return entries.map(([key, inner]) => [encodeQuery(key), scalarText(inner)]);
}

export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Encodes a query part, leaving `{{variables}}` and characters that are safe in a query readable. */
function encodeQuery(text: string): string {
  return text
    .split(/(\{\{[^{}]*\}\})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURIComponent(part).replace(/%(2C|3A|40|2F|24|21|27|28|29|2A)/gi, (m) => decodeURIComponent(m))))
    .join('');
}
