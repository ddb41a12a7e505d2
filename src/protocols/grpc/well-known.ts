/**
 * The proto3 JSON forms of the well-known types (documented in docs/running.md), as grpcurl,
 * Postman and Insomnia read and show them: a Timestamp is an RFC 3339 string, a Duration `"1.5s"`,
 * a wrapper (`Int32Value`, `StringValue`…) its bare value, a Struct a JSON object, a Value any JSON
 * value and a ListValue an array, an Any its type URL under "@type" with the packed message's
 * fields. protobufjs only knows their message forms
 * (`{"seconds": "…", "nanos": 0}`, `{"fields": {"k": {"stringValue": "v"}}}`), so messages are
 * turned into those forms before encoding and back after decoding.
 */
import type { PackageDefinition } from '@grpc/proto-loader';
import { jsonName, lookup, type FieldDescriptor, type TypeDescriptor } from './skeleton.js';

const TIMESTAMP = 'google.protobuf.Timestamp';
const DURATION = 'google.protobuf.Duration';
const STRUCT = 'google.protobuf.Struct';
const VALUE = 'google.protobuf.Value';
const LIST = 'google.protobuf.ListValue';
const ANY = 'google.protobuf.Any';
const WRAPPERS = new Set(['Double', 'Float', 'Int64', 'UInt64', 'Int32', 'UInt32', 'Bool', 'String', 'Bytes'].map((t) => `google.protobuf.${t}Value`));

/** The well-known type a field holds (`google.protobuf.Timestamp`…), or undefined. */
export function wellKnown(field: FieldDescriptor): string | undefined {
  const name = field.typeName?.replace(/^\./, '');
  return name && (name === TIMESTAMP || name === DURATION || name === STRUCT || name === VALUE || name === LIST || WRAPPERS.has(name)) ? name : undefined;
}

/** Whether `field` holds a `google.protobuf.Any`. */
export function isAny(field: FieldDescriptor): boolean {
  return field.typeName?.replace(/^\./, '') === ANY;
}

/** The message type an Any's type URL names (`type.googleapis.com/pkg.Msg` → `pkg.Msg`). */
export function anyTypeName(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf('/') + 1).replace(/^\./, '');
}

/** A field of the message type `typeName`: what an Any's packed message is read and checked as. */
export function packedField(typeName: string): FieldDescriptor {
  return { name: 'value', type: 'TYPE_MESSAGE', typeName: `.${typeName}` };
}

/** Whether `type` is a wrapper (`Int32Value`, `StringValue`…): one field, `value`. */
export function isWrapper(type: string): boolean {
  return WRAPPERS.has(type);
}

/** How a map field is encoded: a JSON object, or (descriptors from reflection) a list of entries. */
export type MapForm = 'object' | 'entries';

/**
 * `item`, written in the proto3 JSON form of `type`, as the message protobufjs encodes; undefined
 * when it is written in the message form already (an object for a Timestamp, Duration or wrapper,
 * kept working as before). Throws `wrong(what)` for a value of neither form.
 */
export function fromProto3Json(type: string, item: unknown, maps: MapForm, wrong: (what: string) => Error): unknown {
  switch (type) {
    case TIMESTAMP:
      if (typeof item !== 'string') return undefined;
      return parseTimestamp(item) ?? raise(wrong('a timestamp (RFC 3339, such as "2024-01-02T03:04:05.5Z")'));
    case DURATION:
      if (typeof item !== 'string') return undefined;
      return parseDuration(item) ?? raise(wrong('a duration (seconds with an "s", such as "1.5s")'));
    case STRUCT:
      if (!isObject(item)) throw wrong('a JSON object (google.protobuf.Struct)');
      return struct(item, maps);
    case VALUE:
      return value(item, maps);
    case LIST:
      if (!Array.isArray(item)) throw wrong('a JSON array (google.protobuf.ListValue)');
      return { values: item.map((v) => value(v, maps)) };
    default:
      // A wrapper: its bare value is the message's only field; the caller checks its kind.
      return isObject(item) ? undefined : { value: item };
  }
}

/** The decoded message `message` of `type` with its well-known types in their proto3 JSON forms. */
export function toProto3Json(definition: PackageDefinition, type: TypeDescriptor | undefined, message: unknown): unknown {
  if (!type || !isObject(message)) return message;
  const out: Record<string, unknown> = { ...message };
  for (const field of type.field ?? []) {
    const key = jsonName(field);
    const item = out[key];
    if (item === null || item === undefined || field.type !== 'TYPE_MESSAGE') continue;
    const entry = entryType(definition, type, field);
    if (entry) {
      const valueField = entry.field?.find((f) => f.name === 'value');
      const one = (v: unknown) => (valueField?.type === 'TYPE_MESSAGE' ? readOne(definition, valueField, v) : v);
      // Reflection's descriptors decode a map as a list of {key, value} entries: shown as the JSON object it is.
      const pairs = Array.isArray(item) ? item.filter(isObject).map((e) => [String(e.key), e.value] as const) : isObject(item) ? Object.entries(item) : undefined;
      if (pairs) out[key] = Object.fromEntries(pairs.map(([k, v]) => [k, one(v)]));
      continue;
    }
    out[key] = field.label === 'LABEL_REPEATED' && Array.isArray(item) ? item.map((v: unknown) => readOne(definition, field, v)) : readOne(definition, field, item);
  }
  return out;
}

function readOne(definition: PackageDefinition, field: FieldDescriptor, item: unknown): unknown {
  if (isAny(field) && isObject(item) && typeof item['@type'] === 'string') return readAny(definition, item);
  const known = wellKnown(field);
  if (!known) return toProto3Json(definition, lookup(definition, field.typeName), item);
  if (!isObject(item)) return item;
  switch (known) {
    case TIMESTAMP:
      return formatTimestamp(item) ?? item;
    case DURATION:
      return formatDuration(item) ?? item;
    case STRUCT:
      return readStruct(item);
    case VALUE:
      return readValue(item);
    case LIST:
      return readList(item);
    default:
      return 'value' in item ? item.value : item;
  }
}

/**
 * An Any as protobufjs decodes it (`json` option: the type URL under "@type" beside the packed
 * message's fields) in its proto3 JSON form: the packed message's own well-known types converted,
 * a packed well-known type's JSON under "value" (`{"@type": "…/google.protobuf.Duration", "value": "1s"}`).
 */
function readAny(definition: PackageDefinition, item: Record<string, unknown>): Record<string, unknown> {
  const { '@type': typeUrl, ...packed } = item;
  const field = packedField(anyTypeName(String(typeUrl)));
  if (wellKnown(field)) return { '@type': typeUrl, value: readOne(definition, field, packed) };
  const converted = toProto3Json(definition, lookup(definition, field.typeName), packed);
  return { '@type': typeUrl, ...(isObject(converted) ? converted : {}) };
}

/** The map entry type of `field` when it is a map (its entry message is marked `mapEntry`). */
function entryType(definition: PackageDefinition, parent: TypeDescriptor, field: FieldDescriptor): TypeDescriptor | undefined {
  if (field.label !== 'LABEL_REPEATED') return undefined;
  const short = (field.typeName ?? '').split('.').at(-1);
  const entry = (lookup(definition, field.typeName) ?? parent.nestedType?.find((n) => n.name === short)) as TypeDescriptor | undefined;
  return entry?.options?.mapEntry ? entry : undefined;
}

function struct(object: Record<string, unknown>, maps: MapForm): { fields: unknown } {
  const entries = Object.entries(object).map(([key, v]) => [key, value(v, maps)] as const);
  return { fields: maps === 'entries' ? entries.map(([key, v]) => ({ key, value: v })) : Object.fromEntries(entries) };
}

function value(item: unknown, maps: MapForm): Record<string, unknown> {
  if (item === null || item === undefined) return { nullValue: 'NULL_VALUE' };
  if (typeof item === 'number') return { numberValue: item };
  if (typeof item === 'string') return { stringValue: item };
  if (typeof item === 'boolean') return { boolValue: item };
  if (Array.isArray(item)) return { listValue: { values: item.map((v) => value(v, maps)) } };
  return { structValue: struct(item as Record<string, unknown>, maps) };
}

function readStruct(message: Record<string, unknown>): Record<string, unknown> {
  const fields = message.fields;
  // Descriptors from reflection decode the map as a list of {key, value} entries.
  const entries = Array.isArray(fields) ? fields.map((e: { key?: unknown; value?: unknown }) => [String(e.key), e.value] as const) : isObject(fields) ? Object.entries(fields) : [];
  return Object.fromEntries(entries.map(([k, v]) => [k, readValue(v)]));
}

function readList(message: Record<string, unknown>): unknown[] {
  return Array.isArray(message.values) ? message.values.map(readValue) : [];
}

function readValue(message: unknown): unknown {
  if (!isObject(message)) return message;
  const kind = typeof message.kind === 'string' ? message.kind : ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'].find((k) => message[k] !== undefined && message[k] !== null);
  switch (kind) {
    case 'numberValue':
    case 'stringValue':
    case 'boolValue':
      return message[kind];
    case 'structValue':
      return isObject(message.structValue) ? readStruct(message.structValue) : {};
    case 'listValue':
      return isObject(message.listValue) ? readList(message.listValue) : [];
    default:
      return null;
  }
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

function parseTimestamp(text: string): { seconds: string; nanos: number } | undefined {
  const match = RFC3339.exec(text.trim());
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}${match[4]!.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  return { seconds: String(ms / 1000), nanos: Number((match[3] ?? '').padEnd(9, '0')) };
}

function formatTimestamp(message: Record<string, unknown>): string | undefined {
  const seconds = Number(message.seconds ?? 0);
  const nanos = Number(message.nanos ?? 0);
  const date = new Date(seconds * 1000);
  if (!Number.isFinite(seconds) || Number.isNaN(date.getTime())) return undefined;
  return `${date.toISOString().slice(0, 19)}${fraction(nanos)}Z`;
}

function parseDuration(text: string): { seconds: string; nanos: number } | undefined {
  const match = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(text.trim());
  if (!match) return undefined;
  const sign = match[1] ? -1 : 1;
  const nanos = Number((match[3] ?? '').padEnd(9, '0'));
  return { seconds: `${match[1] && match[2] !== '0' ? '-' : ''}${match[2]}`, nanos: nanos === 0 ? 0 : sign * nanos };
}

function formatDuration(message: Record<string, unknown>): string | undefined {
  const seconds = String(message.seconds ?? '0');
  const nanos = Number(message.nanos ?? 0);
  if (!/^-?\d+$/.test(seconds)) return undefined;
  const negative = seconds.startsWith('-') || nanos < 0;
  return `${negative ? '-' : ''}${seconds.replace('-', '')}${fraction(Math.abs(nanos))}s`;
}

/** Nanoseconds as protobuf writes them: no fraction, or 3, 6 or 9 digits. */
function fraction(nanos: number): string {
  if (!nanos) return '';
  const digits = String(nanos).padStart(9, '0');
  return `.${digits.endsWith('000000') ? digits.slice(0, 3) : digits.endsWith('000') ? digits.slice(0, 6) : digits}`;
}

function isObject(item: unknown): item is Record<string, unknown> {
  return typeof item === 'object' && item !== null && !Array.isArray(item);
}

function raise(error: Error): never {
  throw error;
}
