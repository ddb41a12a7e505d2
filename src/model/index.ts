/**
 * The workspace format, declared once. Every resource is one zod schema here; parsing (with
 * defaults), validation and writing (declared order, defaults omitted, unknown fields kept) all
 * derive from it.
 */
import { z } from 'zod';
import { dropNullFields, toFileData, unknownFields } from './declare.js';
import { environmentSchema } from './environment.js';
import { folderSchema } from './folder.js';
import { loadTestSchema } from './loadtest.js';
import { requestSchema, type RequestFile } from './request.js';
import { surelyValid } from './quick-check.js';
import { keepingUnusedSections, serverSchemas } from './server.js';
import { workspaceSchema } from './workspace.js';

export { DEFAULT_SEQ, MAX_TIMER_MS } from './constants.js';
export * from './common.js';
export * from './request.js';
export * from './folder.js';
export * from './workspace.js';
export * from './environment.js';
export * from './server.js';
export * from './loadtest.js';
export * from './app-settings.js';
export * from './socket-framing.js';
export * from './socket-encoding.js';
export { toFileData, deepEqual, describe as describeValue, isPlainObject, unknownFields, closestName, type UnknownField } from './declare.js';
// The type only: the forms' walk itself is the app's (routes-catalog imports it), so `ferry run` never loads it.
export type { FormField } from './form-fields.js';

export const RESOURCE_SCHEMAS = {
  workspace: workspaceSchema,
  request: requestSchema,
  folder: folderSchema,
  environment: environmentSchema,
  /** Built at the first server file (model/server.ts). */
  get server() {
    return serverSchemas().serverSchema;
  },
  loadtest: loadTestSchema,
} as const;
export type ResourceKind = keyof typeof RESOURCE_SCHEMAS;
export type ResourceValue<K extends ResourceKind> = z.output<(typeof RESOURCE_SCHEMAS)[K]>;

export interface FieldProblem {
  /** Field path inside the file, e.g. `['headers', 0, 'key']`. */
  path: (string | number)[];
  message: string;
}

export type ParseOutcome<K extends ResourceKind> =
  | { ok: true; value: ResourceValue<K> }
  | { ok: false; problems: FieldProblem[] };

/** Validates file data and fills defaults. */
export function parseResource<K extends ResourceKind>(kind: K, data: unknown): ParseOutcome<K> {
  const schema = RESOURCE_SCHEMAS[kind] as z.ZodType;
  const result = schema.safeParse(dropNullFields(schema, data ?? {}));
  if (result.success) return { ok: true, value: result.data as ResourceValue<K> };
  const problems = result.error.issues.map((issue) => ({
    path: issue.path.filter((p): p is string | number => typeof p !== 'symbol'),
    message: issue.message,
  }));
  if (kind === 'server') return keepingUnusedSections(data, problems, (rest) => parseResource(kind, rest));
  return { ok: false, problems };
}

/** What a listing of thousands of requests keeps of each (`ferry ls`): the fields it shows and orders by. */
export type RequestSummary = Pick<RequestFile, 'name' | 'kind' | 'seq' | 'method' | 'openapi'>;

/** What a listing keeps of a folder's `_folder.yaml`: its name and its place. */
export type FolderSummary = Pick<ResourceValue<'folder'>, 'name' | 'seq'>;

/**
 * What a listing keeps of `ferry.yaml` and of an environment: what it shows, and the keys of the
 * secret variables given a value in the file (each is warned about). No variable's value.
 */
export type WorkspaceSummary = Pick<ResourceValue<'workspace'>, 'version' | 'id' | 'name'> & { secretValues: string[] };
export type EnvironmentSummary = Pick<ResourceValue<'environment'>, 'name'> & { secretValues: string[] };
/** What a listing keeps of a server and of a load test: what it shows and orders by. */
export type ServerSummary = Pick<ResourceValue<'server'>, 'name' | 'kind' | 'seq' | 'port'>;
export type LoadTestSummary = Pick<ResourceValue<'loadtest'>, 'name' | 'seq'>;

/**
 * A file read as `parseResource(kind, …)` reads it — the same acceptance, the same problems —
 * keeping only the `keys` a listing shows. Most files are plainly valid (`surelyValid`): zod then
 * parses just those fields, and nothing of the rest is built.
 */
function summaryParser<S>(kind: 'request' | 'folder', keys: readonly string[]): (data: unknown) => { ok: true; value: S } | { ok: false; problems: FieldProblem[] } {
  const schema = RESOURCE_SCHEMAS[kind];
  const summarySchema = z.object(Object.fromEntries(keys.map((key) => [key, schema.shape[key as keyof typeof schema.shape]])));
  return (data) => {
    const input = data ?? {};
    if (surelyValid(schema, input)) {
      const summary = summarySchema.safeParse(dropNullFields(summarySchema, input));
      if (summary.success) return { ok: true, value: summary.data as S };
    }
    const full = parseResource(kind, data);
    if (!full.ok) return full;
    // An absent optional field stays absent, as in the summary zod parses.
    const value = full.value as Record<string, unknown>;
    return { ok: true, value: Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as S };
  };
}

/** A request file's summary for a listing (`ferry ls`). */
export const parseRequestSummary = summaryParser<RequestSummary>('request', ['name', 'kind', 'seq', 'method', 'openapi']);

/** A folder file's summary for a listing (`ferry ls`). */
export const parseFolderSummary = summaryParser<FolderSummary>('folder', ['name', 'seq']);

/** File data for a resource: declared field order, defaults omitted, unknown fields after the known ones. */
export function serializeResource<K extends ResourceKind>(kind: K, value: ResourceValue<K>): Record<string, unknown> {
  return toFileData(RESOURCE_SCHEMAS[kind] as z.ZodType, value) as Record<string, unknown>;
}

/** Renders a field path like `headers[0].key`. */
export function formatFieldPath(path: (string | number)[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

/** What the warning about a file's unknown fields calls the files of each kind. */
const FILES_OF_KIND: Record<ResourceKind, string> = {
  workspace: 'ferry.yaml does',
  request: 'requests do',
  folder: 'folder settings do',
  environment: 'environments do',
  server: 'servers do',
  loadtest: 'load tests do',
};

/**
 * The fields of a parsed `kind` value that the format does not have (kept, never read), each
 * with the field it likely meant: `targets[0].weigth (did you mean weight?)`.
 */
export function unknownFieldNotes(kind: ResourceKind, value: unknown): string[] {
  return unknownFields(RESOURCE_SCHEMAS[kind] as z.ZodType, value).map((f) => `${formatFieldPath(f.path)}${f.meant ? ` (did you mean ${f.meant}?)` : ''}`);
}

/** The one line that says which fields of `file` do nothing (`unknownFieldNotes`), or undefined when there are none. */
export function unknownFieldsMessage(kind: ResourceKind, file: string, notes: readonly string[]): string | undefined {
  return notes.length ? `${file}: fields that ${FILES_OF_KIND[kind]} not have are ignored: ${notes.join(', ')}.` : undefined;
}

/** `unknownFieldsMessage` of a parsed value. */
export function unknownFieldsWarning(kind: ResourceKind, file: string, value: unknown): string | undefined {
  return unknownFieldsMessage(kind, file, unknownFieldNotes(kind, value));
}
