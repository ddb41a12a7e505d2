/**
 * A JSON skeleton of a message type for the app's message editor (issue 26): every field by its
 * JSON name, with the value the reader shows for it unset (`""`, `0`, `false`, 64-bit integers as
 * `"0"`, bytes as `""`), an enum's first value, a repeated field as a one-element array, a map as
 * `{}`, nested messages in full, and every member of a oneof (the descriptors as loaded do not
 * tell which fields share one — their `oneofIndex` defaults to 0 — so the user deletes the others).
 * A message that contains itself (directly or further down) is written as `{}` where it recurs,
 * and nesting stops at `MAX_DEPTH`, so any descriptor gives a finite skeleton.
 */
import type { PackageDefinition } from '@grpc/proto-loader';

export const MAX_DEPTH = 12;

/** A field of a message type as @grpc/proto-loader describes it (the descriptor JSON). */
export interface FieldDescriptor {
  name: string;
  jsonName?: string;
  label?: string;
  type?: string;
  typeName?: string;
}

/** A message type as @grpc/proto-loader describes it. */
export interface TypeDescriptor {
  name: string;
  field?: FieldDescriptor[];
  options?: { mapEntry?: boolean } | null;
  nestedType?: Array<{ name: string; options?: { mapEntry?: boolean } | null }>;
  value?: Array<{ name: string }>;
}

const LONGS = new Set(['TYPE_INT64', 'TYPE_UINT64', 'TYPE_FIXED64', 'TYPE_SFIXED64', 'TYPE_SINT64']);

/** The skeleton of the message type named `typeName` (as the definition names it, or a field's `.pkg.Msg`). */
export function messageSkeleton(definition: PackageDefinition, typeName: string): Record<string, unknown> {
  const type = lookup(definition, typeName);
  return type ? skeletonOf(definition, type, [typeName.replace(/^\./, '')]) : {};
}

function skeletonOf(definition: PackageDefinition, type: TypeDescriptor, stack: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.field ?? []) {
    if (isMapField(definition, type, field)) {
      out[jsonName(field)] = {};
      continue;
    }
    const nested = field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_ENUM' ? lookup(definition, field.typeName) : undefined;
    const value = valueOf(definition, field, nested, stack);
    out[jsonName(field)] = field.label === 'LABEL_REPEATED' ? [value] : value;
  }
  return out;
}

function valueOf(definition: PackageDefinition, field: FieldDescriptor, nested: TypeDescriptor | undefined, stack: string[]): unknown {
  switch (field.type) {
    case 'TYPE_MESSAGE': {
      const name = (field.typeName ?? '').replace(/^\./, '');
      if (!nested || stack.includes(name) || stack.length >= MAX_DEPTH) return {};
      return skeletonOf(definition, nested, [...stack, name]);
    }
    case 'TYPE_ENUM':
      return nested?.value?.[0]?.name ?? 0;
    case 'TYPE_STRING':
    case 'TYPE_BYTES':
      return '';
    case 'TYPE_BOOL':
      return false;
    default:
      return LONGS.has(field.type ?? '') ? '0' : 0;
  }
}

/** A field's name in proto3 JSON: its `json_name`, else the lowerCamelCase of its name. */
export function jsonName(field: FieldDescriptor): string {
  return field.jsonName || field.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Whether `field` of `parent` is a `map<K, V>`: a repeated entry message marked `mapEntry`. */
export function isMapField(definition: PackageDefinition, parent: TypeDescriptor, field: FieldDescriptor): boolean {
  if (field.type !== 'TYPE_MESSAGE' || field.label !== 'LABEL_REPEATED') return false;
  const nested = lookup(definition, field.typeName);
  if (nested) return nested.options?.mapEntry === true;
  // Map entry types are nested in the message (protobufjs names them after the field), not in the definition.
  const short = (field.typeName ?? '').split('.').at(-1);
  return parent.nestedType?.some((n) => n.name === short && n.options?.mapEntry) === true || /Entry$/.test(field.typeName ?? '');
}

/** A type by name: descriptors name it fully (`.pkg.Msg`) or relative to the package. */
export function lookup(definition: PackageDefinition, typeName: string | undefined): TypeDescriptor | undefined {
  const name = typeName?.replace(/^\./, '');
  if (!name) return undefined;
  const key = name in definition ? name : Object.keys(definition).find((k) => k.endsWith(`.${name}`));
  const entry = key ? definition[key] : undefined;
  return entry && 'format' in entry ? ((entry as { type: unknown }).type as TypeDescriptor) : undefined;
}
