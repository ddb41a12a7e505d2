/**
 * A message's protobuf bytes checked against its type before protobufjs reads them. protobufjs
 * reads leniently: a length that runs past a nested message's end is read on into the bytes
 * after it, a known field is read by its declared type whatever wire type came (a varint as a
 * string's length), so a malformed answer became a plausible message. Here each field must fit
 * inside the message it is in, have a wire type protobuf has and its declared type takes, a
 * proto3 string must be valid UTF-8 (as protoc's parsers, grpc-go and protobuf-es refuse it; a
 * proto2 string is not checked, as protobuf does not), and nesting stops at protobuf's own depth
 * limit.
 */
import { isUtf8 } from 'node:buffer';
import type { PackageDefinition } from '@grpc/proto-loader';
import { lookup, type FieldDescriptor, type TypeDescriptor } from './skeleton.js';
import { anyTypeName, isAny } from './well-known.js';

/** protobuf's default recursion limit (C++, Java, Go): deeper nesting is refused, not read on the stack. */
const MAX_DEPTH = 100;

const WIRE_NAMES = ['a varint', 'a 64-bit value', 'length-delimited', 'a group start', 'a group end', 'a 32-bit value'];

const VARINT_TYPES = new Set(['TYPE_INT32', 'TYPE_INT64', 'TYPE_UINT32', 'TYPE_UINT64', 'TYPE_SINT32', 'TYPE_SINT64', 'TYPE_BOOL', 'TYPE_ENUM']);
const FIXED64_TYPES = new Set(['TYPE_FIXED64', 'TYPE_SFIXED64', 'TYPE_DOUBLE']);
const FIXED32_TYPES = new Set(['TYPE_FIXED32', 'TYPE_SFIXED32', 'TYPE_FLOAT']);

type Field = FieldDescriptor & { number?: number; options?: { packed?: boolean } | null };

/**
 * Whether a string field's bytes must be UTF-8: proto3's (and editions') strings, not proto2's.
 * proto-loader writes every descriptor as proto3, dropping the file's syntax, but a field of a
 * proto2 file keeps protobufjs's `packed: false` (proto2 does not pack), which a proto3 string
 * never has (protoc refuses `packed` on a string). A map's key and value have no options of their
 * own: they follow the map field (`inherited`).
 */
function mustBeUtf8(field: Field, inherited: boolean | undefined): boolean {
  return inherited ?? field.options?.packed !== false;
}

class Malformed extends Error {}

/** What is wrong with `bytes` as a message of `type`, in words; undefined when they are well formed. */
export function malformation(definition: PackageDefinition, type: TypeDescriptor | undefined, bytes: Uint8Array): string | undefined {
  try {
    walk(definition, type, bytes, 0, bytes.length, [], 0, undefined);
    return undefined;
  } catch (error) {
    if (error instanceof Malformed) return error.message;
    throw error;
  }
}

/** `utf8`: for a map's entry, whether its strings must be UTF-8 (the map field's rule). */
function walk(definition: PackageDefinition, type: TypeDescriptor | undefined, bytes: Uint8Array, start: number, end: number, path: Array<[string, number]>, depth: number, utf8: boolean | undefined): void {
  if (depth > MAX_DEPTH) throw new Malformed(`its messages nest deeper than ${MAX_DEPTH} levels (protobuf's limit)`);
  let pos = start;
  while (pos < end) {
    const at = pos;
    const [tag, afterTag] = varint(bytes, pos, end, () => `a field's tag is cut short at the end of ${path.length ? `field ${names(path)}` : 'the message'} (byte ${at})`);
    const number = Math.floor(tag / 8);
    const wire = tag % 8;
    const field = (type?.field as Field[] | undefined)?.find((f) => f.number === number);
    const here: Array<[string, number]> = [...path, [field?.name ?? String(number), number]];
    const what = () => `field ${names(here)}`;
    if (number === 0) throw new Malformed(`a field numbered 0 (byte ${at}), which protobuf does not allow`);
    if (wire > 5) throw new Malformed(`${what()} has wire type ${wire}, which protobuf does not have (byte ${at})`);
    if (field) checkWireType(field, wire, what);
    pos = afterTag;
    switch (wire) {
      case 0:
        pos = varint(bytes, pos, end, () => `${what()} is a varint cut short at the end of the message (byte ${pos})`)[1];
        break;
      case 1:
      case 5: {
        const size = wire === 1 ? 8 : 4;
        if (pos + size > end) throw new Malformed(`${what()} is ${size} bytes long, but ${plural(end - pos)} left where it starts (byte ${pos})`);
        pos += size;
        break;
      }
      case 2: {
        const [length, from] = varint(bytes, pos, end, () => `${what()}'s length is cut short at the end of the message (byte ${pos})`);
        if (from + length > end) throw new Malformed(`${what()} says it is ${length} bytes long, but ${plural(end - from)} left where it starts (byte ${from})`);
        if (field?.type === 'TYPE_MESSAGE') {
          const nested = nestedType(definition, type!, field);
          walk(definition, nested, bytes, from, from + length, here, depth + 1, nested?.options?.mapEntry ? mustBeUtf8(field, utf8) : undefined);
          if (isAny(field)) walkPacked(definition, bytes, from, from + length, here, depth + 1);
        }
        else if (field?.type === 'TYPE_STRING') {
          if (mustBeUtf8(field, utf8) && !isUtf8(bytes.subarray(from, from + length))) {
            throw new Malformed(`${what()} is a string that is not valid UTF-8 (${length === 1 ? '1 byte' : `${length} bytes`} from byte ${from}), which a proto3 string must be`);
          }
        }
        else if (field && field.type !== 'TYPE_BYTES') checkPacked(field, bytes, from, from + length, what);
        pos = from + length;
        break;
      }
      case 3:
        pos = skipGroup(bytes, pos, end, number, what, depth);
        break;
      default:
        throw new Malformed(`${what()} ends a group that was not started (byte ${at})`);
    }
  }
}

/**
 * An Any's packed message, checked as the type its URL names when the definition has it:
 * protobufjs reads it by that type as leniently as any other message.
 */
function walkPacked(definition: PackageDefinition, bytes: Uint8Array, start: number, end: number, path: Array<[string, number]>, depth: number): void {
  const fields = topLevelFields(bytes.subarray(start, end), [1, 2]);
  if (typeof fields === 'string') return; // walked already: well formed
  const typeUrl = fields.get(1)!.at(-1);
  const value = fields.get(2)!.at(-1);
  const packed = typeUrl && value ? lookup(definition, anyTypeName(new TextDecoder().decode(typeUrl))) : undefined;
  if (!packed || !value) return;
  const from = value.byteOffset - bytes.byteOffset;
  walk(definition, packed, bytes, from, from + value.length, [...path, ['value', 2]], depth + 1, undefined);
}

/** A varint's value and the position after it; `cut` says why when it runs past `end` or past 10 bytes. */
function varint(bytes: Uint8Array, pos: number, end: number, cut: () => string): [number, number] {
  let value = 0;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= end) throw new Malformed(cut());
    const byte = bytes[pos + i]!;
    // Past 2^53 the value is not exact; only lengths and tags are used, which never get there.
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return [value, pos + i + 1];
  }
  throw new Malformed(`a varint longer than 10 bytes (byte ${pos})`);
}

/** A known field must come with the wire type its type is written in (repeated scalars also packed). */
function checkWireType(field: Field, wire: number, what: () => string): void {
  const type = field.type ?? '';
  const repeated = field.label === 'LABEL_REPEATED';
  const expected = VARINT_TYPES.has(type) ? 0 : FIXED64_TYPES.has(type) ? 1 : FIXED32_TYPES.has(type) ? 5 : type === 'TYPE_GROUP' ? 3 : 2;
  if (wire === expected || (repeated && wire === 2 && expected !== 3)) return;
  const declared = type.replace('TYPE_', '').toLowerCase();
  throw new Malformed(`${what()} is ${/^[aeiou]/.test(declared) ? 'an' : 'a'} ${declared} but came as ${WIRE_NAMES[wire]} (wire type ${wire})`);
}

/** Packed repeated scalars: whole varints, or a whole number of 4- or 8-byte values. */
function checkPacked(field: Field, bytes: Uint8Array, start: number, end: number, what: () => string): void {
  const type = field.type ?? '';
  const size = FIXED64_TYPES.has(type) ? 8 : FIXED32_TYPES.has(type) ? 4 : 0;
  if (size > 0) {
    if ((end - start) % size !== 0) throw new Malformed(`${what()} packs ${plural(end - start)}, not a whole number of ${size}-byte values (byte ${start})`);
    return;
  }
  for (let pos = start; pos < end; ) pos = varint(bytes, pos, end, () => `${what()} packs a varint cut short at its end (byte ${pos})`)[1];
}

/** Skips a (proto2) group to its matching end, checking what is inside by wire structure only. */
function skipGroup(bytes: Uint8Array, pos: number, end: number, number: number, what: () => string, depth: number): number {
  if (depth > MAX_DEPTH) throw new Malformed(`its messages nest deeper than ${MAX_DEPTH} levels (protobuf's limit)`);
  while (pos < end) {
    const at = pos;
    const [tag, after] = varint(bytes, pos, end, () => `${what()} is a group cut short at the end of the message (byte ${at})`);
    const wire = tag % 8;
    pos = after;
    if (wire === 4) {
      if (Math.floor(tag / 8) !== number) throw new Malformed(`${what()} is a group ended as field ${Math.floor(tag / 8)} (byte ${at})`);
      return pos;
    }
    if (wire === 0) pos = varint(bytes, pos, end, () => `${what()} holds a varint cut short (byte ${pos})`)[1];
    else if (wire === 1 || wire === 5) pos += wire === 1 ? 8 : 4;
    else if (wire === 2) {
      const [length, from] = varint(bytes, pos, end, () => `${what()} holds a length cut short (byte ${pos})`);
      pos = from + length;
    } else if (wire === 3) pos = skipGroup(bytes, pos, end, Math.floor(tag / 8), what, depth + 1);
    else throw new Malformed(`${what()} holds wire type ${wire}, which protobuf does not have (byte ${at})`);
    if (pos > end) throw new Malformed(`${what()} is a group that runs past the end of the message (byte ${at})`);
  }
  throw new Malformed(`${what()} is a group without its end`);
}

/** A message field's type: in the definition, or (a map's entry) nested in its parent. */
function nestedType(definition: PackageDefinition, parent: TypeDescriptor, field: Field): TypeDescriptor | undefined {
  const short = (field.typeName ?? '').split('.').at(-1);
  return lookup(definition, field.typeName) ?? (parent.nestedType?.find((n) => n.name === short) as TypeDescriptor | undefined);
}

function names(path: Array<[string, number]>): string {
  return `${path.map(([name]) => name).join('.')} (${path.map(([, number]) => number).join('.')})`;
}

function plural(n: number): string {
  return n === 1 ? '1 byte is' : `${n} bytes are`;
}

/**
 * The length-delimited fields numbered `numbers` at the top level of a message, as byte slices
 * read from its bytes (which must be well formed: else what is wrong, in words). For a
 * descriptor's name, imports and types before any library reads it.
 */
export function topLevelFields(bytes: Uint8Array, numbers: number[]): Map<number, Uint8Array[]> | string {
  const wrong = malformation({}, undefined, bytes);
  if (wrong) return wrong;
  const found = new Map<number, Uint8Array[]>(numbers.map((n) => [n, []]));
  for (let pos = 0; pos < bytes.length; ) {
    const [tag, afterTag] = varint(bytes, pos, bytes.length, () => '');
    const wire = tag % 8;
    pos = afterTag;
    if (wire === 0) pos = varint(bytes, pos, bytes.length, () => '')[1];
    else if (wire === 1 || wire === 5) pos += wire === 1 ? 8 : 4;
    else if (wire === 2) {
      const [length, from] = varint(bytes, pos, bytes.length, () => '');
      found.get(Math.floor(tag / 8))?.push(bytes.subarray(from, from + length));
      pos = from + length;
    } else if (wire === 3) pos = skipGroup(bytes, pos, bytes.length, Math.floor(tag / 8), () => '', 0);
  }
  return found;
}
