/**
 * Planning an update from API spec (spec 4.5): compares the saved requests of an imported
 * folder with the old and the new document, and lists every file to write. Writes nothing;
 * `applyUpdate` does, and `formatPreview` shows the plan.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { deepEqual, parseResource, type RequestFile } from '../../../model/index.js';
import {
  checkNoSymlinks, ENVIRONMENTS_DIR, FOLDER_FILE, findFolder, formatWarning, openWorkspace, readTextFile, REQUESTS_DIR, resourceText, SPECS_DIR,
  isSymbolicLink, stripYaml, uniqueFileName, unreadEntryFiles, walkRequests, yamlTooLarge, type FolderNode, type Workspace,
} from '../../../workspace/index.js';
import { ImportError, type ImportSource } from '../../types.js';
import { buildCollection, type GeneratedCollection, type GeneratedOperation } from '../build.js';
import { recordedSource } from '../index.js';
import { parseSpecText, requireSpec } from '../parse.js';
import { wordsFileName } from '../../sibling-names.js';
import { isUnusedFolder } from '../../unused-folder.js';
import { matchOperations, oldOperationFinder, type SavedRequest } from './match.js';
import { keptSpecPath, readOldDocument } from './old-document.js';
import { notImported } from './known-source.js';
import { newNotes } from './preview.js';
import { decide, normalizeFolder, normalizeRequest, sameGeneratedBody, UPDATABLE_FIELDS, type UpdatableField } from './three-way.js';
import type { PlannedWrite, RequestChange, RequestRef, UpdatePlan } from './types.js';

export interface UpdateInput {
  /** The imported folder: its path under `requests/` (or its display name). */
  folder: string;
  /** The new version's text and where it came from. */
  text: string;
  source: ImportSource;
}

export async function planUpdate(workspaceRoot: string, input: UpdateInput): Promise<UpdatePlan> {
  const ws = await openWorkspace(workspaceRoot);
  const folder = locateFolder(ws, input.folder);
  const link = folder.settings.openapi;
  if (!link) throw await notImported(ws.root, folder);
  // A request file that does not parse could hold any operation: updating around it would add a
  // second request for that operation. The user fixes (or removes) it first.
  const prefix = `${REQUESTS_DIR}/${folder.path}/`;
  const broken = ws.warnings.filter((w) => w.file.replace(/\\/g, '/').startsWith(prefix));
  if (broken.length > 0) {
    throw new ImportError(`Some files in "${folder.name}" cannot be read, so the update cannot tell which operations they hold:\n${broken.slice(0, 10).map((w) => `  ${formatWarning(w)}`).join('\n')}${broken.length > 10 ? `\n  and ${broken.length - 10} more` : ''}\nFix or remove them, then update again. Nothing was written.`);
  }
  const parsed = parseSpecText(input.text, input.source.label, 'update');
  const { root, info } = requireSpec(parsed.data, input.source.label, { text: input.text });
  const next = buildCollection(root, info, { requireBaseUrl: false, ...(input.source.url ? { downloadedFrom: input.source.url } : {}) });
  // A document without operations (no `paths`, a wrong file) would mark every request as removed: refused, not planned.
  const savedOperations = [...walkRequests(folder)].filter(({ node }) => node.request.openapi?.operation).length;
  if (next.operations.length === 0 && savedOperations > 0) {
    throw new ImportError(`${input.source.label} has no operations (no \`paths\` with methods), so updating "${folder.name}" from it would mark all ${savedOperations} of its requests as no longer in the spec. Check that this is the right document. Nothing was written.`);
  }
  const oldDoc = await readOldDocument(ws.root, link.spec);
  // Downloaded before, the old document's base URL came from its download address too.
  const oldFrom = link.source && /^https?:\/\//i.test(link.source) ? { downloadedFrom: link.source } : {};
  const old = oldDoc.ok ? buildCollection(oldDoc.root, oldDoc.info, { requireBaseUrl: false, ...oldFrom }) : undefined;
  // The old document as imports by earlier Ferry versions wrote it (parameters without an example
  // left empty, example references as written…): a saved value equal to that was never edited
  // either. Built only when a saved value differs from the old document's.
  let earlierBuilt: GeneratedCollection | undefined;
  const earlier = oldDoc.ok ? () => (earlierBuilt ??= buildCollection(oldDoc.root, oldDoc.info, { requireBaseUrl: false, ...oldFrom, asEarlierImports: true })) : undefined;
  const warnings: string[] = oldDoc.ok
    ? []
    : [`The previous document could not be read (${oldDoc.reason}), so your edits cannot be told apart: URLs, parameters, headers and bodies take the new version; docs and auth stay as they are.`];

  const writes: PlannedWrite[] = [];
  const deletes: string[] = [];
  const names = new NameBook();

  // Saved requests by operation (paths that differ only in parameter names are the same operation).
  const saved: SavedRequest[] = [];
  for (const { node } of walkRequests(folder)) {
    if (node.request.openapi?.operation) saved.push({ path: node.path, request: node.request });
  }
  const { matches, unmatched } = matchOperations(saved, next.operations);
  const oldFor = oldOperationFinder(old?.operations ?? []);
  let earlierFor: ReturnType<typeof oldOperationFinder<GeneratedOperation>> | undefined;

  const changed: RequestChange[] = [];
  /** Path variables the new document renamed in a matched operation: new key → old key. */
  const renamedVariables = new Map<string, string>();
  /** The operations (new text) each renamed variable is used in. */
  const renamedIn = new Map<string, string[]>();
  const added: RequestRef[] = [];
  const removed: RequestRef[] = [];
  const placer = new Placer(ws, folder, names, writes);

  for (const op of next.operations) {
    const found = matches.get(op);
    if (!found) {
      added.push(await placer.add(op));
      continue;
    }
    const nextRequest = normalizeRequest(op.request);
    for (const match of found) {
      const oldOp = oldFor(String(match.request.openapi?.operation), op.operation);
      if (oldOp) noteRenamedVariables(oldOp, op, renamedVariables, renamedIn);
      const oldRequest = oldOp ? normalizeRequest(oldOp.request) : old ? undefined : null;
      // A saved value that differs from the old document's may still be an import's: one made by
      // an earlier Ferry (parameters it left empty, a body it generated with other placeholders).
      let earlierRequest: RequestFile | null | undefined;
      const imported = oldOp && oldRequest && earlier
        ? (field: UpdatableField, value: unknown) => {
            if (field === 'body' && oldOp.bodyGenerated && sameGeneratedBody(value, oldRequest.body)) return true;
            if (earlierRequest === undefined) {
              earlierFor ??= oldOperationFinder(earlier().operations);
              const found = earlierFor(String(match.request.openapi?.operation), op.operation);
              earlierRequest = found ? normalizeRequest(found.request) : null;
            }
            return earlierRequest !== null && deepEqual(value, earlierRequest[field]);
          }
        : undefined;
      // A URL an earlier Ferry wrote with the document's own server spelled out is the same
      // request as the {{baseUrl}} one: compared as that, it is neither rewritten nor listed
      // unless the document changed it.
      const savedUrl = match.request.url;
      const sameUrl = savedUrl === op.serverWrittenOut ? nextRequest.url : oldOp && oldRequest && savedUrl === oldOp.serverWrittenOut ? oldRequest.url : undefined;
      const change = await planChange(ws.root, match, nextRequest, oldRequest, writes, imported, sameUrl === undefined ? undefined : { url: sameUrl });
      if (change) changed.push(change);
    }
  }
  for (const match of unmatched) {
    if (match.request.openapi?.removed === true) continue;
    const value: RequestFile = { ...match.request, openapi: { ...match.request.openapi, removed: true } };
    await writeEdited(ws.root, match.path, value, writes);
    removed.push({ operation: match.request.openapi?.operation ?? '', name: match.request.name, path: match.path });
  }

  const folderPlan = await planFolder(ws, folder, next, old, input, parsed.format, names, writes, deletes);
  const env = await planEnvironment(ws, folder, next, old, names, writes, earlier, renamedVariables, renamedIn);
  warnings.push(...env.warnings);
  if (env.among > 1) warnings.push(`${env.among} environments are named "${env.name}"; this update uses ${env.file}, the one that holds most of this folder's values from the previous document.`);

  // Nothing through a link (a repository's `specs -> ~/.config/app`): said now, in the preview's
  // place and in a dry run, with what to do; applyUpdate checks again right before it writes.
  for (const target of [...writes.map((w) => w.file), ...deletes]) {
    const linked = await checkNoSymlinks(ws.root, path.relative(ws.root, target));
    if (linked) throw new ImportError(`Not updated: ${linked}. Put the real folder or file in its place (remove the link, then move or copy what it points to here), then update again. Nothing was written.`);
  }
  // One write per file: the journal stages each file once (a second would collide with the first).
  const files = new Set<string>();
  for (const write of writes) {
    if (files.has(write.file)) throw new Error(`The update planned two versions of ${path.relative(ws.root, write.file)}; nothing was written. Please report this.`);
    files.add(write.file);
    // Nor one too big to read back (spec 8.1): it would vanish from the workspace.
    const tooLarge = yamlTooLarge(path.relative(ws.root, write.file).split(path.sep).join('/'), write.text);
    if (tooLarge) throw new ImportError(`Not updated: ${tooLarge} Nothing was written.`);
  }
  const upToDate = added.length === 0 && changed.length === 0 && removed.length === 0 && !folderPlan.change && env.keys.length === 0 && env.updated.length === 0 && !folderPlan.documentChanged && !folderPlan.sourceChanged;
  return {
    folder: folder.path,
    folderName: folder.name,
    from: input.source.label,
    warnings,
    added,
    changed,
    removed,
    ...(folderPlan.change ? { folderChange: folderPlan.change } : {}),
    newVariables: env.keys,
    carriedVariables: env.carried,
    updatedVariables: env.updated,
    environment: env.name,
    createsEnvironment: env.creates,
    documentChanged: folderPlan.documentChanged,
    ...(folderPlan.source !== undefined ? { source: folderPlan.source } : {}),
    upToDate,
    notes: newNotes(next.notes, old?.notes),
    writes,
    deletes,
  };
}

/**
 * The path variables of one operation, old and new, position by position (the operation matched
 * with only its parameter names changed): a different name is a rename. A name given two meanings
 * (renamed differently by two operations) is left out: nothing says which value it should take.
 */
function noteRenamedVariables(oldOp: GeneratedOperation, op: GeneratedOperation, renamed: Map<string, string>, usedIn: Map<string, string[]>): void {
  if (oldOp.variables.length !== op.variables.length) return;
  op.variables.forEach((variable, index) => {
    const before = String(oldOp.variables[index]!.key);
    const now = String(variable.key);
    if (before === now) return;
    const known = renamed.get(now);
    renamed.set(now, known === undefined || known === before ? before : '');
    const operations = usedIn.get(now) ?? [];
    if (!operations.includes(op.operation)) operations.push(op.operation);
    usedIn.set(now, operations);
  });
}

/**
 * The imported folder: by path under `requests/`, else by a unique display name. A tag subfolder
 * or a request of an imported folder names that folder in the error: it is the one to update.
 */
export function locateFolder(ws: Workspace, given: string): FolderNode {
  const cleaned = given.replace(/\\/g, '/').replace(/^\.?\/?(requests\/)?/, '').replace(/\/+$/, '');
  const byPath = cleaned ? findFolder(ws.tree, cleaned) : undefined;
  if (byPath) {
    if (!byPath.settings.openapi) insideImported(ws, given, byPath.path);
    return byPath;
  }
  const byName: FolderNode[] = [];
  const named: FolderNode[] = [];
  const stack = [ws.tree];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const child of current.children) {
      if (child.type !== 'folder') continue;
      if (child.name === given) (child.settings.openapi ? byName : named).push(child);
      stack.push(child);
    }
  }
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) throw new ImportError(`Several folders are named "${given}"; give the folder's path under requests/ instead (${byName.map((f) => f.path).join(', ')}).`);
  if (named.length === 1) insideImported(ws, given, named[0]!.path);
  // A request file (with or without .yaml) of an imported folder.
  const parent = cleaned.includes('/') ? findFolder(ws.tree, cleaned.slice(0, cleaned.lastIndexOf('/'))) : undefined;
  const fileName = cleaned.slice(cleaned.lastIndexOf('/') + 1).replace(/\.yaml$/i, '').toLowerCase();
  const request = parent?.children.find((c) => c.type === 'request' && stripYaml(path.posix.basename(c.path)).toLowerCase() === fileName);
  if (parent && request) insideImported(ws, given, parent.path);
  // The reader skips a linked folder (with a warning): "no folder" would send the user looking for a typo.
  const parts = cleaned.split('/').filter(Boolean);
  for (let length = 1; length <= parts.length; length++) {
    const linked = `${REQUESTS_DIR}/${parts.slice(0, length).join('/')}`;
    if (isSymbolicLink(path.join(ws.root, linked))) {
      throw new ImportError(`${linked} is a symbolic link, and Ferry never follows links, so "${given}" is not read as a folder and cannot be updated. Put the real folder in its place (remove the link, then move or copy the folder it points to here), then update again. Nothing was written.`);
    }
  }
  throw new ImportError(`There is no folder "${given}" under requests/. Give the path of a folder imported from an OpenAPI document.`);
}

/** Throws "update the imported folder instead" when `folderPath` is inside (or is) an imported folder. */
function insideImported(ws: Workspace, given: string, folderPath: string): void {
  const parts = folderPath.split('/');
  for (let length = parts.length; length > 0; length--) {
    const ancestor = findFolder(ws.tree, parts.slice(0, length).join('/'));
    if (ancestor?.settings.openapi) {
      throw new ImportError(`"${given}" is inside "${ancestor.path}", the folder imported from an OpenAPI document: update "${ancestor.path}" instead (the whole folder is updated at once).`);
    }
  }
}

async function planChange(
  root: string,
  match: { path: string; request: RequestFile },
  next: RequestFile,
  old: RequestFile | undefined | null,
  writes: PlannedWrite[],
  imported?: (field: UpdatableField, value: unknown) => boolean,
  /** Saved values to compare as these (the same request written another way); what is written stays the saved value. */
  comparedAs?: Partial<RequestFile>,
): Promise<RequestChange | undefined> {
  const savedRequest = match.request;
  const compared = { ...savedRequest, ...comparedAs };
  // `old` null: the old document is missing altogether (fallback rule). `old` undefined: the old
  // document lacked this operation too, so nothing tells edits apart: the saved request wins and
  // every difference is listed as kept.
  const decision =
    old === undefined
      ? { update: [], kept: UPDATABLE_FIELDS.filter((f) => !deepEqual(compared[f], next[f])) }
      : decide(UPDATABLE_FIELDS, compared as never, next as never, (old ?? undefined) as never, imported);
  const restored = savedRequest.openapi?.removed === true;
  const operationChanged = savedRequest.openapi?.operation !== next.openapi?.operation;
  // A new summary (or operationId) renames the operation in the document; the request keeps its
  // name (spec 4.5: names are never touched) and everything else is updated as usual. The preview
  // says so, so that the new name is not lost silently.
  const renamed = old && old.name !== next.name && savedRequest.name !== next.name ? { documentName: next.name } : {};
  if (decision.update.length === 0 && !restored && !operationChanged) {
    return decision.kept.length > 0 || renamed.documentName !== undefined
      ? { operation: next.openapi?.operation ?? '', name: savedRequest.name, path: match.path, update: [], kept: decision.kept, restored, ...renamed }
      : undefined;
  }
  const value: Record<string, unknown> = { ...savedRequest };
  for (const field of decision.update) value[field] = next[field];
  const openapi: Record<string, unknown> = { ...savedRequest.openapi, operation: next.openapi?.operation };
  delete openapi.removed;
  value.openapi = openapi;
  await writeEdited(root, match.path, value as RequestFile, writes);
  const update: string[] = [...decision.update];
  if (operationChanged) update.push('operation');
  return { operation: next.openapi?.operation ?? '', name: savedRequest.name, path: match.path, update, kept: decision.kept, restored, ...renamed };
}

async function writeEdited(root: string, requestPath: string, value: RequestFile, writes: PlannedWrite[]): Promise<void> {
  const file = path.join(root, REQUESTS_DIR, requestPath);
  const previous = await readTextFile(file);
  const text = resourceText('request', value, previous);
  if (text !== previous) writes.push({ file, text });
}

/** File names taken in each folder, including files this plan will create. */
class NameBook {
  private readonly taken = new Map<string, string[]>();

  async names(dir: string): Promise<string[]> {
    let list = this.taken.get(dir);
    if (!list) {
      list = [];
      for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
        // An empty folder (a killed update's, its journal deleted) is nobody's: its name is free.
        if (entry.isDirectory() && (await isUnusedFolder(path.join(dir, entry.name)))) continue;
        list.push(stripYaml(entry.name));
      }
      this.taken.set(dir, list);
    }
    return list;
  }

  async claim(dir: string, displayName: string, fallback?: string): Promise<string> {
    const list = await this.names(dir);
    const name = uniqueFileName(displayName, list, fallback);
    list.push(name);
    return name;
  }
}

/** Puts new requests into the imported folder or their tag subfolder (created when needed). */
class Placer {
  private readonly subfolders = new Map<string, { dir: string; relative: string; seq: number }>();
  private rootSeq: number;

  constructor(private readonly ws: Workspace, private readonly folder: FolderNode, private readonly names: NameBook, private readonly writes: PlannedWrite[]) {
    this.rootSeq = maxSeq(folder) + 1;
  }

  async add(op: GeneratedOperation): Promise<RequestRef> {
    const target = op.tag !== undefined ? await this.tagFolder(op.tag) : { dir: path.join(this.ws.root, REQUESTS_DIR, this.folder.path), relative: this.folder.path, seq: this.rootSeq++ };
    const seq = op.tag !== undefined ? this.subfolders.get(op.tag.toLowerCase())!.seq++ : target.seq;
    const value = normalizeRequest({ ...op.request, seq });
    // The import's rule (commit.ts): a name that makes no file name gives one from method and path.
    const fileName = `${await this.names.claim(target.dir, value.name, wordsFileName(op.operation))}.yaml`;
    this.writes.push({ file: path.join(target.dir, fileName), text: resourceText('request', value) });
    return { operation: op.operation, name: value.name, path: target.relative ? `${target.relative}/${fileName}` : fileName };
  }

  private async tagFolder(tag: string): Promise<{ dir: string; relative: string; seq: number }> {
    const known = this.subfolders.get(tag.toLowerCase());
    if (known) return known;
    const named = this.folder.children.find((c): c is FolderNode => c.type === 'folder' && c.name.toLowerCase() === tag.toLowerCase());
    // An empty one is nobody's (unused-folder.ts): made again as new, it gets its `_folder.yaml`.
    const existing = named && !(await isUnusedFolder(path.join(this.ws.root, REQUESTS_DIR, named.path))) ? named : undefined;
    let entry: { dir: string; relative: string; seq: number };
    if (existing) {
      entry = { dir: path.join(this.ws.root, REQUESTS_DIR, existing.path), relative: existing.path, seq: maxSeq(existing) + 1 };
    } else {
      const parentDir = path.join(this.ws.root, REQUESTS_DIR, this.folder.path);
      const dirName = await this.names.claim(parentDir, tag);
      const dir = path.join(parentDir, dirName);
      const folderSeq = this.rootSeq++;
      if (dirName !== tag || folderSeq !== 0) {
        const settings = normalizeFolder({ name: tag, seq: folderSeq } as never);
        this.writes.push({ file: path.join(dir, FOLDER_FILE), text: resourceText('folder', settings) });
      }
      entry = { dir, relative: this.folder.path ? `${this.folder.path}/${dirName}` : dirName, seq: 0 };
    }
    this.subfolders.set(tag.toLowerCase(), entry);
    return entry;
  }
}

function maxSeq(folder: FolderNode): number {
  let max = -1;
  for (const child of folder.children) {
    const seq = child.type === 'folder' ? child.settings.seq : child.type === 'request' ? child.request.seq : -1;
    if (seq > max) max = seq;
  }
  return max;
}

/** The imported folder's own settings: auth and docs (three-way), the kept document and its source. */
async function planFolder(
  ws: Workspace,
  folder: FolderNode,
  next: GeneratedCollection,
  old: GeneratedCollection | undefined,
  input: UpdateInput,
  format: 'json' | 'yaml',
  names: NameBook,
  writes: PlannedWrite[],
  deletes: string[],
): Promise<{ change?: { update: string[]; kept: string[] }; documentChanged: boolean; sourceChanged: boolean; source?: string }> {
  const settings = folder.settings;
  const link = settings.openapi!;
  const fields = ['auth', 'docs'] as const;
  const nextValues = normalizeFolder({ ...(next.folderAuth ? { auth: next.folderAuth } : {}), ...(next.description ? { docs: next.description } : {}) });
  const oldValues = old ? normalizeFolder({ ...(old.folderAuth ? { auth: old.folderAuth } : {}), ...(old.description ? { docs: old.description } : {}) }) : undefined;
  const decision = decide(fields, settings as never, nextValues as never, oldValues as never);

  // The kept document: same file when the format is the same, else a new file replacing it.
  const specsDir = path.join(ws.root, SPECS_DIR);
  const current = keptSpecPath(link.spec);
  let specPath = current;
  if (!current || !current.toLowerCase().endsWith(`.${format}`)) {
    // A new file: the old name with the new extension unless that is taken, else a name of its own.
    const wanted = current ? path.posix.basename(current).replace(/\.(json|ya?ml)$/i, '') : folder.name;
    const free = current !== undefined && !(await fs.lstat(path.join(specsDir, `${wanted}.${format}`)).then(() => true, () => false));
    const base = free ? wanted : await names.claim(specsDir, wanted);
    specPath = `${SPECS_DIR}/${base}.${format}`;
  }
  let previousText: string | undefined;
  try {
    previousText = await readTextFile(path.join(ws.root, specPath!));
  } catch {
    previousText = undefined;
  }
  const documentChanged = previousText !== input.text;
  if (documentChanged) writes.push({ file: path.join(ws.root, specPath!), text: input.text });
  if (current && current !== specPath) deletes.push(path.join(ws.root, current));

  // Ferry's own copy under specs/ is what an update replaces, not where the document comes from:
  // recorded, the next `ferry update` would read the copy and never see a new version.
  const given = recordedSource(input.source, ws.root);
  const source = given !== undefined && given.startsWith(`${SPECS_DIR}/`) ? undefined : given;
  const sourceChanged = source !== undefined && source !== link.source;
  const value: Record<string, unknown> = { ...settings };
  for (const field of decision.update) value[field] = nextValues[field];
  value.openapi = { ...link, spec: specPath, ...(sourceChanged ? { source } : {}) };
  if (decision.update.length > 0 || sourceChanged || specPath !== link.spec) {
    const file = path.join(ws.root, REQUESTS_DIR, folder.path, FOLDER_FILE);
    let previous: string | undefined;
    try {
      previous = await readTextFile(file);
    } catch {
      previous = undefined;
    }
    const parsedValue = parseResource('folder', value);
    if (!parsedValue.ok) throw new Error(`The folder settings do not fit the format: ${parsedValue.problems[0]?.message}`);
    writes.push({ file, text: resourceText('folder', parsedValue.value, previous) });
  }
  const change = decision.update.length > 0 || decision.kept.length > 0 ? { update: [...decision.update], kept: [...decision.kept] } : undefined;
  return { ...(change ? { change } : {}), documentChanged, sourceChanged, ...(sourceChanged ? { source } : {}) };
}

type WorkspaceEnvironment = Workspace['environments'][number];

/**
 * The environment named like the folder (spec 4.5). Imports of the same API name their folders and
 * environments alike, so several may be; the folder's own is then the one that still holds the most
 * of the previous document's values (its import wrote them), then the one whose file name is the
 * folder's. `among`: how many were named like the folder.
 */
export function folderEnvironment(ws: Workspace, folder: FolderNode, old: GeneratedCollection | undefined): { env: WorkspaceEnvironment | undefined; among: number } {
  const exact = ws.environments.filter((e) => e.value.name === folder.name);
  const named = exact.length > 0 ? exact : ws.environments.filter((e) => e.value.name.toLowerCase() === folder.name.toLowerCase());
  if (named.length <= 1) return { env: named[0], among: named.length };
  const oldValues = new Map((old?.variables ?? []).map((v) => [String(v.key), v.value ?? '']));
  const folderId = path.posix.basename(folder.path);
  const score = (e: WorkspaceEnvironment): number => {
    const held = e.value.variables.filter((v) => oldValues.get(v.key) === v.value).length;
    return held * 2 + (path.basename(e.file, '.yaml') === folderId ? 1 : 0);
  };
  // Highest score; on a tie the first in the listing, as before.
  const env = named.reduce((best, e) => (score(e) > score(best) ? e : best));
  return { env, among: named.length };
}

/**
 * New variables (new path parameters, new auth placeholders) for the environment named like the
 * folder (folderEnvironment); and, by the three-way rule, values the new document changed (a moved server's
 * `baseUrl`, a new path parameter example) where the environment still has the old document's value.
 */
async function planEnvironment(
  ws: Workspace,
  folder: FolderNode,
  next: GeneratedCollection,
  old: GeneratedCollection | undefined,
  names: NameBook,
  writes: PlannedWrite[],
  earlier?: () => GeneratedCollection,
  renamed: ReadonlyMap<string, string> = new Map(),
  renamedIn: ReadonlyMap<string, readonly string[]> = new Map(),
): Promise<{ name: string; file: string; among: number; keys: string[]; carried: Record<string, string>; updated: string[]; creates: boolean; warnings: string[] }> {
  const folderName = folder.name;
  const { env, among } = folderEnvironment(ws, folder, old);
  const oldValues = new Map((old?.variables ?? []).map((v) => [String(v.key), v.value ?? '']));
  // A path parameter earlier imports left empty (no example) holds no edit either.
  let earlierValues: Map<string, unknown> | undefined;
  const earlierValue = (key: string) => (earlierValues ??= new Map((earlier?.().variables ?? []).map((v) => [String(v.key), v.value ?? '']))).get(key);
  if (env) {
    const have = new Set(env.value.variables.map((v) => v.key));
    // Variables the old document had and the environment lacks were removed by the user: not re-added.
    // A renamed path parameter's new variable takes the value you gave the old one (not a secret,
    // and not the value the old document gave or an earlier import left empty).
    const carried: Record<string, string> = {};
    const fresh = next.variables
      .filter((v) => !have.has(String(v.key)) && !oldValues.has(String(v.key)))
      .map((v) => {
        const from = renamed.get(String(v.key));
        const previous = from ? env.value.variables.find((e) => e.key === from) : undefined;
        if (!from || !previous || previous.secret || previous.value === undefined) return v;
        const was = oldValues.get(from);
        if (was === undefined || previous.value === was || (previous.value === '' && earlierValue(from) === '')) return v;
        carried[String(v.key)] = from;
        return { ...v, value: previous.value };
      });
    // Renamed to a variable the environment already has (other requests use it: /users/{username}
    // → /users/{id} gives userId, which /users/{userId}/repos uses): that one's value goes out
    // now, not the one you gave the old variable. It cannot take yours; the preview says so.
    const warnings: string[] = [];
    for (const [now, from] of renamed) {
      if (!from || !have.has(now)) continue;
      const mine = env.value.variables.find((e) => e.key === from);
      const theirs = env.value.variables.find((e) => e.key === now);
      if (!mine || mine.value === undefined || mine.value === theirs?.value) continue;
      if (mine.value === oldValues.get(from) || (mine.value === '' && earlierValue(from) === '')) continue;
      warnings.push(`The document renamed the path parameter of {{${from}}} to one whose variable, {{${now}}}, "${env.value.name}" already has with another value: the requests of those operations (${(renamedIn.get(now) ?? []).join(', ')}) now send that value, not your value of ${from}. Check {{${now}}} in "${env.value.name}" before sending them.`);
    }
    const nextValues = new Map(next.variables.map((v) => [String(v.key), v.value ?? '']));
    const updated: string[] = [];
    const variables = env.value.variables.map((v) => {
      const was = oldValues.get(v.key);
      const now = nextValues.get(v.key);
      if (v.secret || was === undefined || now === undefined || v.value === now) return v;
      if (v.value !== was && !(v.value === '' && earlierValue(v.key) === '')) return v;
      updated.push(v.key);
      return { ...v, value: now };
    });
    const found = { name: env.value.name, file: env.file, among };
    if (fresh.length === 0 && updated.length === 0) return { ...found, keys: [], carried, updated, creates: false, warnings };
    const value = parseResource('environment', { ...env.value, variables: [...variables, ...fresh] });
    if (!value.ok) throw new Error(`The environment "${env.value.name}" does not fit the format: ${value.problems[0]?.message}`);
    const file = path.join(ws.root, env.file);
    writes.push({ file, text: resourceText('environment', value.value, await readTextFile(file)) });
    return { ...found, keys: fresh.map((v) => String(v.key)), carried, updated, creates: false, warnings };
  }
  if (next.variables.length === 0) return { name: folderName, file: '', among, keys: [], carried: {}, updated: [], creates: false, warnings: [] };
  // An environment file that does not parse may be the folder's own (a hand edit gone wrong):
  // creating another beside it would leave two of that name once it is fixed.
  // Only files that did not read: one that reads with a warning (a number where text goes) is an
  // environment of its own name, and the lookup above saw it.
  const unreadable = [...unreadEntryFiles(ws, 'environment').values()];
  if (unreadable.length > 0) {
    throw new ImportError(`The environment of "${folderName}" may be one that cannot be read, and the update would add a second "${folderName}" beside it:\n${unreadable.slice(0, 10).map((w) => `  ${formatWarning(w)}`).join('\n')}${unreadable.length > 10 ? `\n  and ${unreadable.length - 10} more` : ''}\nFix or remove ${unreadable.length === 1 ? 'it' : 'them'}, then update again. Nothing was written.`);
  }
  const value = parseResource('environment', { name: folderName, variables: next.variables });
  if (!value.ok) throw new Error(`The environment "${folderName}" does not fit the format: ${value.problems[0]?.message}`);
  const dir = path.join(ws.root, ENVIRONMENTS_DIR);
  const id = await names.claim(dir, folderName);
  writes.push({ file: path.join(dir, `${id}.yaml`), text: resourceText('environment', value.value) });
  return { name: folderName, file: path.relative(ws.root, path.join(dir, `${id}.yaml`)), among, keys: next.variables.map((v) => String(v.key)), carried: {}, updated: [], creates: true, warnings: [] };
}
