/**
 * The round-trip fixture (test/fixtures/full) must use every field the model declares, and no
 * misspelt one: a field name the model does not know would be kept as an unknown field and still
 * round-trip, proving nothing about the field it meant.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RESOURCE_SCHEMAS, type ResourceKind } from '../../src/model/index.js';
import { isPlainObject, unwrap } from '../../src/model/declare.js';
import { FULL_FIXTURE, FULL_FIXTURE_FILES } from '../support/full-fixture.js';

const FIXTURE = FULL_FIXTURE;

const FILES = FULL_FIXTURE_FILES;

/** Unknown fields the fixture keeps on purpose (and the settings of an imported auth type). */
const KEPT_UNKNOWN = [
  'workspace.futureField',
  'request.headers[].x-origin',
  'request.body.x-editor',
  'request.settings.x-flag',
  'request.auth<awsv4>.accessKey',
  'request.auth<awsv4>.secretKey',
  'request.auth<awsv4>.region',
  'request.auth<awsv4>.service',
  'request.auth<awsv4>.sessionToken',
  'request.x-custom',
];

/**
 * Declared fields by declaring object: a shared piece (key/value row, auth variant) counts once,
 * wherever it is used. `label` is the first path it was met at, for messages.
 */
type Fields = Map<z.ZodObject, { label: string; keys: Set<string> }>;

function declaredFields(schema: z.ZodType, label: string, out: Fields): Fields {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    if (out.has(inner)) return out;
    const shape = inner.shape as Record<string, z.ZodType>;
    out.set(inner, { label, keys: new Set(Object.keys(shape).filter((k) => k !== 'type' || !(unwrap(shape[k]!) instanceof z.ZodLiteral))) });
    for (const [key, field] of Object.entries(shape)) declaredFields(field, `${label}.${key}`, out);
  } else if (inner instanceof z.ZodArray) {
    declaredFields(inner.element as z.ZodType, `${label}[]`, out);
  } else if (inner instanceof z.ZodDiscriminatedUnion) {
    for (const option of inner.options as z.ZodObject[]) {
      const type = [...(unwrap(option.shape.type as z.ZodType) as z.ZodLiteral).values][0] as string;
      declaredFields(option, `${label}<${type}>`, out);
    }
  }
  return out;
}

/** Marks the fields a file uses; collects the unknown ones by path. */
function usedFields(schema: z.ZodType, data: unknown, label: string, used: Fields, unknown: Set<string>): void {
  let inner = unwrap(schema);
  if (inner instanceof z.ZodDiscriminatedUnion && isPlainObject(data)) {
    const option = (inner.options as z.ZodObject[]).find((o) => (unwrap(o.shape.type as z.ZodType) as z.ZodLiteral).values.has(data.type as never));
    if (!option) return;
    inner = option;
    label = `${label}<${String(data.type)}>`;
  }
  if (inner instanceof z.ZodObject && isPlainObject(data)) {
    const shape = inner.shape as Record<string, z.ZodType>;
    const entry = used.get(inner) ?? { label, keys: new Set<string>() };
    used.set(inner, entry);
    for (const [key, value] of Object.entries(data)) {
      if (!(key in shape)) {
        unknown.add(`${label}.${key}`);
        continue;
      }
      entry.keys.add(key);
      usedFields(shape[key]!, value, `${label}.${key}`, used, unknown);
    }
  } else if (inner instanceof z.ZodArray && Array.isArray(data)) {
    for (const item of data) usedFields(inner.element as z.ZodType, item, `${label}[]`, used, unknown);
  }
}

describe('the round-trip fixture covers the whole model', () => {
  const used: Fields = new Map();
  const unknown = new Set<string>();

  it('reads every fixture file', async () => {
    for (const [kind, file] of FILES) {
      const data = parse(await fs.readFile(path.join(FIXTURE, file), 'utf8'));
      usedFields(RESOURCE_SCHEMAS[kind] as z.ZodType, data, kind, used, unknown);
    }
    expect(used.size).toBeGreaterThan(30);
  });

  it('uses every declared field of every resource at least once', () => {
    const declared: Fields = new Map();
    for (const kind of Object.keys(RESOURCE_SCHEMAS) as ResourceKind[]) declaredFields(RESOURCE_SCHEMAS[kind] as z.ZodType, kind, declared);
    const missing: string[] = [];
    for (const [object, { label, keys }] of declared) {
      for (const key of keys) if (!used.get(object)?.keys.has(key)) missing.push(`${label}.${key}`);
    }
    expect(missing).toEqual([]);
  });

  it('has no unknown field but the ones kept on purpose', () => {
    expect([...unknown].sort()).toEqual([...KEPT_UNKNOWN].sort());
  });
});
