/**
 * The server editor's two halves: what the page edits (the common fields, and the kind's section
 * as YAML) and turning an edit back into a server file, checked by the format's own schema
 * (`parseResource('server')`) before anything is written. A problem comes back with its place:
 * a line and column in the section's YAML, or the common field's name.
 */
import { formatFieldPath, parseResource, SERVER_KIND_SECTION, SERVER_KINDS, serializeResource, type ServerFile, type ServerKind } from '../../model/index.js';
import { isPlainObject } from '../../model/index.js';
import { checkDisplayName, parseYaml, positionOf, renderYaml, sectionSource, SERVERS_DIR, withSectionSource } from '../../workspace/index.js';
import type { ServerEditorView } from '../shared/api.js';
import { ApiError } from './router.js';

/** The fields the form edits; everything else of the file (other kinds' sections, unknown fields) is kept. */
const COMMON_FIELDS = ['name', 'kind', 'host', 'port', 'tls', 'autoStart', 'docs'] as const;

/** Section text in the editor is at most this long (a server file is much smaller in practice). */
const MAX_SECTION_BYTES = 5 * 1024 * 1024;

/**
 * The editor's view of a server. `fileText`, the file as it stands: the section is shown as written
 * there, comments and layout included, when it is a block; else as the format writes it.
 */
export function serverEditorView(id: string, server: ServerFile, fileText?: string): ServerEditorView {
  const section = SERVER_KIND_SECTION[server.kind];
  const written = serializeResource('server', server)[section];
  const asWritten = written === undefined ? '' : renderYaml(written);
  const sectionYaml = (fileText !== undefined ? sectionSource(fileText, section) : undefined) ?? asWritten;
  return { id, file: `${SERVERS_DIR}/${id}.yaml`, server, section, sectionYaml, sections: { ...SERVER_KIND_SECTION } };
}

/** The section's text as typed, put in the file in place of what the writer made of it (comments typed there kept); the writer keeps it only when the file then reads as the saved value. */
export function typedSection(body: unknown, server: ServerFile): (text: string) => string | undefined {
  const typed = (body as { sectionYaml?: unknown } | null)?.sectionYaml;
  return (text) => (typeof typed === 'string' ? withSectionSource(text, SERVER_KIND_SECTION[server.kind], typed) : undefined);
}

function refuse(file: string, message: string, where: { field?: string; line?: number; column?: number }): never {
  throw new ApiError(400, `${file}: ${message}`, where);
}

/**
 * The server file an edit makes: `current` (the file as read; undefined for a new one) with the
 * form's common fields and the section parsed from `sectionYaml`. Throws a 400 with the place;
 * `file` names the file in messages.
 */
export function serverFromEdit(file: string, current: ServerFile | undefined, body: unknown): ServerFile {
  const edit = (body as { server?: unknown } | null)?.server;
  if (!isPlainObject(edit)) refuse(file, 'the edit has no "server" fields (a mapping is expected).', {});
  const sectionYaml = (body as { sectionYaml?: unknown }).sectionYaml ?? '';
  if (typeof sectionYaml !== 'string') refuse(file, '"sectionYaml" must be text.', {});
  if (Buffer.byteLength(sectionYaml) > MAX_SECTION_BYTES) refuse(file, `the section is over ${MAX_SECTION_BYTES / 1024 / 1024} MB; nothing was saved.`, { line: 1, column: 1 });

  const kind = edit.kind ?? current?.kind ?? 'http';
  if (typeof kind !== 'string' || !(SERVER_KINDS as readonly string[]).includes(kind)) {
    refuse(file, `kind: expected one of ${SERVER_KINDS.join(', ')}, got ${JSON.stringify(kind)}; nothing was saved.`, { field: 'kind' });
  }
  const section = SERVER_KIND_SECTION[kind as ServerKind];

  const parsed = parseYaml(sectionYaml);
  if (!parsed.ok) {
    refuse(file, `${section}: the YAML does not parse (line ${parsed.error.line}, column ${parsed.error.column}): ${parsed.error.message}; nothing was saved.`, { line: parsed.error.line, column: parsed.error.column });
  }
  const data = parsed.parsed.data;
  if (data !== null && data !== undefined && !isPlainObject(data)) {
    refuse(file, `${section}: expected the fields of the section (a mapping), got ${Array.isArray(data) ? 'a list' : 'a single value'}; nothing was saved.`, { line: 1, column: 1 });
  }

  // The file as the format writes it, so unknown fields and other kinds' sections survive.
  const candidate: Record<string, unknown> = current ? { ...serializeResource('server', current) } : {};
  for (const key of COMMON_FIELDS) {
    if (!Object.hasOwn(edit, key)) continue;
    const value = edit[key];
    if (value === undefined || value === null || value === '') delete candidate[key];
    else candidate[key] = value;
  }
  if (data === null || data === undefined) delete candidate[section];
  else candidate[section] = data;

  const outcome = parseResource('server', candidate);
  if (outcome.ok) {
    // The format reads a file without a name (as empty, with a warning: spec 2.1.1); an edit must give one.
    if (outcome.value.name.trim() === '') refuse(file, `name: ${checkDisplayName('')!.replace(/\.$/, '')}; nothing was saved.`, { field: 'name' });
    // The server as the written file reads back: the form's `tls: {enabled: false}` is all defaults,
    // so not written, nor read. Answered as the saved server, it is the page's base for the next
    // save, which must equal the file (else a save right after a save is refused as a conflict).
    const readBack = parseResource('server', serializeResource('server', outcome.value));
    return readBack.ok ? readBack.value : outcome.value;
  }
  const problem = outcome.problems[0]!;
  const fieldPath = formatFieldPath(problem.path);
  if (problem.path[0] === section) {
    const at = positionOf(parsed.parsed, problem.path.slice(1));
    refuse(file, `${fieldPath}: ${problem.message} (line ${at.line}, column ${at.column}); nothing was saved.`, at);
  }
  refuse(file, `${fieldPath || 'the file'}: ${problem.message}; nothing was saved.`, { field: String(problem.path[0] ?? '') });
}
