/**
 * The request body (spec 4.4 table): the document's example, else one generated from the
 * schema, as JSON, XML, text, form, multipart or a binary file. OpenAPI 3 `requestBody` and
 * Swagger 2.0 `body`/`formData` parameters alike.
 */
import type { ImportedRequestData } from '../types.js';
import { scalarText } from './params.js';
import { ExampleGenerator, isObject, type JsonObject, type RefResolver, xmlRootName, xmlText } from '../../openapi-document/index.js';

export type ImportedBody = NonNullable<ImportedRequestData['body']>;

export interface BodyOutcome {
  body?: ImportedBody;
  /** A `Content-Type` header when the media type is not the body type's usual one. */
  contentTypeHeader?: string;
  /** The body refers to a file the user must choose (binary body, multipart file part). */
  needsFile: boolean;
  /** A JSON body generated from the schema (the document gives no example). */
  generated?: true;
}

type Kind = 'json' | 'xml' | 'formUrlencoded' | 'multipart' | 'text' | 'binary';

export function mediaKind(mediaType: string): Kind {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json' || /^application\/[^/]*json/.test(type) || type === '*/*') return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  if (type === 'application/x-www-form-urlencoded') return 'formUrlencoded';
  if (type.startsWith('multipart/')) return 'multipart';
  if (type.startsWith('text/') || type === 'application/javascript' || type === 'application/graphql' || type === 'application/jwt') return 'text';
  return 'binary';
}

const USUAL_CONTENT_TYPE: Partial<Record<Kind, string[]>> = {
  json: ['application/json', '*/*'],
  xml: ['application/xml', 'text/xml'],
  formUrlencoded: ['application/x-www-form-urlencoded'],
  multipart: ['multipart/form-data'],
};

export class BodyBuilder {
  private readonly examples: ExampleGenerator;
  /**
   * JSON bodies generated from a schema, by the `$ref` they name (or the schema itself): many
   * operations send the same type (Kubernetes: create, replace and patch of each kind, namespaced
   * or not), and a generated example depends only on the schema it starts from.
   */
  private readonly generatedByRef = new Map<string, string>();
  private readonly generatedBySchema = new Map<unknown, string>();

  /**
   * @param earlier bodies as imports by earlier Ferry versions wrote them (`BuildOptions.asEarlierImports`):
   *   local references inside examples left as written, a JSON body that is a string written bare.
   */
  constructor(private readonly refs: RefResolver, private readonly earlier = false) {
    this.examples = new ExampleGenerator(refs);
  }

  /** OpenAPI 3 `requestBody`. */
  fromRequestBody(requestBody: unknown): BodyOutcome {
    const body = this.refs.object(requestBody);
    if (!body || !isObject(body.content)) return { needsFile: false };
    const entries = Object.entries(body.content);
    if (entries.length === 0) return { needsFile: false };
    const [mediaType, rawMedia] = entries.find(([type]) => mediaKind(type) === 'json') ?? entries[0]!;
    const media = this.refs.object(rawMedia) ?? {};
    const schema = this.refs.schema(media.schema);
    return this.build(mediaType, schema, media.schema, () => this.mediaExample(media));
  }

  /** Swagger 2.0: the `body` parameter or the `formData` parameters, with `consumes`. */
  fromSwaggerParams(params: JsonObject[], consumes: string[]): BodyOutcome {
    const bodyParam = params.find((p) => p.in === 'body');
    if (bodyParam) {
      const mediaType = consumes.find((t) => mediaKind(t) === 'json') ?? consumes[0] ?? 'application/json';
      const schema = this.refs.schema(bodyParam.schema);
      return this.build(mediaType, schema, bodyParam.schema, () => {
        const example = isObject(bodyParam['x-examples']) ? Object.values(bodyParam['x-examples'])[0] : undefined;
        return example === undefined ? { found: false } : { found: true, value: example };
      });
    }
    const formParams = params.filter((p) => p.in === 'formData');
    if (formParams.length === 0) return { needsFile: false };
    const multipart = formParams.some((p) => p.type === 'file') || consumes.some((t) => t.toLowerCase().startsWith('multipart/'));
    const rows = formParams.map((p) => ({
      key: String(p.name),
      value: p.type === 'file' ? '' : scalarText(this.paramExample(p)),
      file: p.type === 'file',
      description: typeof p.description === 'string' ? p.description.trim() : '',
    }));
    if (multipart) {
      return {
        body: { type: 'multipart', multipart: rows.map((r) => ({ key: r.key, value: r.value, ...(r.file ? { file: true } : {}) })) },
        needsFile: rows.some((r) => r.file),
      };
    }
    return { body: { type: 'formUrlencoded', form: rows.map((r) => ({ key: r.key, value: r.value, ...(r.description ? { description: r.description } : {}) })) }, needsFile: false };
  }

  private paramExample(param: JsonObject): unknown {
    if (param['x-example'] !== undefined) return param['x-example'];
    if (param.default !== undefined) return param.default;
    if (Array.isArray(param.enum) && param.enum.length > 0) return param.enum[0];
    return this.examples.generate(param);
  }

  /** The media type's example, its local `$ref`s inlined (as the mock's answers are). */
  private mediaExample(media: JsonObject): { found: boolean; value?: unknown } {
    const inline = (value: unknown) => (this.earlier ? value : this.refs.inlineExampleRefs(value));
    if (media.example !== undefined) return { found: true, value: inline(media.example) };
    if (isObject(media.examples)) {
      for (const entry of Object.values(media.examples)) {
        const example = this.refs.object(entry);
        if (example && example.value !== undefined) return { found: true, value: inline(example.value) };
      }
    }
    return { found: false };
  }

  private build(mediaType: string, schema: JsonObject | undefined, rawSchema: unknown, explicit: () => { found: boolean; value?: unknown }): BodyOutcome {
    let kind = mediaKind(mediaType);
    if (kind === 'json' && schema && schema.type === 'string' && (schema.format === 'binary' || schema.format === 'base64')) kind = 'binary';
    const header = USUAL_CONTENT_TYPE[kind] && !USUAL_CONTENT_TYPE[kind]!.includes(mediaType.toLowerCase()) ? mediaType : undefined;
    const example = () => {
      const given = explicit();
      return given.found ? given.value : this.examples.generate(rawSchema);
    };
    switch (kind) {
      case 'json': {
        const given = explicit();
        const text = this.earlier
          ? earlierJsonText(given.found ? given.value : this.examples.generate(rawSchema))
          : given.found ? givenJsonText(given.value, schema) : this.generatedJsonText(rawSchema, schema);
        return { body: { type: 'json', text }, ...(header ? { contentTypeHeader: header } : {}), needsFile: false, ...(given.found ? {} : { generated: true as const }) };
      }
      case 'xml': {
        const value = example();
        const rootName = xmlRootName(schema, rawSchema);
        const text = typeof value === 'string' ? value : xmlText(rootName, value);
        return { body: { type: 'xml', text }, ...(header ? { contentTypeHeader: header } : {}), needsFile: false };
      }
      case 'text': {
        const value = example();
        return { body: { type: 'text', text: value === undefined ? '' : scalarText(value), contentType: mediaType }, needsFile: false };
      }
      case 'binary':
        return { body: { type: 'binary' }, contentTypeHeader: mediaType === '*/*' ? undefined : mediaType, needsFile: true };
      case 'formUrlencoded':
      case 'multipart':
        return this.formBody(kind, schema, example, header);
    }
  }

  private generatedJsonText(rawSchema: unknown, schema: JsonObject | undefined): string {
    // A lone `$ref` gives the same example wherever it is used, so the reference is the key; one
    // with keywords beside it (3.1, where they apply) is its own schema.
    const byRef = isObject(rawSchema) && typeof rawSchema.$ref === 'string' && (!this.refs.siblingsApply || Object.keys(rawSchema).length === 1);
    const cache: Map<unknown, string> = byRef ? this.generatedByRef : this.generatedBySchema;
    const key = byRef ? rawSchema.$ref : rawSchema;
    let text = cache.get(key);
    if (text === undefined) {
      text = givenJsonText(this.examples.generate(rawSchema), schema);
      cache.set(key, text);
    }
    return text;
  }

  private formBody(kind: 'formUrlencoded' | 'multipart', schema: JsonObject | undefined, example: () => unknown, header: string | undefined): BodyOutcome {
    const value = example();
    const properties = collectProperties(schema, this.refs);
    const values = isObject(value) ? value : {};
    const keys = new Set([...Object.keys(properties), ...Object.keys(values)]);
    const rows = [...keys].map((key) => {
      const property = this.refs.schema(properties[key]);
      const isFile = property !== undefined && isFileSchema(property, this.refs);
      const description = property && typeof property.description === 'string' ? property.description.trim() : '';
      return { key, value: isFile ? '' : scalarText(values[key]), file: isFile, description };
    });
    const extra = header ? { contentTypeHeader: header } : {};
    if (kind === 'multipart') {
      return { body: { type: 'multipart', multipart: rows.map((r) => ({ key: r.key, value: r.value, ...(r.file ? { file: true } : {}) })) }, ...extra, needsFile: rows.some((r) => r.file) };
    }
    return { body: { type: 'formUrlencoded', form: rows.map((r) => ({ key: r.key, value: r.value, ...(r.description ? { description: r.description } : {}) })) }, ...extra, needsFile: false };
  }
}

/** JSON text as earlier Ferry versions wrote it: a string bare (`.`), anything else indented. */
function earlierJsonText(value: unknown): string {
  return typeof value === 'string' ? value : jsonText(value);
}

/** A value as JSON text: a string is a JSON string (`"."`), not bare text. */
function jsonText(value: unknown): string {
  return JSON.stringify(value ?? {}, null, 2);
}

/**
 * An example (the document's own, or generated from the schema) as JSON text. Documents often write a JSON example as text
 * (`example: '{"a": 1}'`): a string that parses as JSON is kept as written, unless the schema
 * says the body is a string; any other string is quoted, as the JSON it stands for.
 */
function givenJsonText(value: unknown, schema: JsonObject | undefined): string {
  if (typeof value !== 'string' || schema?.type === 'string') return jsonText(value);
  try {
    JSON.parse(value);
    return value;
  } catch {
    return jsonText(value);
  }
}

/** Properties of an object schema, through `allOf`. */
function collectProperties(schema: JsonObject | undefined, refs: RefResolver, depth = 0): Record<string, unknown> {
  if (!schema || depth > 8) return {};
  let out: Record<string, unknown> = {};
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) out = { ...out, ...collectProperties(refs.schema(part), refs, depth + 1) };
  if (isObject(schema.properties)) out = { ...out, ...schema.properties };
  return out;
}

function isFileSchema(schema: JsonObject, refs: RefResolver): boolean {
  if (schema.type === 'file' || schema.format === 'binary' || schema.format === 'base64' || schema.contentMediaType !== undefined) return true;
  if (schema.type === 'array') {
    const items = refs.object(schema.items);
    return items !== undefined && (items.format === 'binary' || items.type === 'file');
  }
  return false;
}
