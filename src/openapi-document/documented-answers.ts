/**
 * The answers a document gives for one operation, as a mock sends them: status, Content-Type,
 * body text and response headers, from the documented examples, else generated from the schema.
 * `ferry import --as-server` writes the first 2xx one into each route; the running mock builds
 * the others when a client asks for them with `Prefer: code=` / `example=`.
 */
import type { OpenApiDocument } from './document.js';
import { isObject, type JsonObject } from './json.js';
import { ExampleGenerator } from './schema-example.js';
import { isXmlMedia, xmlRootName, xmlText } from './xml-text.js';

export interface DocumentedAnswer {
  /** The response key it comes from: `200`, `2XX`, `default`. */
  key: string;
  status: number;
  /** The documented media type, when the response has a body. */
  mediaType: string | undefined;
  body: string;
  /** Documented response headers with an example value (Content-Type and Content-Length left out). */
  headers: [string, string][];
  /** The body was generated from the schema: the document gives no example. */
  generated?: true;
}

/** Documented response keys, vendor extensions left out. */
export function responseKeys(responses: JsonObject): string[] {
  return Object.keys(responses).filter((key) => !key.startsWith('x-'));
}

/**
 * The response a mock answers with by default: the first 2xx in document order (an exact code
 * before `2XX`), else `default`, else the first documented one.
 */
export function defaultResponseKey(responses: JsonObject): string | undefined {
  const keys = responseKeys(responses);
  return keys.find((key) => /^2\d\d$/.test(key)) ?? keys.find((key) => key.toUpperCase() === '2XX') ?? keys.find((key) => key === 'default') ?? keys[0];
}

/** The status sent for a response key: the code itself; a range its first code; `default` 200. */
export function statusForKey(key: string): number {
  if (/^[1-5]\d\d$/.test(key)) return Number(key);
  if (/^[1-5]XX$/i.test(key)) return Number(key[0]) * 100;
  return 200;
}

/** Whether a media type carries JSON (`application/json`, `…+json`, `*\/*`). */
export function isJsonMedia(mediaType: string): boolean {
  const essence = mediaType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json') || essence === '*/*' || essence === 'application/*';
}

export class DocumentedAnswers {
  private readonly generator: ExampleGenerator;

  constructor(private readonly document: OpenApiDocument) {
    this.generator = new ExampleGenerator(document.refs, 'response');
  }

  /**
   * The answer of response `key` of an operation, sent with `status`. With `exampleName`, that
   * named example (OpenAPI 3 `examples`; Swagger 2.0 names them by media type); undefined when
   * the response has no example of that name.
   */
  answer(operation: JsonObject, key: string, status: number, exampleName?: string): DocumentedAnswer | undefined {
    const responses = this.document.followRefs(operation.responses);
    const response = isObject(responses) ? this.document.followRefs(responses[key]) : undefined;
    if (!isObject(response)) return exampleName === undefined ? { key, status, mediaType: undefined, body: '', headers: [] } : undefined;
    const headers = this.headers(response);
    const content = this.document.dialect === 'swagger2' ? this.swaggerContent(operation, response, exampleName) : this.openApiContent(response, exampleName);
    if (content === undefined) return undefined;
    return { key, status, mediaType: content.mediaType, body: content.body, headers, ...(content.generated ? { generated: true as const } : {}) };
  }

  /** The example names a response offers, for messages. */
  exampleNames(operation: JsonObject, key: string): string[] {
    const responses = this.document.followRefs(operation.responses);
    const response = isObject(responses) ? this.document.followRefs(responses[key]) : undefined;
    if (!isObject(response)) return [];
    if (this.document.dialect === 'swagger2') return isObject(response.examples) ? Object.keys(response.examples) : [];
    if (!isObject(response.content)) return [];
    const names = new Set<string>();
    for (const media of Object.values(response.content)) {
      const resolved = this.document.followRefs(media);
      if (isObject(resolved) && isObject(resolved.examples)) for (const name of Object.keys(resolved.examples)) names.add(name);
    }
    return [...names];
  }

  private openApiContent(response: JsonObject, exampleName: string | undefined): { mediaType: string | undefined; body: string; generated?: boolean } | undefined {
    if (!isObject(response.content) || Object.keys(response.content).length === 0) return exampleName === undefined ? { mediaType: undefined, body: '' } : undefined;
    const entries = Object.entries(response.content).map(([type, media]) => [type, this.document.followRefs(media)] as const);
    if (exampleName !== undefined) {
      // The first media type that has an example of that name.
      for (const [type, media] of entries) {
        if (!isObject(media) || !isObject(media.examples) || !Object.hasOwn(media.examples, exampleName)) continue;
        const example = this.document.followRefs(media.examples[exampleName]);
        if (isObject(example) && example.value !== undefined) return { mediaType: type, body: this.bodyText(type, this.document.refs.inlineExampleRefs(example.value), media.schema) };
      }
      return undefined;
    }
    const [type, media] = entries.find(([candidate]) => isJsonMedia(candidate)) ?? entries[0]!;
    if (!isObject(media)) return { mediaType: type, body: '' };
    const example = this.mediaExample(media);
    if (example !== undefined || media.schema === undefined) return { mediaType: type, body: this.bodyText(type, this.document.refs.inlineExampleRefs(example), media.schema) };
    return { mediaType: type, body: this.bodyText(type, this.document.refs.inlineExampleRefs(this.generator.generate(media.schema)), media.schema), generated: true };
  }

  /** The media type's own example: `example`, else the first of `examples`. */
  private mediaExample(media: JsonObject): unknown {
    if (media.example !== undefined) return media.example;
    if (isObject(media.examples)) {
      for (const entry of Object.values(media.examples)) {
        const example = this.document.followRefs(entry);
        if (isObject(example) && example.value !== undefined) return example.value;
      }
    }
    return undefined;
  }

  private swaggerContent(operation: JsonObject, response: JsonObject, exampleName: string | undefined): { mediaType: string | undefined; body: string; generated?: boolean } | undefined {
    const examples = isObject(response.examples) ? response.examples : {};
    if (exampleName !== undefined) {
      return Object.hasOwn(examples, exampleName) ? { mediaType: exampleName, body: this.bodyText(exampleName, this.document.refs.inlineExampleRefs(examples[exampleName]), response.schema) } : undefined;
    }
    const produces = stringList(operation.produces ?? this.document.root.produces);
    const mediaType = produces.find(isJsonMedia) ?? produces[0] ?? 'application/json';
    if (Object.hasOwn(examples, mediaType)) return { mediaType, body: this.bodyText(mediaType, this.document.refs.inlineExampleRefs(examples[mediaType]), response.schema) };
    if (response.schema === undefined) return { mediaType: undefined, body: '' };
    return { mediaType, body: this.bodyText(mediaType, this.generator.generate(response.schema), response.schema), generated: true };
  }

  /**
   * A body value as text: strings as they are for types other than JSON; for XML types a value
   * as an XML document (root named by the schema), as the importer writes XML bodies; everything
   * else as indented JSON.
   */
  private bodyText(mediaType: string, value: unknown, rawSchema: unknown): string {
    if (value === undefined) return '';
    if (typeof value === 'string' && !isJsonMedia(mediaType)) return value;
    if (isXmlMedia(mediaType)) {
      return xmlText(xmlRootName(this.document.refs.schema(rawSchema), rawSchema), value);
    }
    return JSON.stringify(value, null, 2);
  }

  private headers(response: JsonObject): [string, string][] {
    if (!isObject(response.headers)) return [];
    const out: [string, string][] = [];
    for (const [name, raw] of Object.entries(response.headers)) {
      const lower = name.toLowerCase();
      if (lower === 'content-type' || lower === 'content-length') continue;
      const header = this.document.followRefs(raw);
      if (!isObject(header)) continue;
      let value: unknown = header.example ?? header['x-example'];
      if (value === undefined && isObject(header.examples)) {
        const first = this.document.followRefs(Object.values(header.examples)[0]);
        if (isObject(first)) value = first.value;
      }
      // OpenAPI 3 puts the type under `schema`; Swagger 2.0 on the header itself.
      if (value === undefined) value = this.generator.generate(header.schema ?? header);
      if (value !== undefined && value !== null) out.push([name, typeof value === 'string' ? value : JSON.stringify(value)]);
    }
    return out;
  }
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
