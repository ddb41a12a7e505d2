/** The wire check (wire-check.ts) passes every message protobufjs writes, and names what is cut or misplaced. */
import * as protoLoader from '@grpc/proto-loader';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOADER_OPTIONS } from '../../src/protocols/grpc/descriptors.js';
import type { TypeDescriptor } from '../../src/protocols/grpc/skeleton.js';
import { malformation } from '../../src/protocols/grpc/wire-check.js';

const definition = protoLoader.loadSync(['test/fixtures/grpc/echo.proto', 'test/fixtures/grpc/wkt.proto'], { ...LOADER_OPTIONS, includeDirs: ['test/fixtures/grpc'] });
const say = (definition['ferry.test.Echo'] as Record<string, protoLoader.MethodDefinition<object, object>>).Say!;
const type = say.requestType.type as TypeDescriptor;

const request = fc.record(
  {
    text: fc.string(),
    big: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
    mood: fc.constantFrom('HAPPY', 'GRUMPY'),
    inner: fc.record({ level: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) }),
    tags: fc.array(fc.string(), { maxLength: 4 }),
    failWith: fc.boolean(),
    labels: fc.dictionary(fc.string(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxKeys: 4 }),
  },
  { requiredKeys: [] },
);

describe('gRPC wire check', () => {
  it('passes every well-formed message (maps, nested messages, 64-bit integers, repeated fields)', () => {
    fc.assert(
      fc.property(request, (message) => {
        expect(malformation(definition, type, say.requestSerialize(message))).toBeUndefined();
      }),
    );
  });

  it('fails every message whose last field is cut short by a byte, naming how', () => {
    fc.assert(
      fc.property(request, (message) => {
        const bytes = say.requestSerialize(message);
        fc.pre(bytes.length > 0);
        expect(malformation(definition, type, bytes.subarray(0, bytes.length - 1))).toMatch(/cut short|bytes? (is|are) left where it starts/);
      }),
    );
  });

  it("refuses messages nested past protobuf's limit of 100 levels (a Value in a list in a Value…), not read on the stack", () => {
    const stamped = (definition['ferry.wkt.Stamped'] as protoLoader.MessageTypeDefinition<object, object>).type as TypeDescriptor;
    const field = (tag: number, inner: Buffer) => Buffer.concat([Buffer.from([tag]), varint(inner.length), inner]);
    // Stamped.any_value (6) is a Value; a Value's list_value (6) holds values (1), each a Value.
    const nested = (levels: number) => {
      let value = Buffer.alloc(0);
      for (let i = 0; i < levels; i++) value = field(0x32, field(0x0a, value));
      return field(0x32, value);
    };
    expect(malformation(definition, stamped, nested(40))).toBeUndefined();
    expect(malformation(definition, stamped, nested(60))).toBe("its messages nest deeper than 100 levels (protobuf's limit)");
  });
});

describe('gRPC wire check: UTF-8 in strings', () => {
  const bad = Buffer.from([0x68, 0xc3, 0x28]); // "h", then a 2-byte sequence broken by "("
  const field = (tag: number, inner: Buffer) => Buffer.concat([Buffer.from([tag]), varint(inner.length), inner]);
  const legacy = protoLoader.loadSync(['test/fixtures/grpc/legacy.proto'], LOADER_OPTIONS);
  const old = (legacy['ferry.legacy.Old'] as protoLoader.MessageTypeDefinition<object, object>).type as TypeDescriptor;

  it('refuses invalid UTF-8 in a proto3 string, a repeated string and a map key, naming the field', () => {
    expect(malformation(definition, type, field(0x0a, bad))).toBe('field text (1) is a string that is not valid UTF-8 (3 bytes from byte 2), which a proto3 string must be');
    expect(malformation(definition, type, Buffer.concat([field(0x2a, Buffer.from('ok')), field(0x2a, bad)]))).toBe('field tags (5) is a string that is not valid UTF-8 (3 bytes from byte 6), which a proto3 string must be');
    // labels (7): an entry whose key (1) is the bad string.
    expect(malformation(definition, type, field(0x3a, field(0x0a, bad)))).toBe('field labels.key (7.1) is a string that is not valid UTF-8 (3 bytes from byte 4), which a proto3 string must be');
  });

  it('passes valid UTF-8 (multi-byte, emoji) and any bytes in a bytes field', () => {
    expect(malformation(definition, type, field(0x0a, Buffer.from('héllo 👋 世界')))).toBeUndefined();
  });

  it('leaves proto2 strings unchecked, as protobuf does (a map of a proto2 file too)', () => {
    expect(malformation(legacy, old, Buffer.concat([field(0x0a, bad), field(0x12, bad), field(0x1a, Buffer.concat([field(0x0a, bad), field(0x12, bad)]))]))).toBeUndefined();
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return Buffer.from(out);
}
