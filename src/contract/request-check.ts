/**
 * Checks a request against its operation (Ferry's addition for the mock API, issue 22): path,
 * query and header parameters (type, required, enum and the other schema keywords of spec 7.1)
 * and the JSON body against its schema, with the contract check's rules and message shapes.
 * Compiled once per operation; a request then costs a few lookups and one schema walk.
 */
import { isObject, type FoundOperation, type JsonObject, type OpenApiDocument } from '../openapi-document/index.js';
import { messages } from './messages.js';
import { isJsonLikeEntry, isJsonMediaType, mediaTypeEssence } from './response-selection.js';
import { Problems, type SchemaChecker } from './schema-check.js';

/** What the check reads of one request; values as sent (path parameters not yet decoded). */
export interface RequestParts {
  /** A path parameter by the document's name, raw. */
  pathParam(name: string): string | undefined;
  /** Every value of a query parameter, decoded; undefined when absent. */
  query(name: string): string[] | undefined;
  /** Every value of a header, by its lower-case name. */
  header(lowerName: string): string[];
  /** The body, when it was read. */
  body: Buffer | undefined;
}

type Location = 'path' | 'query' | 'header';

interface ParameterRule {
  name: string;
  location: Location;
  /** `query parameter \`limit\``: how messages name it. */
  label: string;
  required: boolean;
  /** The schema to check the (converted) value against; undefined = presence only. */
  schema: unknown;
  /** What the text is read as before the check. */
  shape: ValueShape;
}

interface ValueShape {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'other';
  /** Array items. */
  items?: ValueShape;
  /**
   * What joins an array sent as one value: `,` (Swagger 2.0 `csv`, OpenAPI `form` unexploded, and
   * arrays outside the query), ` ` (`ssv`, `spaceDelimited`), tab (`tsv`), `|` (`pipes`,
   * `pipeDelimited`); undefined when each item is its own key (`multi`, exploded `form`).
   */
  separator?: string;
}

interface BodyRule {
  required: boolean;
  /** Documented media types (lower case, no parameters) and their schemas. */
  media: { essence: string; schema: unknown }[];
}

/** Headers OpenAPI says are described elsewhere, not as parameters. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

export class RequestValidator {
  private readonly parameters: ParameterRule[];
  private readonly bodyRule: BodyRule | undefined;
  /** True when the check reads the body: read it before calling `check`. */
  readonly needsBody: boolean;

  constructor(
    private readonly document: OpenApiDocument,
    private readonly checker: SchemaChecker,
    found: FoundOperation,
  ) {
    this.parameters = this.compileParameters(found);
    this.bodyRule = this.compileBody(found);
    this.needsBody = this.bodyRule !== undefined;
  }

  /** The problems of a request, in the contract check's wording; empty when it matches. */
  check(parts: RequestParts): Problems {
    const problems = new Problems();
    for (const rule of this.parameters) {
      const values = this.valuesOf(rule, parts);
      if (values === undefined) {
        if (rule.required) problems.add(() => messages.parameterMissing(rule.label));
        continue;
      }
      if (rule.schema === undefined) continue;
      this.checkValue(convert(values, rule.shape), rule.schema, rule.label, problems);
    }
    if (this.bodyRule !== undefined) this.checkBody(this.bodyRule, parts, problems);
    return problems;
  }

  private valuesOf(rule: ParameterRule, parts: RequestParts): string[] | undefined {
    switch (rule.location) {
      case 'path': {
        const raw = parts.pathParam(rule.name);
        if (raw === undefined) return undefined;
        return [decodePathPart(raw)];
      }
      case 'query':
        return parts.query(rule.name);
      case 'header': {
        const found = parts.header(rule.name.toLowerCase());
        return found.length === 0 ? undefined : found;
      }
    }
  }

  private checkValue(value: unknown, schema: unknown, label: string, problems: Problems): void {
    const found = new Problems();
    this.checker.check(value, schema, found);
    // The checker names the value `$`; a parameter is named by its place instead.
    for (const text of found.listed) problems.add(() => (text.startsWith('$') ? `${label}${text.slice(1)}` : text));
    problems.unlisted += found.unlisted;
  }

  private checkBody(rule: BodyRule, parts: RequestParts, problems: Problems): void {
    const body = parts.body;
    const text = body === undefined ? '' : body.toString('utf8');
    if (text.trim() === '') {
      if (rule.required) problems.add(() => messages.requestBodyMissing());
      return;
    }
    const header = parts.header('content-type')[0];
    const essence = header === undefined ? undefined : mediaTypeEssence(header);
    let chosen = essence === undefined ? undefined : rule.media.find((media) => media.essence === essence || wildcardMatches(media.essence, essence));
    if (chosen === undefined) {
      if (essence !== undefined && rule.media.length > 0) {
        problems.add(() => messages.contentTypeNotDocumented(essence, rule.media.map((media) => media.essence)));
        return;
      }
      // Sent without a Content-Type: read as JSON when the operation takes JSON.
      chosen = rule.media.find((media) => isJsonLikeEntry(media.essence));
      if (chosen === undefined) return;
    }
    if (chosen.schema === undefined || !(isJsonMediaType(chosen.essence) || isJsonLikeEntry(chosen.essence))) return;
    if (essence !== undefined && !isJsonMediaType(essence)) return; // a form or text body: not checked
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const detail = (error as Error).message.replace(/ is not valid JSON$/, '');
      problems.add(() => messages.bodyNotJson(detail));
      return;
    }
    const found = new Problems();
    this.checker.check(value, chosen.schema, found);
    for (const line of found.listed) problems.add(() => line);
    problems.unlisted += found.unlisted;
  }

  private compileParameters(found: FoundOperation): ParameterRule[] {
    const merged = new Map<string, JsonObject>();
    for (const list of [found.pathItem.parameters, found.operation.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const parameter = this.document.followRefs(raw);
        if (!isObject(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') continue;
        merged.set(`${parameter.in}\0${parameter.name}`, parameter); // the operation's own wins
      }
    }
    const rules: ParameterRule[] = [];
    for (const parameter of merged.values()) {
      const location = parameter.in as string;
      if (location !== 'path' && location !== 'query' && location !== 'header') continue; // cookies, bodies, forms
      const name = parameter.name as string;
      if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
      // OpenAPI 3 gives the type under `schema` (or `content`, not checked); Swagger 2.0 on the parameter.
      const schema = this.document.dialect === 'swagger2' ? swaggerSchema(parameter) : parameter.schema;
      // An object in the query is spread over keys its style names (`filter[a]`, or its own
      // properties' names): not checked, as documented (not even whether it is there).
      if (location === 'query' && (parameter.style === 'deepObject' || isObjectSchema(this.document.followRefs(schema)))) continue;
      rules.push({
        name,
        location,
        label: `${location === 'header' ? 'The header' : `The ${location} parameter`} \`${name}\``,
        required: location === 'path' || parameter.required === true,
        schema,
        shape: this.shapeOf(schema, parameter),
      });
    }
    return rules;
  }

  private shapeOf(schema: unknown, parameter: JsonObject, depth = 0): ValueShape {
    const resolved = this.document.followRefs(schema);
    const type = isObject(resolved) ? typeName(resolved.type) : undefined;
    if (type === 'array' && depth === 0) {
      const items = isObject(resolved) ? this.shapeOf(resolved.items, parameter, 1) : undefined;
      const separator = this.document.dialect === 'swagger2' ? swaggerSeparator(parameter.collectionFormat) : openApiSeparator(parameter);
      return { type: 'array', ...(items ? { items } : {}), ...(separator !== undefined ? { separator } : {}) };
    }
    if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return { type };
    return { type: 'other' };
  }

  private compileBody(found: FoundOperation): BodyRule | undefined {
    if (this.document.dialect === 'swagger2') {
      const parameters = [...asArray(found.pathItem.parameters), ...asArray(found.operation.parameters)].map((p) => this.document.followRefs(p));
      const body = parameters.find((p): p is JsonObject => isObject(p) && p.in === 'body');
      if (body === undefined) return undefined;
      const consumes = asArray(found.operation.consumes ?? this.document.root.consumes).filter((t): t is string => typeof t === 'string');
      const types = consumes.length > 0 ? consumes : ['application/json'];
      return { required: body.required === true, media: types.map((type) => ({ essence: mediaTypeEssence(type), schema: body.schema })) };
    }
    const requestBody = this.document.followRefs(found.operation.requestBody);
    if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
    const media = Object.entries(requestBody.content).map(([type, entry]) => {
      const resolved = this.document.followRefs(entry);
      return { essence: mediaTypeEssence(type), schema: isObject(resolved) ? resolved.schema : undefined };
    });
    return { required: requestBody.required === true, media };
  }
}

/** Swagger 2.0 puts the schema keywords on the parameter itself. */
function swaggerSchema(parameter: JsonObject): JsonObject {
  const { name: _name, in: _in, required: _required, description: _description, collectionFormat: _format, allowEmptyValue: _empty, ...schema } = parameter;
  if (schema.type === 'file') return {};
  return schema;
}

function typeName(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

/** Text to the value the schema expects, where the text reads as one; else the text (so the check names it). */
function convert(values: string[], shape: ValueShape): unknown {
  if (shape.type === 'array') {
    const items = shape.separator !== undefined && values.length === 1 ? values[0]!.split(shape.separator) : values;
    return items.map((item) => scalar(item, shape.items));
  }
  return scalar(values[0]!, shape);
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function scalar(text: string, shape: ValueShape | undefined): unknown {
  switch (shape?.type) {
    case 'number':
    case 'integer':
      return NUMBER.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

function decodePathPart(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function wildcardMatches(documented: string, sent: string): boolean {
  if (documented === '*/*') return true;
  return documented.endsWith('/*') && sent.startsWith(documented.slice(0, -1));
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObjectSchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  return schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || (schema.type === undefined && isObject(schema.properties));
}

/** Swagger 2.0 `collectionFormat` (default `csv`); `multi` repeats the key. */
function swaggerSeparator(format: unknown): string | undefined {
  if (format === 'multi') return undefined;
  return format === 'ssv' ? ' ' : format === 'tsv' ? '\t' : format === 'pipes' ? '|' : ',';
}

/** OpenAPI 3 `style` and `explode` (true by default for `form` only); outside the query, arrays are comma-separated. */
function openApiSeparator(parameter: JsonObject): string | undefined {
  if (parameter.in !== 'query' && parameter.in !== 'cookie') return ',';
  const style = parameter.style ?? 'form';
  if (parameter.explode ?? style === 'form') return undefined;
  return style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
}
