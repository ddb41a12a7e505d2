/**
 * Example values written as XML, for request bodies the importer makes and answers the mock
 * sends: the root element is the schema's `xml.name`, else the name of the `$ref` it comes from.
 */
import { lazyRequire } from '../support/lazy-require.js';
import { isObject, type JsonObject } from './json.js';
import { refName } from './refs.js';

/** Whether a media type carries XML (`application/xml`, `text/xml`, `…+xml`). */
export function isXmlMedia(mediaType: string): boolean {
  const essence = mediaType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml');
}

/** The root element's name: `xml.name`, else the referenced schema's name, else `root`. */
export function xmlRootName(schema: JsonObject | undefined, rawSchema: unknown): string {
  if (schema && isObject(schema.xml) && typeof schema.xml.name === 'string') return schema.xml.name;
  if (isObject(rawSchema) && typeof rawSchema.$ref === 'string') return refName(rawSchema.$ref).replace(/[^A-Za-z0-9_.-]/g, '') || 'root';
  return 'root';
}

const fastXml = lazyRequire<typeof import('fast-xml-parser')>(import.meta.url, 'fast-xml-parser');
let builder: InstanceType<typeof import('fast-xml-parser').XMLBuilder> | undefined;
const xmlBuilder = () => (builder ??= new (fastXml().XMLBuilder)({ format: true, indentBy: '  ', suppressEmptyNode: false }));

/** A value as an XML document under `rootName`. */
export function xmlText(rootName: string, value: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xmlBuilder().build({ [rootName]: value ?? '' }).trimEnd()}`;
}
