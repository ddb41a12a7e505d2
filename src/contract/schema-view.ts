/**
 * A schema read once into the few facts the check needs, with the version differences of
 * spec 9.3 settled here (nullable, type lists, exclusive bounds, `$ref` siblings), so the
 * walk over the body does no dialect branching.
 */
import { isObject, type Dialect, type JsonObject, type OpenApiDocument } from '../openapi-document/index.js';

const KNOWN_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_REF_HOPS = 64;

export interface SchemaView {
  /** Nothing to check: any value passes (`true`, `{}`, external or broken `$ref`s). */
  readonly any: boolean;
  /** The boolean schema `false`: no value passes. */
  readonly never: boolean;
  /** Types a value may have, `null` excluded; undefined = type not checked. */
  readonly types: readonly string[] | undefined;
  /** Text of the expected type for messages: `string`, `string or null`. */
  readonly typeLabel: string;
  /** `null` passes outright (nullable, a type list with null, an enum or const listing null). */
  readonly nullAllowed: boolean;
  /** Neither `type` nor `enum`: `null` passes this schema's own keywords (its allOf/anyOf/oneOf still apply). */
  readonly nullUnconstrained: boolean;
  readonly enumValues: readonly unknown[] | undefined;
  /** Fast lookup when every enum value is a string, number or boolean. */
  readonly enumSet: ReadonlySet<unknown> | undefined;
  readonly hasConst: boolean;
  readonly constValue: unknown;
  readonly required: readonly string[];
  readonly properties: JsonObject | undefined;
  /** `false` → extra fields are reported; a schema → extra fields are checked against it. */
  readonly additional: false | unknown;
  readonly items: unknown;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMinimum: number | undefined;
  readonly exclusiveMaximum: number | undefined;
  /** Includes the target of a 3.1 `$ref` that has sibling keywords. */
  readonly allOf: readonly unknown[];
  readonly anyOf: readonly unknown[];
  readonly oneOf: readonly unknown[];
  /** The types as bits (see `TYPE_BITS`); 0 = type not checked. */
  readonly typeMask: number;
  /**
   * Non-zero when the type is the view's only keyword (`{type: string}`): then a value whose
   * type bits match passes without a walk. The walk's hottest shortcut.
   */
  readonly onlyTypeMask: number;
  /** The views of the subschemas, linked on first use (so reference cycles cost nothing). */
  links: SchemaLinks | undefined;
}

/** What an object's schema says about one field name. */
export interface FieldRule {
  /** The field's schema from `properties`; undefined when the name is only in `required`. */
  readonly view: SchemaView | undefined;
  readonly required: boolean;
}

/** Subschema views, so the walk does no per-value lookups. */
export interface SchemaLinks {
  /** Every name in `properties` or `required`, for one lookup per field of the body. */
  readonly fields: ReadonlyMap<string, FieldRule>;
  /** How many distinct names `required` lists. */
  readonly requiredCount: number;
  readonly additional: SchemaView | undefined;
  readonly items: SchemaView | undefined;
  readonly allOf: readonly SchemaView[];
  readonly anyOf: readonly SchemaView[];
  readonly oneOf: readonly SchemaView[];
}

export const TYPE_BITS: Readonly<Record<string, number>> = { string: 1, number: 2, integer: 4, boolean: 8, object: 16, array: 32, null: 64 };

const ANY: SchemaView = Object.freeze(makeView({ any: true }));
const NEVER: SchemaView = Object.freeze(makeView({ never: true }));

function makeView(partial: Partial<SchemaView>): SchemaView {
  const view: SchemaView = {
    any: false,
    never: false,
    types: undefined,
    typeLabel: '',
    nullAllowed: false,
    nullUnconstrained: true,
    enumValues: undefined,
    enumSet: undefined,
    hasConst: false,
    constValue: undefined,
    required: [],
    properties: undefined,
    additional: undefined,
    items: undefined,
    minItems: undefined,
    maxItems: undefined,
    minLength: undefined,
    maxLength: undefined,
    minimum: undefined,
    maximum: undefined,
    exclusiveMinimum: undefined,
    exclusiveMaximum: undefined,
    allOf: [],
    anyOf: [],
    oneOf: [],
    typeMask: 0,
    onlyTypeMask: 0,
    links: undefined,
  };
  // Assigning over the full set of fields keeps one object shape for every view, which keeps the walk's property reads fast.
  return Object.assign(view, partial);
}

/** Builds and caches the view of each schema object of one document. */
export class SchemaViews {
  private readonly cache = new WeakMap<object, SchemaView>();
  /** Schemas whose view is being built, so reference cycles are never collapsed into themselves. */
  private readonly building = new Set<object>();
  private readonly dialect: Dialect;

  /**
   * @param direction a response's required fields leave out `writeOnly` properties (never sent
   *   back); a request's leave out `readOnly` ones (only the server writes them).
   */
  constructor(
    private readonly document: OpenApiDocument,
    private readonly direction: 'response' | 'request' = 'response',
  ) {
    this.dialect = document.dialect;
  }

  of(schema: unknown): SchemaView {
    if (schema === true) return ANY;
    if (schema === false) return NEVER;
    if (!isObject(schema)) return ANY;
    let view = this.cache.get(schema);
    if (view === undefined) {
      this.building.add(schema);
      try {
        view = this.build(schema);
      } finally {
        this.building.delete(schema);
      }
      this.cache.set(schema, view);
    }
    return view;
  }

  /** The views of a view's subschemas, made on first use. */
  linksOf(view: SchemaView): SchemaLinks {
    if (view.links !== undefined) return view.links;
    const required = new Set(view.required);
    const fields = new Map<string, FieldRule>();
    for (const [name, schema] of Object.entries(view.properties ?? {})) fields.set(name, { view: this.of(schema), required: required.has(name) });
    for (const name of required) if (!fields.has(name)) fields.set(name, { view: undefined, required: true });
    const links: SchemaLinks = {
      fields,
      requiredCount: required.size,
      additional: view.additional === undefined || view.additional === false ? undefined : this.of(view.additional),
      items: view.items === undefined ? undefined : this.of(view.items),
      allOf: view.allOf.map((schema) => this.of(schema)),
      anyOf: view.anyOf.map((schema) => this.of(schema)),
      oneOf: view.oneOf.map((schema) => this.of(schema)),
    };
    if (!Object.isFrozen(view)) view.links = links;
    return links;
  }

  /**
   * Follows a `$ref` chain to a schema. Undefined when the reference leaves the document,
   * points nowhere or loops: such a schema is skipped (passes).
   */
  private followRef(ref: string): unknown {
    const seen = new Set<string>();
    let target: unknown = { $ref: ref };
    for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
      if (!isObject(target) || typeof target.$ref !== 'string') return target;
      // 3.1 allows keywords beside `$ref`: then this object is the schema, not a mere pointer.
      if (hop > 0 && this.dialect === 'oas31' && Object.keys(target).length > 1) return target;
      const next = target.$ref;
      if (seen.has(next)) return undefined;
      seen.add(next);
      target = this.document.resolvePointer(next);
      if (target === undefined) return undefined;
    }
    return undefined;
  }

  private build(schema: JsonObject): SchemaView {
    const allOf = arrayOf(schema.allOf);
    if (typeof schema.$ref === 'string') {
      const target = this.followRef(schema.$ref);
      // Before 3.1 a `$ref` replaces its object: keywords beside it are ignored.
      if (this.dialect !== 'oas31') return target === undefined ? ANY : this.of(target);
      if (target !== undefined) allOf.push(target);
    }
    const { types, typeHasNull } = this.readType(schema.type);
    const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
    const hasConst = Object.hasOwn(schema, 'const');
    const nullable =
      (this.dialect === 'oas30' && schema.nullable === true) ||
      (this.dialect === 'swagger2' && schema['x-nullable'] === true) ||
      typeHasNull ||
      (enumValues !== undefined && enumValues.includes(null)) ||
      (hasConst && schema.const === null);
    const bounds = this.readBounds(schema);
    const properties = isObject(schema.properties) ? schema.properties : undefined;
    const additional = schema.additionalProperties === false ? false : isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
    const view = makeView({
      types,
      typeMask: types === undefined ? 0 : types.reduce((mask, type) => mask | TYPE_BITS[type]!, typeHasNull ? TYPE_BITS.null! : 0),
      typeLabel: types === undefined ? '' : [...types, ...(typeHasNull ? ['null'] : [])].join(' or '),
      nullAllowed: nullable,
      // An unknown type (or a type list before 3.1) is not checked, so null passes it too.
      nullUnconstrained: types === undefined && enumValues === undefined && !hasConst,
      enumValues,
      enumSet: enumValues !== undefined && enumValues.every(isPrimitive) ? new Set(enumValues) : undefined,
      hasConst,
      constValue: hasConst ? schema.const : undefined,
      required: this.readRequired(schema.required, properties),
      properties,
      additional,
      items: isObject(schema.items) || typeof schema.items === 'boolean' ? schema.items : undefined,
      minItems: count(schema.minItems),
      maxItems: count(schema.maxItems),
      minLength: count(schema.minLength),
      maxLength: count(schema.maxLength),
      ...bounds,
      allOf,
      anyOf: arrayOf(schema.anyOf),
      oneOf: arrayOf(schema.oneOf),
    });
    if (isTrivial(view)) return ANY;
    if (view.typeMask !== 0 && isTrivial({ ...view, types: undefined, nullAllowed: false })) {
      (view as { onlyTypeMask: number }).onlyTypeMask = view.typeMask;
    }
    // A lone `$ref` (or a one-schema allOf) is its target: skip the extra level.
    if (allOf.length === 1 && isTrivial({ ...view, allOf: [] }) && !(isObject(allOf[0]) && this.building.has(allOf[0]))) {
      return this.of(allOf[0]);
    }
    return view;
  }

  private readType(type: unknown): { types: string[] | undefined; typeHasNull: boolean } {
    if (typeof type === 'string') {
      if (!KNOWN_TYPES.has(type)) return { types: undefined, typeHasNull: false };
      if (type === 'null') return { types: [], typeHasNull: true };
      return { types: [type], typeHasNull: false };
    }
    // Type lists are 3.1 only; in older documents they are not a known type, so they pass.
    if (Array.isArray(type) && this.dialect === 'oas31') {
      if (!type.every((entry) => typeof entry === 'string' && KNOWN_TYPES.has(entry))) {
        return { types: undefined, typeHasNull: type.includes('null') };
      }
      const names = type as string[];
      return { types: names.filter((name) => name !== 'null'), typeHasNull: names.includes('null') };
    }
    return { types: undefined, typeHasNull: false };
  }

  private readBounds(schema: JsonObject) {
    let minimum = finite(schema.minimum);
    let maximum = finite(schema.maximum);
    let exclusiveMinimum: number | undefined;
    let exclusiveMaximum: number | undefined;
    if (this.dialect === 'oas31') {
      exclusiveMinimum = finite(schema.exclusiveMinimum);
      exclusiveMaximum = finite(schema.exclusiveMaximum);
    } else {
      // 3.0 and Swagger 2.0: `exclusiveMinimum: true` makes `minimum` exclusive.
      if (schema.exclusiveMinimum === true && minimum !== undefined) [exclusiveMinimum, minimum] = [minimum, undefined];
      if (schema.exclusiveMaximum === true && maximum !== undefined) [exclusiveMaximum, maximum] = [maximum, undefined];
    }
    return { minimum, maximum, exclusiveMinimum, exclusiveMaximum };
  }

  /** Required fields, less those whose property is `writeOnly` (responses) or `readOnly` (requests). */
  private readRequired(required: unknown, properties: JsonObject | undefined): string[] {
    if (!Array.isArray(required)) return [];
    const names = required.filter((name): name is string => typeof name === 'string');
    if (properties === undefined) return names;
    const flag = this.direction === 'response' ? 'writeOnly' : 'readOnly';
    return names.filter((name) => {
      if (!Object.hasOwn(properties, name)) return true;
      const property = properties[name];
      if (!isObject(property)) return true;
      if (property[flag] === true) return false;
      const target = typeof property.$ref === 'string' ? this.followRef(property.$ref) : undefined;
      return !(isObject(target) && target[flag] === true);
    });
  }
}

function isTrivial(view: Omit<SchemaView, 'links'>): boolean {
  return (
    view.types === undefined &&
    !view.nullAllowed &&
    view.enumValues === undefined &&
    !view.hasConst &&
    view.required.length === 0 &&
    view.properties === undefined &&
    view.additional === undefined &&
    view.items === undefined &&
    view.minItems === undefined &&
    view.maxItems === undefined &&
    view.minLength === undefined &&
    view.maxLength === undefined &&
    view.minimum === undefined &&
    view.maximum === undefined &&
    view.exclusiveMinimum === undefined &&
    view.exclusiveMaximum === undefined &&
    view.allOf.length === 0 &&
    view.anyOf.length === 0 &&
    view.oneOf.length === 0
  );
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? [...value] : [];
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
