/**
 * A form from a JSON Schema (an MCP tool's input schema, a prompt's arguments): one field per
 * property — text for strings, a number box, a checkbox, a list for enums, JSON text for arrays,
 * objects and anything else — and the value read back with each field checked against its type,
 * so a wrong value is named before anything is sent.
 */

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
}

type Schema = { type?: unknown; properties?: Record<string, Record<string, unknown>>; required?: unknown; enum?: unknown; description?: unknown };

export function formFields(schema: Record<string, unknown>): FormField[] {
  const s = schema as Schema;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  return Object.entries(s.properties ?? {}).map(([name, prop]) => {
    const type = Array.isArray(prop.type) ? (prop.type as string[]).find((t) => t !== 'null') : prop.type;
    const kind: FieldKind = Array.isArray(prop.enum) ? 'enum' : type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : 'json';
    return { name, kind, required: required.includes(name), ...(typeof prop.description === 'string' ? { description: prop.description } : {}), ...(Array.isArray(prop.enum) ? { options: (prop.enum as unknown[]).map((v) => JSON.stringify(v)) } : {}) };
  });
}

/** The inputs as the form holds them (strings, and booleans for checkboxes). */
export type FormInputs = Record<string, string | boolean>;

/** The form's value as a JSON object, or the first field that is wrong, in one line. Empty optional fields are left out. */
export function formValue(fields: FormField[], inputs: FormInputs): { value: Record<string, unknown> } | { error: string } {
  const value: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = inputs[field.name];
    if (field.kind === 'boolean') {
      if (raw !== undefined) value[field.name] = raw === true;
      continue;
    }
    const text = typeof raw === 'string' ? raw : '';
    if (text.trim() === '') {
      if (field.required) return { error: `${field.name} is required.` };
      continue;
    }
    switch (field.kind) {
      case 'string':
        value[field.name] = text;
        break;
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n))) return { error: `${field.name} must be ${field.kind === 'integer' ? 'a whole number' : 'a number'}, not "${text.slice(0, 40)}".` };
        value[field.name] = n;
        break;
      }
      case 'enum':
        value[field.name] = JSON.parse(text);
        break;
      default:
        try {
          value[field.name] = JSON.parse(text);
        } catch (error) {
          return { error: `${field.name} is not valid JSON: ${(error as Error).message}.` };
        }
    }
  }
  return { value };
}

/** The form's inputs from a JSON object already written (the request's `arguments`), so the form shows them. */
export function formInputs(fields: FormField[], text: string): FormInputs {
  let current: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text || '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) current = parsed as Record<string, unknown>;
  } catch {
    // Text that is not JSON: the form starts empty and the text stays until the form is applied.
  }
  const inputs: FormInputs = {};
  for (const field of fields) {
    const v = current[field.name];
    if (v === undefined) continue;
    inputs[field.name] = field.kind === 'boolean' ? v === true : field.kind === 'string' && typeof v === 'string' ? v : JSON.stringify(v);
  }
  return inputs;
}
