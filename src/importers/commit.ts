/**
 * Writes an ImportResult into a workspace, all or nothing (spec 4.1): every file is validated,
 * then built aside in dot-named staging folders (ignored by the workspace reader, on the same
 * file system), then moved into place by rename; the workspace file and the secret store are
 * changed only after that. On any error the staging folders are removed, anything already moved
 * is taken back out, the workspace file gets its old text and the secret store its old values,
 * so no half import is ever visible or left in this computer's data folder.
 *
 * The whole import holds the workspace's write lock (one writer at a time), and keeps a journal
 * (import-journal.ts) so that an import killed part-way is undone by the next ferry command: the
 * staging folders never stay behind. A rollback removes only what this import created.
 */
import { randomBytes } from 'node:crypto';
import fsSync, { promises as fs } from 'node:fs';
import path from 'node:path';
import { formatFieldPath, parseResource, toFileData, variableSchema, WORKSPACE_FILE, type ResourceKind, type ResourceValue, type Variable } from '../model/index.js';
import { SecretStore, withWorkspaceLock, workspaceDataDir, type WorkspaceLocker } from '../appdata/index.js';
import { ImportJournal, recoverInterruptedImport } from './import-journal.js';
import {
  checkDisplayName, checkNoSymlinks, editYaml, ENVIRONMENTS_DIR, FOLDER_FILE, MAX_TREE_DEPTH, MAX_YAML_BYTES, parseYamlData, readTextFile,
  notAFolderRefusal, REQUESTS_DIR, resourceText, SERVERS_DIR, SPECS_DIR, stripYaml, uniqueFileName, writeFileAtomic, yamlTooLarge,
} from '../workspace/index.js';
import { readFileNoFollow } from '../support/read-no-follow.js';
import { UNUSABLE_KEY_RULE, unusableKeyProblem } from '../support/placeholder-syntax.js';
import { requestFileName, SiblingNames } from './sibling-names.js';
import { notesAtWrittenPaths } from './note-paths.js';
import { clearUnusedFolder, isUnusedFolder } from './unused-folder.js';
import { countNodes, ImportError, type ImportedFolderNode, type ImportedNode, type ImportResult, type ImportSummary } from './types.js';

export interface CommitTarget {
  /** Absolute workspace folder. */
  root: string;
  /** The workspace id (keys this computer's secret store). */
  id: string;
}

export interface CommitOptions {
  /** Target folder path relative to `requests/` ('' or undefined = the collection root). It must exist. */
  into?: string;
  /** Told how many of the request tree's files are written so far (for a progress display). */
  onProgress?: (written: number, total: number) => void;
  /** How the workspace's write lock is taken; default `withWorkspaceLock` (the app's says the wait in its page). */
  lock?: WorkspaceLocker;
  /**
   * Ctrl-C: aborted before the files are moved into place, the import stops at its next turn of
   * the event loop, is undone as a failed one is, and throws the signal's reason; aborted later,
   * it finishes (its point of no return is the first move).
   */
  signal?: AbortSignal;
}

interface Move {
  from: string;
  to: string;
}

export async function commitImport(target: CommitTarget, result: ImportResult, options: CommitOptions = {}): Promise<ImportSummary> {
  const root = path.resolve(target.root);
  return (options.lock ?? withWorkspaceLock)(root, 'an import', async () => {
    // An import killed before this one may have left its staging folders: undo it first.
    await recoverInterruptedImport(target.id, root);
    const journal = new ImportJournal(target.id, root);
    try {
      return await commitLocked(target, root, result, options, journal);
    } finally {
      await journal.end();
    }
  });
}

async function commitLocked(target: CommitTarget, root: string, result: ImportResult, options: CommitOptions, journal: ImportJournal): Promise<ImportSummary> {
  const written = options.into ?? '';
  // A folder under requests/, given as a path inside it: not absolute, no `..` (it would lead out).
  if (/^([\\/]|[A-Za-z]:)/.test(written) || written.split(/[\\/]/).includes('..')) {
    throw new ImportError(`Cannot import into "${written}": give a folder under requests/ as a path inside it (such as APIs/Billing), not an absolute path or one with "..".`);
  }
  const into = written.split(/[\\/]/).filter(Boolean);
  const targetDir = path.join(root, REQUESTS_DIR, ...into);
  const problem = await checkNoSymlinks(root, path.relative(root, targetDir));
  if (problem) throw new ImportError(`Cannot import into "${into.join('/')}": ${problem}.`);
  if (into.some((part) => part.startsWith('.'))) throw new ImportError(`Cannot import into "${into.join('/')}": folders starting with "." are ignored by Ferry.`);
  // specs/ and environments/ are written too: a link there (a hostile repository's
  // `specs -> ~/.config/app`) would put files outside the workspace.
  const servers = result.servers ?? [];
  for (const [needed, dir] of [[result.specs.length > 0, SPECS_DIR], [result.environments.length > 0, ENVIRONMENTS_DIR], [servers.length > 0, SERVERS_DIR], [into.length === 0, REQUESTS_DIR]] as const) {
    if (!needed) continue;
    const linked = await checkNoSymlinks(root, dir);
    if (linked) throw new ImportError(`Cannot import: ${linked}. Replace ${dir} with a real folder inside the workspace, then import again.`);
    // A pipe or file there: said as what it is (never opened), not as a temporary folder that could not be made.
    const notFolder = notAFolderRefusal(root, dir, 'import again');
    if (notFolder) throw new ImportError(`Cannot import: ${notFolder}`);
  }
  if (!(await isDirectory(targetDir))) {
    throw new ImportError(into.length ? `The folder "${into.join('/')}" does not exist under requests/. Create it first or leave out --into.` : `${root} has no requests/ folder; open it as a workspace first.`);
  }
  const depthProblem = maxDepth(result.items) + into.length;
  if (depthProblem > MAX_TREE_DEPTH) {
    throw new ImportError(`The import nests folders ${depthProblem} levels deep below requests/; Ferry reads at most ${MAX_TREE_DEPTH}. Import into a shallower folder or flatten the source.`);
  }

  const notes = [...result.notes];
  const stagings: string[] = [];
  const moves: Move[] = [];
  const done: Move[] = [];
  /** Folders this import made (`specs/`, `environments/`): removed again if it fails. */
  const created: string[] = [];
  /** Secret slots this import set, with what they held before, to put back if it fails. */
  const secretsWritten: WrittenSecret[] = [];
  /** Empty folders this import moved its own into the place of (`clearUnusedFolder`): made again if it fails. */
  const cleared: string[] = [];
  /** The workspace file's text before this import changed it (set once it did). */
  let workspaceBefore: string | undefined;
  try {
    options.signal?.throwIfAborted();
    // 1. Kept documents first: folders link to their final path.
    const specNames = new Map<unknown, string>();
    if (result.specs.length > 0) {
      const specsDir = path.join(root, SPECS_DIR);
      await makeDir(specsDir, created, journal);
      const staging = await stage(specsDir, stagings, journal);
      const taken = (await listNames(specsDir)).map((n) => n.replace(/\.(json|ya?ml)$/i, ''));
      for (const spec of result.specs) {
        const base = uniqueFileName(requireName(spec.name, 'document'), taken);
        taken.push(base);
        const file = `${base}.${spec.ext}`;
        await fs.writeFile(path.join(staging, file), spec.text);
        moves.push({ from: path.join(staging, file), to: path.join(specsDir, file) });
        for (const folder of spec.linkFolders ?? []) specNames.set(folder, `${SPECS_DIR}/${file}`);
        for (const server of spec.linkServers ?? []) specNames.set(server, `${SPECS_DIR}/${file}`);
      }
    }

    // 2. The request tree, validated and written aside.
    const staging = await stage(targetDir, stagings, journal);
    const pending: PendingTree = { dirsByDepth: [], writes: [] };
    const taken = new SiblingNames(await listNames(targetDir));
    let seq = await nextSeq(targetDir);
    const folderNames: { display: string; written: string }[] = [];
    for (const node of result.items) {
      const name = taken.take(requireName(nodeName(node), 'item'), fileNameFallback(node));
      const entry = node.type === 'request' ? `${name}.yaml` : name;
      if (node.type === 'folder') folderNames.push({ display: node.name, written: name });
      buildNode(node, staging, [REQUESTS_DIR, ...into].join('/'), entry, seq++, 0, specNames, pending);
      moves.push({ from: path.join(staging, entry), to: path.join(targetDir, entry) });
    }
    // Only the importer's notes so far: they name display paths, which may not be where the files went.
    notes.splice(0, notes.length, ...notesAtWrittenPaths(notes, folderNames));
    await writeTree(pending, options.onProgress, options.signal).catch((error: unknown) => {
      throw pathTooLong(error, root) ?? error;
    });

    // 3. Environments.
    const environmentIds: string[] = [];
    if (result.environments.length > 0) {
      const envDir = path.join(root, ENVIRONMENTS_DIR);
      await makeDir(envDir, created, journal);
      const envStaging = await stage(envDir, stagings, journal);
      const envTaken = (await listNames(envDir)).map(stripYaml);
      for (const env of result.environments) {
        const id = uniqueFileName(requireName(env.name, 'environment'), envTaken);
        envTaken.push(id);
        environmentIds.push(id);
        const value = validate('environment', env, `environment "${env.name}"`);
        const keysNote = unusableKeysNote(`${ENVIRONMENTS_DIR}/${id}.yaml`, value.variables, 'pm.environment.get');
        if (keysNote) notes.push(keysNote);
        await fs.writeFile(path.join(envStaging, `${id}.yaml`), sized(resourceText('environment', value), `${ENVIRONMENTS_DIR}/${id}.yaml`));
        moves.push({ from: path.join(envStaging, `${id}.yaml`), to: path.join(envDir, `${id}.yaml`) });
      }
    }

    // 3b. Server files (`--as-server`), linked to their kept document.
    if (servers.length > 0) {
      const serversDir = path.join(root, SERVERS_DIR);
      await makeDir(serversDir, created, journal);
      const serverStaging = await stage(serversDir, stagings, journal);
      const serverTaken = (await listNames(serversDir)).map(stripYaml);
      for (const server of servers) {
        const id = uniqueFileName(requireName(server.id, 'server'), serverTaken);
        serverTaken.push(id);
        const spec = specNames.get(server);
        const data = spec === undefined ? server.server : { ...server.server, http: { ...server.server.http, openapi: { ...server.server.http?.openapi, spec } } };
        const value = validate('server', data, `server "${server.id}"`);
        await fs.writeFile(path.join(serverStaging, `${id}.yaml`), sized(resourceText('server', value), `${SERVERS_DIR}/${id}.yaml`));
        moves.push({ from: path.join(serverStaging, `${id}.yaml`), to: path.join(serversDir, `${id}.yaml`) });
      }
    }

    // 4. Workspace variables: merged into the workspace file's text (comments kept).
    const workspaceFile = path.join(root, WORKSPACE_FILE);
    const source = await readTextFile(workspaceFile);
    // Read as the workspace reader does (plain files without loading `yaml`); only an edit needs `yaml`.
    const parsed = parseYamlData(source);
    if (!parsed.ok) throw new ImportError(`${WORKSPACE_FILE} does not parse (line ${parsed.error.line}); fix it before importing.`);
    const data = (parsed.data ?? {}) as Record<string, unknown>;
    const existing = Array.isArray(data.variables) ? (data.variables as { key?: unknown }[]) : [];
    const merged = mergeVariables(result.variables, existing.map((v) => String(v?.key)));
    const added = merged.added.map((variable) => validate('environment', { name: 'x', variables: [variable] }, `variable "${variable.key}"`).variables[0]!);
    const { kept } = merged;
    if (merged.note) notes.push(merged.note);
    const keysNote = unusableKeysNote(WORKSPACE_FILE, added, 'pm.collectionVariables.get');
    if (keysNote) notes.push(keysNote);
    const newWorkspaceText = added.length > 0 ? sized(editYaml(source, { ...data, variables: [...existing, ...added.map(variableFileData)] }), WORKSPACE_FILE) : undefined;

    // 5. The moves, then the workspace file, then the secrets. Only now does anything become
    // visible, and every step is undone if a later one fails: secret values never outlive a
    // failed import, and the workspace file gets its old text back. Ctrl-C no longer stops it.
    options.signal?.throwIfAborted();
    await journal.moving(moves.map((m) => m.to), newWorkspaceText === undefined ? undefined : source);
    const kill = testKillPoint();
    for (const move of moves) {
      // An empty folder of that name is nobody's (listNames): it gives way, and comes back if the import is undone.
      if (await isUnusedFolder(move.to)) {
        await clearUnusedFolder(move.to);
        cleared.push(move.to);
      }
      await fs.rename(move.from, move.to);
      done.push(move);
      if (done.length === kill?.step) process.kill(process.pid, kill.signal);
    }
    if (newWorkspaceText !== undefined) {
      await writeFileAtomic(workspaceFile, newWorkspaceText);
      workspaceBefore = source;
    }
    const secrets = new SecretStore(workspaceDataDir(target.id, root));
    // One write per scope; what each scope held before is kept to put back on failure.
    const byScope = new Map<string, Map<string, string>>();
    for (const secret of result.secrets) {
      if (secret.scope === 'workspace' && kept.includes(secret.key)) continue;
      const scope = secret.scope === 'workspace' ? 'workspace' : environmentIds[secret.environmentIndex ?? 0];
      if (!scope) continue;
      if (!byScope.has(scope)) byScope.set(scope, new Map());
      byScope.get(scope)!.set(secret.key, secret.value);
    }
    for (const [scope, values] of byScope) {
      const held = await secrets.all(scope);
      for (const name of values.keys()) secretsWritten.push({ store: secrets, scope, key: name, previous: Object.hasOwn(held, name) ? held[name] : undefined });
      await secrets.setMany(scope, values);
    }

    const counts = countNodes(result.items);
    return {
      kind: result.kind,
      name: result.name,
      requests: counts.requests,
      folders: counts.folders,
      environments: result.environments.length,
      variables: added.length,
      ...(servers.length > 0 ? { servers: servers.length } : {}),
      notes,
      written: moves.map((m) => path.relative(root, m.to).split(path.sep).join('/')),
    };
  } catch (error) {
    for (const written of secretsWritten.reverse()) await restoreSecret(written).catch(() => {});
    if (workspaceBefore !== undefined) await writeFileAtomic(path.join(root, WORKSPACE_FILE), workspaceBefore).catch(() => {});
    for (const move of done.reverse()) await fs.rm(move.to, { recursive: true, force: true }).catch(() => {});
    for (const dir of cleared) await fs.mkdir(dir).catch(() => {});
    for (const dir of stagings) await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
    // Only when empty: what another writer put there is not this import's to remove.
    for (const dir of created.reverse()) await fs.rmdir(dir).catch(() => {});
    throw error;
  } finally {
    for (const dir of stagings) await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

interface WrittenSecret {
  store: SecretStore;
  scope: string;
  key: string;
  previous: string | undefined;
}

async function restoreSecret({ store, scope, key, previous }: WrittenSecret): Promise<void> {
  if (previous === undefined) await store.delete(scope, key);
  else await store.set(scope, key, previous);
}

/** Makes a top-level folder (`specs/`) when missing, recorded first so that a killed import's is removed again. */
async function makeDir(dir: string, created: string[], journal: ImportJournal): Promise<void> {
  if (await isDirectory(dir)) return;
  await journal.creating(dir);
  try {
    await fs.mkdir(dir);
    created.push(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * A path the file system cannot hold (ENAMETOOLONG: deeply nested long folder names) as a message:
 * where it would have gone (not the staging folder's name) and what to do; else undefined.
 */
function pathTooLong(error: unknown, root: string): ImportError | undefined {
  const { code, path: at } = error as NodeJS.ErrnoException;
  if (code !== 'ENAMETOOLONG' || typeof at !== 'string') return undefined;
  const parts = path.relative(root, at.replace(/[\\/]\.ferry-import-\d+-[0-9a-f]+(?=[\\/]|$)/, '')).split(path.sep);
  const shown = parts.length > 4 ? [...parts.slice(0, 2), `… ${parts.length - 3} folders …`, parts.at(-1)!].join('/') : parts.join('/');
  return new ImportError(
    `The path ${shown} is longer than this computer's file system allows (${Buffer.byteLength(at)} bytes): the collection nests long folder names deeply. Import into a folder nearer the top, or shorten or flatten its folders, then import again. Nothing was written.`,
  );
}

async function stage(parent: string, stagings: string[], journal: ImportJournal): Promise<string> {
  const dir = path.join(parent, `.ferry-import-${process.pid}-${randomBytes(6).toString('hex')}`);
  await journal.staging(dir);
  await fs.mkdir(dir);
  stagings.push(dir);
  return dir;
}

function nodeName(node: ImportedNode): string {
  return node.type === 'folder' ? node.name : String(node.request.name ?? '');
}

function fileNameFallback(node: ImportedNode): string | undefined {
  return node.type === 'request' ? (node.fileNameFallback ?? requestFileName(node.request)) : undefined;
}

function requireName(name: string, what: string): string {
  const problem = checkDisplayName(name);
  if (problem) throw new ImportError(`An imported ${what} has a name Ferry cannot use: ${problem}`);
  return name;
}

/** `text`, unless as the YAML file `shown` it would be over 50 MB (spec 8.1): then the import is refused. */
function sized(text: string, shown: string): string {
  const tooLarge = yamlTooLarge(shown, text);
  if (tooLarge) throw new ImportError(`Not imported: ${tooLarge} Nothing was imported.`);
  return text;
}

function validate<K extends ResourceKind>(kind: K, data: unknown, where: string): ResourceValue<K> {
  const outcome = parseResource(kind, data);
  if (!outcome.ok) {
    const first = outcome.problems[0]!;
    throw new ImportError(`The import produced an invalid ${where}: ${formatFieldPath(first.path) || 'value'}: ${first.message}. Nothing was imported.`);
  }
  return outcome.value;
}

/** What the request tree needs on disk: folders by depth (parents first), then rendered files. */
interface PendingTree {
  dirsByDepth: string[][];
  writes: { file: string; text: string }[];
}

/**
 * Validates and renders a node into `pending` without touching the disk, so that `writeTree`
 * makes each folder once and then writes the files, one open at a time. `shownDir` is where
 * `parentDir` lands in the workspace (`requests/Billing`), for messages.
 */
function buildNode(node: ImportedNode, parentDir: string, shownDir: string, entry: string, seq: number, depth: number, specNames: Map<unknown, string>, pending: PendingTree): void {
  if (node.type === 'request') {
    const value = validate('request', { ...node.request, seq }, `request "${String(node.request.name)}"`);
    pending.writes.push({ file: path.join(parentDir, entry), text: sized(resourceText('request', value), `${shownDir}/${entry}`) });
    return;
  }
  const dir = path.join(parentDir, entry);
  (pending.dirsByDepth[depth] ??= []).push(dir);
  const settings = folderSettingsText(node, entry, seq, specNames);
  if (settings !== undefined) pending.writes.push({ file: path.join(dir, FOLDER_FILE), text: sized(settings, `${shownDir}/${entry}/${FOLDER_FILE}`) });
  const names = new SiblingNames();
  node.children.forEach((child, index) => {
    const name = names.take(requireName(nodeName(child), child.type), fileNameFallback(child));
    buildNode(child, dir, `${shownDir}/${entry}`, child.type === 'request' ? `${name}.yaml` : name, index, depth + 1, specNames, pending);
  });
}

/** Synchronous work between two turns of the event loop, so that a server importing stays responsive. */
const SLICE_MS = 20;

/**
 * Makes the folders (parents first) and writes the files into the fresh staging folder. Each file
 * is one `open`/`write`/`close` done synchronously: through the thread pool every file cost three
 * round trips and a wake-up of the main thread each (1,100 files: ~12,000 futex calls and about a
 * second of system CPU), and only one file is ever open. The loop yields to the event loop every
 * SLICE_MS so that the app's server keeps answering during a large import, and stops there once
 * `signal` is aborted (Ctrl-C).
 */
async function writeTree(pending: PendingTree, onProgress?: (written: number, total: number) => void, signal?: AbortSignal): Promise<void> {
  let sliceStart = performance.now();
  const yieldNow = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    sliceStart = performance.now();
  };
  for (const dirs of pending.dirsByDepth) {
    for (const dir of dirs ?? []) {
      fsSync.mkdirSync(dir);
      await yieldNow();
    }
  }
  const total = pending.writes.length;
  onProgress?.(0, total);
  for (let i = 0; i < total; i++) {
    const { file, text } = pending.writes[i]!;
    fsSync.writeFileSync(file, text);
    onProgress?.(i + 1, total);
    await yieldNow();
  }
}

/** `_folder.yaml` text, or undefined when it would say nothing the folder name does not. */
function folderSettingsText(node: ImportedFolderNode, entry: string, seq: number, specNames: Map<unknown, string>): string | undefined {
  const settings = { ...(node.settings ?? {}) };
  const spec = specNames.get(node);
  if (spec) settings.openapi = { ...(settings.openapi ?? {}), spec };
  const value = validate('folder', { ...settings, name: node.name, seq }, `folder "${node.name}"`);
  const onlyName = node.name === entry && seq === 0 && Object.keys(settings).length === 0;
  return onlyName ? undefined : resourceText('folder', value);
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    const stat = await fs.lstat(dir);
    return stat.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Sibling names (files without extension, folders) that a new item must not take. An empty folder
 * (unused-folder.ts) is nobody's, so its name is free: the import moves its folder there.
 */
async function listNames(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const names: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.') || (e.isDirectory() && (await isUnusedFolder(path.join(dir, e.name))))) continue;
    names.push(e.isDirectory() ? e.name : stripYaml(e.name));
  }
  return names;
}

/** Imported items go after what the target folder already holds. */
async function nextSeq(dir: string): Promise<number> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  let max = -1;
  for (const e of entries) {
    if (e.name.startsWith('.') || e.isSymbolicLink()) continue;
    const file = e.isDirectory() ? path.join(dir, e.name, FOLDER_FILE) : /\.ya?ml$/i.test(e.name) && e.name !== FOLDER_FILE ? path.join(dir, e.name) : undefined;
    if (!file) continue;
    max = Math.max(max, 0);
    // Never through a link (the entry is checked above; a folder's _folder.yaml here), nor past the YAML limit.
    const text = await readFileNoFollow(file, 'utf8', MAX_YAML_BYTES).catch(() => '');
    const m = /^seq:\s*(-?\d+(?:\.\d+)?)\s*$/m.exec(text);
    if (m) max = Math.max(max, Math.floor(Number(m[1])));
  }
  return max + 1;
}

function maxDepth(nodes: ImportedNode[]): number {
  let deepest = 0;
  const stack: [ImportedNode, number][] = nodes.map((n) => [n, 1]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node.type === 'folder') {
      deepest = Math.max(deepest, depth);
      for (const child of node.children) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Postman takes any variable key, and its scripts read keys no placeholder can name (`" api key"`,
 * `a}}b`); such keys are imported as written, so nothing is lost and those scripts keep working,
 * with one note per file naming them, why, and what to do. Reading the file warns as for any
 * hand-edited one, and the app's variable editor refuses to save them until renamed.
 */
/**
 * An import's workspace variables against the keys the workspace file has (spec 4.2): the new ones
 * are added; one it has already keeps its current value, and the note lists those. The preview
 * counts and notes with this too, so it says what the import will do.
 */
export function mergeVariables<T extends { key: unknown }>(incoming: readonly T[], existingKeys: Iterable<string>): { added: T[]; kept: string[]; note?: string } {
  const keys = new Set(existingKeys);
  const added: T[] = [];
  const kept: string[] = [];
  for (const variable of incoming) {
    if (keys.has(String(variable.key))) { kept.push(String(variable.key)); continue; }
    keys.add(String(variable.key));
    added.push(variable);
  }
  return { added, kept, ...(kept.length > 0 ? { note: `The workspace already has these variables, which keep their current values: ${kept.join(', ')}.` } : {}) };
}

function unusableKeysNote(file: string, variables: ReadonlyArray<{ key: string }>, scriptReader: string): string | undefined {
  const keys = [...new Set(variables.map((v) => v.key).filter((key) => key !== '' && unusableKeyProblem(key) !== undefined))];
  if (keys.length === 0) return undefined;
  const shown = keys.slice(0, 20).map((key) => JSON.stringify(key)).join(', ') + (keys.length > 20 ? ` and ${keys.length - 20} more` : '');
  return `${file}: no placeholder can name ${keys.length === 1 ? 'the variable key' : `these ${keys.length} variable keys`} ${shown}, since ${UNUSABLE_KEY_RULE}. ` +
    `${keys.length === 1 ? 'It was' : 'They were'} imported as written (Postman takes any key), so scripts still read ${keys.length === 1 ? 'it' : 'them'} (${scriptReader}(${JSON.stringify(keys[0])})); ` +
    `to use ${keys.length === 1 ? 'it' : 'them'} as {{placeholders}}, rename ${keys.length === 1 ? 'it' : 'them'} in ${file} and in the scripts (the app's variable editor will not save ${keys.length === 1 ? 'it' : 'them'} as ${keys.length === 1 ? 'it is' : 'they are'}).`;
}

/** Variables as the workspace file writes them: the model's writer leaves defaults out. */
function variableFileData(variable: Variable): unknown {
  return toFileData(variableSchema, variable);
}

/** `FERRY_TEST_KILL_IMPORT=N`: the crash tests kill the import after its N-th move into place (`N:SIGINT`: Ctrl-C it there). */
function testKillPoint(): { step: number; signal: 'SIGKILL' | 'SIGINT' } | undefined {
  const match = /^([1-9]\d*)(:SIGINT)?$/.exec(process.env.FERRY_TEST_KILL_IMPORT ?? '');
  return match ? { step: Number(match[1]), signal: match[2] ? 'SIGINT' : 'SIGKILL' } : undefined;
}
