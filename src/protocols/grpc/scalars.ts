/**
 * A message's numbers and enums checked as proto3 JSON reads them (protoc's JsonParser, grpc-go's
 * protojson), before protobufjs encodes them: it truncated `1.5` to 1, wrapped `2^40` in an int32
 * to 0 and `"99999999999999999999"` in an int64 to another number, read `"1e3"` as an int64 1,
 * and sent an enum name the type does not have as 0, all without a word.
 */
import type { FieldDescriptor, TypeDescriptor } from './skeleton.js';

/** Each integer type's range. */
const INTEGERS: Record<string, [bigint, bigint]> = {
  TYPE_INT32: [-(2n ** 31n), 2n ** 31n - 1n],
  TYPE_SINT32: [-(2n ** 31n), 2n ** 31n - 1n],
  TYPE_SFIXED32: [-(2n ** 31n), 2n ** 31n - 1n],
  TYPE_UINT32: [0n, 2n ** 32n - 1n],
  TYPE_FIXED32: [0n, 2n ** 32n - 1n],
  TYPE_INT64: [-(2n ** 63n), 2n ** 63n - 1n],
  TYPE_SINT64: [-(2n ** 63n), 2n ** 63n - 1n],
  TYPE_SFIXED64: [-(2n ** 63n), 2n ** 63n - 1n],
  TYPE_UINT64: [0n, 2n ** 64n - 1n],
  TYPE_FIXED64: [0n, 2n ** 64n - 1n],
};

/** The largest finite float (32-bit); a double's range is JSON's. */
const FLOAT_MAX = 3.4028234663852886e38;

/** A JSON number written as a string (proto3 JSON takes numbers as strings too). */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * An integer, float or double field's value as protobufjs should encode it (64-bit integers as
 * decimal strings); throws `wrong(what)` naming what the field takes.
 */
export function fitNumber(field: FieldDescriptor, item: unknown, wrong: (what: string) => Error): unknown {
  const type = field.type ?? '';
  const name = type.replace('TYPE_', '').toLowerCase();
  const range = INTEGERS[type];
  if (!range) {
    // A float or a double: proto3 JSON writes NaN and the infinities as strings (answers show them so).
    if (item === 'NaN' || item === 'Infinity' || item === '-Infinity') return item;
    const value = typeof item === 'number' ? item : typeof item === 'string' && NUMBER_TEXT.test(item) ? Number(item) : undefined;
    if (value === undefined || !Number.isFinite(value)) throw wrong(`a number (${name})`);
    if (type === 'TYPE_FLOAT' && Math.abs(value) > FLOAT_MAX) throw wrong(`a float (at most ${FLOAT_MAX} either way)`);
    return value;
  }
  let whole: bigint;
  if (typeof item === 'number') {
    if (!Number.isInteger(item)) throw wrong(`a whole number (${name})`);
    // JSON.parse kept only the nearest double: the digits written past 2^53 are gone.
    if (!Number.isSafeInteger(item)) throw wrong(`a whole number (${name}) written as a string when past 2^53 (a JSON number there keeps only about 16 digits)`);
    whole = BigInt(item);
  } else if (typeof item === 'string' && /^-?\d+$/.test(item)) {
    whole = BigInt(item);
  } else {
    throw wrong(typeof item === 'string' && NUMBER_TEXT.test(item.trim()) ? `a whole number (${name}) written in digits` : `a number (${name})`);
  }
  if (whole < range[0] || whole > range[1]) throw wrong(`${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name} (from ${range[0]} to ${range[1]})`);
  return name.endsWith('64') ? whole.toString() : Number(whole);
}

/**
 * An enum field's value: one of its names, or a number (proto3 enums are open, so an unknown
 * number is sent as it is, as protobuf does); `values`: the enum's, when the descriptors have it.
 */
export function fitEnum(item: unknown, values: TypeDescriptor['value'] | undefined, typeName: string, wrong: (what: string) => Error): unknown {
  const names = values?.map((v) => v.name) ?? [];
  if (typeof item === 'number') {
    if (!Number.isInteger(item) || item < -(2 ** 31) || item > 2 ** 31 - 1) throw wrong(`an enum (${typeName}): a name or a whole number within int32`);
    return item;
  }
  if (typeof item !== 'string') throw wrong(`an enum (${typeName}: a name or number)`);
  if (names.length > 0 && !names.includes(item)) {
    const shown = names.slice(0, 20).join(', ') + (names.length > 20 ? ', …' : '');
    throw wrong(`one of ${typeName}'s names (${shown}) or a number`);
  }
  return item;
}
