/**
 * Environments, servers and load tests: one flat folder each, the file name (without `.yaml`)
 * is the id. A new one takes its file name from its display name; renaming one renames its file
 * (2.1.4), and the caller moves what this computer keeps under the old id.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { EnvironmentFile, LoadTestFile, ServerFile } from '../model/index.js';
import { checkNoSymlinks } from './files.js';
import { checkNewDisplayName, uniqueFileName } from './names.js';
import { ENVIRONMENTS_DIR, LOADTESTS_DIR, SERVERS_DIR, WorkspaceError } from './open.js';
import { NameError, requireSavedName } from './requests.js';
import { readResource } from './read-resource.js';
import { isSubfolderWarning } from './unread-entries.js';
import { saveResource, type SaveOptions } from './save.js';
import { isYamlFile, notAFolderRefusal, stripYaml } from './tree.js';
import { formatWarning } from './warning-text.js';
import type { Warning, Workspace } from './types.js';

const FOLDERS = { environment: ENVIRONMENTS_DIR, server: SERVERS_DIR, loadtest: LOADTESTS_DIR } as const;
type EntryKind = keyof typeof FOLDERS;
type EntryValue<K extends EntryKind> = K extends 'environment' ? EnvironmentFile : K extends 'server' ? ServerFile : LoadTestFile;

async function entryDir(root: string, kind: EntryKind): Promise<string> {
  const problem = await checkNoSymlinks(root, FOLDERS[kind]);
  if (problem) throw new Error(`Cannot use ${FOLDERS[kind]}/: ${problem}.`);
  return path.join(root, FOLDERS[kind]);
}

/** An id is a file name in its folder: never a path, never a dot-name. */
function checkId(kind: EntryKind, id: string): void {
  if (id === '' || /[/\\]/.test(id) || id.startsWith('.')) {
    throw new Error(`"${id}" is not an id under ${FOLDERS[kind]}/: give the file name without .yaml.`);
  }
}

async function takenIds(dir: string, except?: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter((n) => isYamlFile(n) && n !== except).map(stripYaml);
  } catch {
    return [];
  }
}

function requireName(name: unknown): void {
  const problem = checkNewDisplayName(name);
  if (problem) throw new NameError(problem);
}

const LISTS = { environment: 'environments', server: 'servers', loadtest: 'loadtests' } as const;
const WORDS = {
  environment: ['Environments', 'environment'],
  server: ['Servers', 'server'],
  loadtest: ['Load tests', 'load test'],
} as const;

/**
 * What a refusal of an unknown id says is there (spec 2.1.9: a file that does not read is shown
 * too): the ids that can be used, then those of files that cannot be read, or that there are none.
 */
export function entriesHere(workspace: Workspace, kind: EntryKind): string {
  const known = workspace[LISTS[kind]].map((e) => e.id);
  const folder = `${FOLDERS[kind]}/`;
  const unreadable = [...unreadEntryFiles(workspace, kind).keys()];
  const [plural, singular] = WORDS[kind];
  const unlisted = unlistedFolderWarning(workspace, kind);
  const here = known.length ? `${plural} here: ${known.join(', ')}.` : unreadable.length ? `No ${singular} here can be used.` : unlisted ? formatWarning(unlisted) : `This workspace has no ${plural.toLowerCase()} (${folder}*.yaml).`;
  return `${here}${unreadable.length ? ` Files that cannot be read: ${unreadable.join(', ')} (ferry ls says why).` : ''}${subfoldersNotRead(workspace, kind)}`;
}

/**
 * The warning of the kind's folder itself when it was not listed (a link, a pipe, a file there):
 * nothing in it was read, which "this workspace has none" would hide.
 */
export function unlistedFolderWarning(workspace: Workspace, kind: EntryKind): Warning | undefined {
  return workspace.warnings.find((w) => w.file === FOLDERS[kind]);
}

const ITEM_FILE = /\.ya?ml$/i;

/**
 * The kind's files that did not read, by id, each with its first warning (the one that says why).
 * A file that reads with a warning (a number written where text goes) is not one of them: it is
 * in the workspace's list and works. `everyEntry`: also what sits in the folder without being such
 * a file (a subfolder, a Postman export), by its name, for a list that shows them (the app's).
 */
export function unreadEntryFiles(workspace: Workspace, kind: EntryKind, everyEntry = false): Map<string, Warning> {
  const known = new Set(workspace[LISTS[kind]].map((e) => e.id));
  const folder = `${FOLDERS[kind]}/`;
  const unread = new Map<string, Warning>();
  for (const warning of workspace.warnings) {
    const name = warning.file.slice(folder.length);
    if (!warning.file.startsWith(folder) || name.includes('/')) continue;
    if (!ITEM_FILE.test(name) && !everyEntry) continue;
    const id = name.replace(ITEM_FILE, '');
    if (!known.has(id) && !unread.has(id)) unread.set(id, warning);
  }
  return unread;
}

/**
 * ` Not read, being in a subfolder: servers/mocks/ (…)`, or '' when the kind's folder has none:
 * items grouped into a subfolder by hand (`environments/prod/api.yaml`) are likely the ones asked for.
 */
export function subfoldersNotRead(workspace: Workspace, kind: EntryKind): string {
  const folder = `${FOLDERS[kind]}/`;
  const subfolders = workspace.warnings.filter((w) => w.file.startsWith(folder) && isSubfolderWarning(w)).map((w) => `${w.file}/`);
  return subfolders.length ? ` Not read, being in a subfolder: ${subfolders.join(', ')} (move ${subfolders.length === 1 ? 'its' : 'their'} .yaml files up into ${folder}).` : '';
}

/** Saves a new environment, server or load test; returns its id. The folder is created on first save. */
export async function createEntry<K extends EntryKind>(root: string, kind: K, value: EntryValue<K>): Promise<string> {
  requireName(value.name);
  const dir = await entryDir(root, kind);
  // A pipe or file where the folder goes: said as what it is (never opened), not as mkdir's EEXIST.
  const notFolder = notAFolderRefusal(root, FOLDERS[kind], 'try again');
  if (notFolder) throw new WorkspaceError(`Cannot create ${WORDS[kind][1]} "${value.name}": ${notFolder}`);
  await fs.mkdir(dir, { recursive: true });
  const id = uniqueFileName(value.name, await takenIds(dir));
  await saveResource(path.join(dir, `${id}.yaml`), kind, value as never);
  return id;
}

/**
 * Saves an existing entry in place (comments and unknown fields kept). One whose name changed
 * gets a file name to match (2.1.4); returns the (possibly new) id. One whose name did not change
 * keeps its file even when the two differ (`local.yaml` named "Local"): its id is what this
 * computer keeps its data under (secrets, the active environment, a server's known
 * configurations, a load test's runs).
 */
export async function saveEntry<K extends EntryKind>(root: string, kind: K, id: string, value: EntryValue<K>, options: SaveOptions = {}): Promise<string> {
  checkId(kind, id);
  const dir = await entryDir(root, kind);
  const file = path.join(dir, `${id}.yaml`);
  const problem = await checkNoSymlinks(root, path.relative(root, file));
  if (problem) throw new Error(`Cannot save ${FOLDERS[kind]}/${id}.yaml: ${problem}.`);
  await requireSavedName(value.name, kind, file, path.relative(root, file));
  const before = await readResource(kind, file, path.relative(root, file));
  await saveResource(file, kind, value as never, options);
  if (before.ok && before.value.name === value.name) return id;
  const wanted = uniqueFileName(value.name, await takenIds(dir, `${id}.yaml`), id);
  if (wanted === id) return id;
  await fs.rename(file, path.join(dir, `${wanted}.yaml`));
  return wanted;
}

export async function deleteEntry(root: string, kind: EntryKind, id: string): Promise<void> {
  checkId(kind, id);
  const relative = path.join(FOLDERS[kind], `${id}.yaml`);
  const problem = await checkNoSymlinks(root, relative);
  if (problem) throw new Error(`Cannot delete ${relative}: ${problem}.`);
  await fs.rm(path.join(root, relative));
}
