/**
 * What in environments/, servers/ and loadtests/ is not read as an item, and is said rather than
 * left out without a word (spec 2.1.2: one item per file, directly in the folder; the file name is
 * the id). A subfolder that holds `.yaml` files (`environments/prod/api.yaml`: items grouped by
 * hand) is not read, so ids stay unique and plain, and is said once, with what to do; one with
 * other files only is data (2.1.2 "any other path": `loadtests/data/users.csv`) and is not warned
 * about. A Postman export dropped there (`staging.postman_environment.json`) says to import it.
 * Other files are data, read only where something refers to them. And one of those folders, or
 * requests/, named in other case (`Environments/`) is said: read on macOS and Windows, whose file
 * systems ignore case, it is not on Linux (CI), so a workspace would run differently there.
 */
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import { commandArg } from '../support/terminal-text.js';
import { isYamlFile, isYmlFile, MAX_TREE_DEPTH, specialFileWords } from './tree.js';
import type { Warning } from './types.js';

const ITEM_WORDS: Record<string, string> = { environments: 'environments', servers: 'servers', loadtests: 'load tests' };

/**
 * The warning for the subfolder `name` of `dir` (`environments`, `servers`, `loadtests`) when
 * something in it, at any depth, looks like an item (`.yaml` or `.yml`, a pipe so named too: as
 * directly in the folder, it is said whatever it is); undefined otherwise. Links and dot-names are
 * not entered (2.1.7), as anywhere in the workspace.
 */
export async function subfolderWarning(root: string, dir: string, name: string): Promise<Warning | undefined> {
  const found = await firstItemLike(path.join(root, dir, name), name, 1, { folders: MAX_FOLDERS_LOOKED_AT });
  if (found === undefined) return undefined;
  const label = `${dir}/${name}`;
  const items = ITEM_WORDS[dir] ?? dir;
  return {
    file: label,
    message: `${label}/ ${NOT_READ} Ferry reads ${items} from the .yaml files directly in ${dir}/ (the file name is the id), not from its subfolders, and this one holds ${found}. Move the files up into ${dir}/, or start the folder's name with a dot if it is not meant for Ferry.`,
    code: 'subfolder',
    namesFile: true,
  };
}

const NOT_READ = 'is not read:';

/** Whether `warning` is one of `subfolderWarning`'s (a folder, not a file, was left out). */
export function isSubfolderWarning(warning: Warning): boolean {
  return warning.code === 'subfolder';
}

/**
 * Folders listed at most under one subfolder: every open looks (`ferry run` too), and a tree of
 * data that big (a vendored package, years of test data) is not where items were grouped by hand.
 */
const MAX_FOLDERS_LOOKED_AT = 1000;

/**
 * The first `.yaml`/`.yml` file under `absolute` (its path from the subfolder's parent,
 * `prod/api.yaml`), looking no deeper than the request tree is read and into `budget.folders`
 * folders at most. Listed asynchronously, as the reader around it: the app's server keeps answering.
 */
async function firstItemLike(absolute: string, relative: string, depth: number, budget: { folders: number }): Promise<string | undefined> {
  if (budget.folders-- <= 0) return undefined;
  let entries: Dirent[];
  try {
    entries = await fs.readdir(absolute, { withFileTypes: true });
  } catch {
    // Unlistable (permissions, a name that is not UTF-8): nothing Ferry could read there either.
    return undefined;
  }
  const folders: string[] = [];
  // In name order, so the file named is the same on every computer.
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) {
      folders.push(entry.name);
    } else if (!entry.isSymbolicLink() && (isYamlFile(entry.name) || isYmlFile(entry.name))) {
      // A pipe, socket or device named so counts too (never opened): meant as an item, it is not read either.
      return `${relative}/${entry.name}${entry.isFile() ? '' : ` (${specialFileWords(entry)})`}`;
    }
  }
  if (depth >= MAX_TREE_DEPTH) return undefined;
  for (const folder of folders) {
    const found = await firstItemLike(path.join(absolute, folder), `${relative}/${folder}`, depth + 1, budget);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Postman's export file names (collection, environment, globals), which Ferry imports but never reads in place. */
const POSTMAN_EXPORT = /\.postman_(collection|environment|globals)\.json$/i;

/** For a Postman export in `dir` (`environments`, …): not read, and the command that imports it; undefined for any other name. */
export function postmanExportWarning(dir: string, name: string): Warning | undefined {
  const kind = POSTMAN_EXPORT.exec(name)?.[1]?.toLowerCase();
  if (kind === undefined) return undefined;
  const label = `${dir}/${name}`;
  const what = kind === 'collection' ? 'a Postman collection export' : kind === 'globals' ? 'a Postman globals export' : 'a Postman environment export';
  return { file: label, message: `${label} ${NOT_READ} it is ${what}, and Ferry reads its own .yaml files only. Import it with \`ferry import ${commandArg(label)}\`, then delete the export.`, code: 'postman-export', namesFile: true };
}

/** The folders whose names Ferry reads exactly (2.1.2), lower case. */
const RESOURCE_FOLDERS = ['requests', 'environments', 'servers', 'loadtests'];

/** A warning for each folder of `root` named as one of Ferry's in other case (`Requests/`). */
export async function caseMisnamedFolderWarnings(root: string): Promise<Warning[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch {
    return []; // the workspace file was just read: a folder that cannot be listed now is said by its readers
  }
  const warnings: Warning[] = [];
  for (const entry of entries) {
    const meant = RESOURCE_FOLDERS.find((name) => name === entry.name.toLowerCase());
    if (!meant || meant === entry.name || !entry.isDirectory()) continue;
    warnings.push({ file: entry.name, message: `${entry.name}/ ${MISNAMED} ${meant}/ in lower case: on a file system that tells case apart (Linux, most CI) it is not read, so the workspace works on some computers only. Rename it to ${meant}/ (moving its files into ${meant}/ if that exists too).`, code: 'misnamed-folder', namesFile: true });
  }
  return warnings;
}

const MISNAMED = 'must be named';

/** Whether `warning` is one of `caseMisnamedFolderWarnings`'. */
export function isCaseMisnamedFolderWarning(warning: Warning): boolean {
  return warning.code === 'misnamed-folder';
}
