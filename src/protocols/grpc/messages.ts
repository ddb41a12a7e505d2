/**
 * Messages as JSON text (spec 2.5 `body.text`): the request's text parsed (one message, or a JSON
 * array of messages for client and bidirectional streams) and checked against the message type
 * before sending, so a field that does not exist or holds the wrong kind of value is named — the
 * protobuf encoder would silently drop or coerce it.
 */
import type { MessageTypeDefinition, PackageDefinition } from '@grpc/proto-loader';
import { SendError } from '../send-error.js';
import { isMapField, lookup, type FieldDescriptor, type TypeDescriptor } from './skeleton.js';
import { anyTypeName, fromProto3Json, isAny, isWrapper, packedField, wellKnown } from './well-known.js';
import { fitEnum, fitNumber } from './scalars.js';
import { BASE64_RULE, compactBase64 } from '../../support/base64-text.js';

/** The messages of `body.text`: `{}` when empty; an array of messages only where the client streams. */
export function parseMessages(text: string, clientStreams: boolean): unknown[] {
  if (text.trim() === '') return [{}];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SendError(`the message (body.text) is not valid JSON: ${(error as Error).message}.`, 'other');
  }
  if (Array.isArray(value)) {
    if (!clientStreams) throw new SendError('the message (body.text) is a JSON array, but the method takes one message; give a JSON object (arrays are for client and bidirectional streams).', 'other');
    return value;
  }
  return [value];
}

/**
 * JSON nesting past which a message cannot be sent: each level of a message is at least one of
 * JSON (a repeated field adds an array), so twice protobuf's 100 levels. Checked before the
 * message is fitted, whose recursion (a Struct in a Struct…) overflowed the stack, a RangeError
 * rather than a message.
 */
const MAX_JSON_DEPTH = 200;

/** How deep `value` nests, measured without recursion. */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (!item || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(item)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Definitions whose encoder takes a map field as a list of `{key, value}` entries: protobufjs builds
 * the types of descriptors received by server reflection without map fields (the entry type stays a
 * repeated message), where types loaded from proto files take a JSON object.
 */
const entryListMaps = new WeakSet<PackageDefinition>();

/** Marks `definition` (from reflection) as one whose maps are encoded as entry lists. */
export function encodeMapsAsEntryLists(definition: PackageDefinition): PackageDefinition {
  entryListMaps.add(definition);
  return definition;
}

/** Checks `value` against the method's request type; returns it with proto field names turned into the JSON names the encoder reads. */
export function fitMessage(definition: PackageDefinition, type: MessageTypeDefinition<object, object>, value: unknown, index?: number): Record<string, unknown> {
  const where = index === undefined ? 'the message' : `message ${index + 1}`;
  if (jsonDepth(value) > MAX_JSON_DEPTH) {
    throw new SendError(`${where} nests JSON deeper than ${MAX_JSON_DEPTH} levels; a protobuf message nests at most 100 deep (protoc's limit, and protobufjs's), so it cannot be sent.`, 'other');
  }
  return fit(definition, type.type as TypeDescriptor, value, where, '') as Record<string, unknown>;
}

function fit(definition: PackageDefinition, type: TypeDescriptor, value: unknown, where: string, prefix: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new SendError(`${where}${prefix ? ` field ${prefix}` : ''} must be a JSON object (a ${type.name} message).`, 'other');
  }
  const fields = type.field ?? [];
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = fields.find((f) => [f.jsonName, f.name, camel(f.name)].includes(key) || camel(f.name) === camel(key));
    const path = prefix ? `${prefix}.${key}` : key;
    if (!field) {
      const names = fields.map((f) => f.jsonName || camel(f.name));
      throw new SendError(`${where} has a field "${path}" that ${type.name} does not have; its fields are: ${names.join(', ') || '(none)'}.`, 'other');
    }
    out[field.jsonName || camel(field.name)] = item === null ? item : fitField(definition, type, field, item, where, path);
  }
  return out;
}

function fitField(definition: PackageDefinition, parent: TypeDescriptor, field: FieldDescriptor, item: unknown, where: string, path: string): unknown {
  if (isMapField(definition, parent, field)) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw new SendError(`${where} field ${path} is a map: give a JSON object.`, 'other');
    const short = (field.typeName ?? '').split('.').at(-1);
    const entry = parent.nestedType?.find((n) => n.name === short) as TypeDescriptor | undefined;
    if (!entryListMaps.has(definition)) {
      // The values are checked (and well-known types converted) as the entry's `value` field; keys are JSON's strings.
      return entry ? Object.fromEntries(Object.entries(item).map(([key, value]) => [key, (fit(definition, entry, { value }, where, `${path}.${key}`) as { value?: unknown }).value])) : item;
    }
    return Object.entries(item).map(([key, value]) => (entry ? fit(definition, entry, { key, value }, where, `${path}.${key}`) : { key, value }));
  }
  const nested = field.type === 'TYPE_MESSAGE' ? lookup(definition, field.typeName) : undefined;
  if (field.label === 'LABEL_REPEATED') {
    if (!Array.isArray(item)) throw new SendError(`${where} field ${path} is repeated: give a JSON array.`, 'other');
    return item.map((one, i) => fitOne(definition, field, nested, one, where, `${path}[${i}]`));
  }
  return fitOne(definition, field, nested, item, where, path);
}

function fitOne(definition: PackageDefinition, field: FieldDescriptor, nested: TypeDescriptor | undefined, item: unknown, where: string, path: string): unknown {
  const wrong = (what: string) => new SendError(`${where} field ${path} is ${what}, not ${JSON.stringify(item)?.slice(0, 40)}.`, 'other');
  switch (field.type) {
    case 'TYPE_MESSAGE': {
      if (isAny(field) && item && typeof item === 'object' && typeof (item as Record<string, unknown>)['@type'] === 'string') return fitAny(definition, item as Record<string, unknown>, where, path);
      const known = wellKnown(field);
      const converted = known ? fromProto3Json(known, item, entryListMaps.has(definition) ? 'entries' : 'object', wrong) : undefined;
      if (converted !== undefined) return nested && isWrapper(known!) ? fit(definition, nested, converted, where, path) : converted;
      if (nested) return fit(definition, nested, item, where, path);
      if (!item || typeof item !== 'object') throw wrong(`a ${field.typeName?.replace(/^\./, '')} message (a JSON object)`);
      return item;
    }
    case 'TYPE_STRING':
      if (typeof item !== 'string') throw wrong('a string');
      return item;
    case 'TYPE_BOOL':
      if (typeof item !== 'boolean') throw wrong('true or false');
      return item;
    case 'TYPE_BYTES': {
      // proto3 JSON's bytes: standard or URL-safe base64, padding optional. protobufjs takes the standard form only, and refused the rest naming no field.
      const compact = typeof item === 'string' ? compactBase64(item) : undefined;
      if (compact === undefined) throw wrong(`bytes written as base64 (${BASE64_RULE})`);
      return Buffer.from(compact, /[-_]/.test(compact) ? 'base64url' : 'base64').toString('base64');
    }
    case 'TYPE_ENUM':
      return fitEnum(item, lookup(definition, field.typeName)?.value, field.typeName?.replace(/^\./, '') ?? 'enum', wrong);
    default:
      return fitNumber(field, item, wrong);
  }
}

/**
 * An Any in its proto3 JSON form (`{"@type": "type.googleapis.com/pkg.Msg", …fields}`; a packed
 * well-known type's JSON under "value"): the packed message is checked as its own type, which
 * the proto files or reflection must define, and protobufjs packs it by the "@type" kept.
 */
function fitAny(definition: PackageDefinition, item: Record<string, unknown>, where: string, path: string): Record<string, unknown> {
  const { '@type': typeUrl, ...packed } = item;
  const name = anyTypeName(String(typeUrl));
  const field = packedField(name);
  if (!lookup(definition, field.typeName)) {
    throw new SendError(`${where} field ${path} is an Any of type ${name}, which the proto files (or reflection) do not define; list the .proto file that defines it in grpc.protoFiles.`, 'other');
  }
  const fitted = wellKnown(field) ? fitOne(definition, field, lookup(definition, field.typeName), packed.value, where, `${path}.value`) : fitOne(definition, field, lookup(definition, field.typeName), packed, where, path);
  return { ...(fitted as Record<string, unknown>), '@type': typeUrl };
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
