/**
 * `tv4` (the global and `require('tv4')`), the draft-04 JSON Schema validator Postman's sandbox
 * still offers and older collections use (`tests["valid"] = tv4.validate(data, schema)`), over the
 * validator `to.have.jsonSchema` uses. Its own bundle (scripts/bundle-sandbox.mjs), evaluated the
 * first time a script reads `tv4`; the bundle exports `makeTv4`, which modules.ts gives the validator.
 *
 * What tv4 does and this does too: `validate` (a boolean; the first error in `tv4.error`),
 * `validateResult`, `validateMultiple` (every error), `addSchema`/`getSchema` for `$ref`s by URI,
 * `freshApi`, `reset`, and tv4's messages for the common errors ("Missing required property: id",
 * "Invalid type: string (expected number)"). Like tv4, `format` is not checked (tv4 knows no
 * formats of its own) and a `$ref` to a schema it does not have is listed in `missing`, not an
 * error. Custom formats and keywords (`addFormat`, `defineKeyword`) are not offered.
 */

interface OutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}
export interface ValidatorClass {
  new (schema: unknown, draft?: string, shortCircuit?: boolean): {
    validate(data: unknown): { valid: boolean; errors: OutputUnit[] };
    addSchema(schema: unknown, id?: string): void;
  };
}

export interface Tv4Error {
  message: string;
  code: number;
  dataPath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  subErrors: null;
}

/** tv4's error codes for the keywords (its `errorCodes`); other keywords get 0. */
const CODES: Record<string, [number, string]> = {
  type: [0, 'INVALID_TYPE'],
  enum: [1, 'ENUM_MISMATCH'],
  anyOf: [10, 'ANY_OF_MISSING'],
  oneOf: [11, 'ONE_OF_MISSING'],
  not: [13, 'NOT_PASSED'],
  multipleOf: [100, 'NUMBER_MULTIPLE_OF'],
  minimum: [101, 'NUMBER_MINIMUM'],
  maximum: [103, 'NUMBER_MAXIMUM'],
  minLength: [200, 'STRING_LENGTH_SHORT'],
  maxLength: [201, 'STRING_LENGTH_LONG'],
  pattern: [202, 'STRING_PATTERN'],
  minProperties: [300, 'OBJECT_PROPERTIES_MINIMUM'],
  maxProperties: [301, 'OBJECT_PROPERTIES_MAXIMUM'],
  required: [302, 'OBJECT_REQUIRED'],
  additionalProperties: [303, 'OBJECT_ADDITIONAL_PROPERTIES'],
  dependencies: [304, 'OBJECT_DEPENDENCY_KEY'],
  minItems: [400, 'ARRAY_LENGTH_SHORT'],
  maxItems: [401, 'ARRAY_LENGTH_LONG'],
  uniqueItems: [402, 'ARRAY_UNIQUE'],
  additionalItems: [403, 'ARRAY_ADDITIONAL_ITEMS'],
};
/** Keywords whose error only says that something below them failed (the error below says what). */
const SUMMARIES = new Set(['properties', 'items', 'additionalItems', 'allOf', '$ref', 'patternProperties', 'dependencies']);
/** Places in a schema that hold data, not schemas: `format` inside them is data. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);

/** The schema without its `format` keywords (tv4 checks no format it was not given). */
function withoutFormats(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutFormats);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && typeof value === 'string') continue;
    Object.defineProperty(out, key, { value: DATA_KEYWORDS.has(key) ? value : withoutFormats(value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The value at a JSON pointer (`#/a/0`) of the data. */
function valueAt(data: unknown, pointer: string): unknown {
  let current = data;
  for (const part of pointer.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/** tv4's message for the common keywords, from the validator's (the validator's own for the rest). */
function tv4Message(unit: OutputUnit, data: unknown, params: Record<string, unknown>): string {
  const error = unit.error;
  let m: RegExpExecArray | null;
  switch (unit.keyword) {
    case 'type':
      if ((m = /^Instance type "([^"]*)" is invalid\. Expected "(.*)"\.$/.exec(error))) {
        params.type = m[1];
        params.expected = m[2]!.split('", "').join('/');
        return `Invalid type: ${m[1]} (expected ${String(params.expected)})`;
      }
      break;
    case 'required':
      if ((m = /^Instance does not have required property "(.*)"\.$/.exec(error))) {
        params.key = m[1];
        return `Missing required property: ${m[1]}`;
      }
      break;
    case 'enum':
      return `No enum match for: ${JSON.stringify(valueAt(data, unit.instanceLocation))}`;
    case 'minimum':
      if ((m = /^(.*) is less than +(or equal to +)?(\S+)\.$/.exec(error))) return m[2] && m[1] === m[3] ? `Value ${m[1]} is equal to exclusive minimum ${m[3]}` : `Value ${m[1]} is less than minimum ${m[3]}`;
      break;
    case 'maximum':
      if ((m = /^(.*) is greater than +(or equal to +)?(\S+)\.$/.exec(error))) return m[2] && m[1] === m[3] ? `Value ${m[1]} is equal to exclusive maximum ${m[3]}` : `Value ${m[1]} is greater than maximum ${m[3]}`;
      break;
    case 'minLength':
      if ((m = /^String is too short \((\d+) < (\d+)\)\.$/.exec(error))) return `String is too short (${m[1]} chars), minimum ${m[2]}`;
      break;
    case 'maxLength':
      if ((m = /^String is too long \((\d+) > (\d+)\)\.$/.exec(error))) return `String is too long (${m[1]} chars), maximum ${m[2]}`;
      break;
  }
  return error;
}

function tv4Error(unit: OutputUnit, data: unknown): Tv4Error {
  const [code] = CODES[unit.keyword] ?? [0];
  const params: Record<string, unknown> = {};
  const message = tv4Message(unit, data, params);
  return { message, code, dataPath: unit.instanceLocation.replace(/^#/, ''), schemaPath: unit.keywordLocation.replace(/^#/, ''), params, subErrors: null };
}

export function makeTv4(Validator: ValidatorClass): unknown {
  const fresh = () => {
    const schemas = new Map<string, unknown>();
    /** Every error (or only the first), and the `$ref`s it could not resolve. */
    function run(data: unknown, schema: unknown, all: boolean): { errors: Tv4Error[]; missing: string[] } {
      if (schema === null || typeof schema !== 'object') throw new TypeError('tv4: the schema must be an object');
      const missing: string[] = [];
      for (let tries = 0; tries < 20; tries++) {
        const validator = new Validator(withoutFormats(schema), '4', !all);
        for (const [uri, known] of schemas) validator.addSchema(withoutFormats(known), uri);
        for (const uri of missing) validator.addSchema({}, uri);
        try {
          const result = validator.validate(data);
          if (result.valid) return { errors: [], missing };
          const reasons = result.errors.filter((e) => !SUMMARIES.has(e.keyword));
          const errors = (reasons.length > 0 ? reasons : result.errors).map((unit) => tv4Error(unit, data));
          return { errors: all ? errors : errors.slice(0, 1), missing };
        } catch (error) {
          // A `$ref` to a schema it does not have: tv4 lists it in `missing` and takes it as valid.
          const unresolved = /^Unresolved \$ref "([^"#]*)/.exec((error as Error).message);
          if (!unresolved || missing.includes(unresolved[1]!)) throw error;
          missing.push(unresolved[1]!);
        }
      }
      return { errors: [], missing };
    }
    const api = {
      error: null as Tv4Error | null,
      missing: [] as string[],
      errorCodes: Object.fromEntries(Object.values(CODES).map(([code, name]) => [name, code])),
      validate(data: unknown, schema: unknown): boolean {
        const { errors, missing } = run(data, schema, false);
        api.error = errors[0] ?? null;
        api.missing = missing;
        return errors.length === 0;
      },
      validateResult(data: unknown, schema: unknown): { valid: boolean; error: Tv4Error | null; missing: string[] } {
        const valid = api.validate(data, schema);
        return { valid, error: api.error, missing: api.missing };
      },
      validateMultiple(data: unknown, schema: unknown): { valid: boolean; errors: Tv4Error[]; missing: string[] } {
        const { errors, missing } = run(data, schema, true);
        return { valid: errors.length === 0, errors, missing };
      },
      addSchema(uri: unknown, schema?: unknown): boolean {
        if (typeof uri === 'object' && uri !== null && schema === undefined) {
          const id = (uri as { id?: unknown; $id?: unknown }).id ?? (uri as { $id?: unknown }).$id;
          if (typeof id !== 'string') return false;
          schemas.set(id.replace(/#$/, ''), uri);
          return true;
        }
        if (typeof uri !== 'string' || schema === null || typeof schema !== 'object') return false;
        schemas.set(uri.replace(/#$/, ''), schema);
        return true;
      },
      getSchema(uri: string): unknown {
        return schemas.get(String(uri).replace(/#$/, ''));
      },
      getSchemaUris(): string[] {
        return [...schemas.keys()];
      },
      dropSchemas(): void {
        schemas.clear();
      },
      reset(): void {
        schemas.clear();
        api.error = null;
        api.missing = [];
      },
      freshApi: () => fresh(),
    };
    return api;
  };
  return fresh();
}
