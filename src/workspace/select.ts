/**
 * Which requests a run sends, in tree order: request paths (`Folder/Name.yaml`, extension
 * optional), folders (everything inside), or the whole workspace when nothing is named.
 */
import path from 'node:path';
import { findFolder, isUnreadableRequestsFolder, isYamlFile } from './tree.js';
import { isCaseMisnamedFolderWarning } from './unread-entries.js';
import type { RequestFile, RequestSummary } from '../model/index.js';
import { editDistance } from '../support/edit-distance.js';
import type { BrokenNode, FolderNode, RequestNode, Warning } from './types.js';

export interface RunItem<R extends RequestSummary = RequestFile> {
  node: RequestNode<R> | BrokenNode;
  /** Folders above it, outermost (the collection root) first. */
  folders: FolderNode<R>[];
}

export class SelectError extends Error {
  override name = 'SelectError';
}

/** Every request and broken file under `folder`, depth first in tree order. */
function* walkAll<R extends RequestSummary>(folder: FolderNode<R>, chain: FolderNode<R>[]): Generator<RunItem<R>> {
  const folders = [...chain, folder];
  for (const child of folder.children) {
    if (child.type === 'folder') yield* walkAll(child, folders);
    else yield { node: child, folders };
  }
}

/**
 * A selection that ends with `/` (`Users/`, `requests/Users\\`) names a folder only: beside a
 * request of the same name (`Users.yaml`), the folder is reached that way.
 */
export function namesFolderOnly(text: string): boolean {
  return /[\\/]$/.test(text.trim());
}

/** `requests/Users/Get.yaml`, `./Users\\Get/` → `Users/Get.yaml`, `Users/Get`: a path as run and export read it. */
export function normalizeSelectPath(text: string): string {
  let p = text.replace(/\\/g, '/').trim();
  p = p.replace(/^\.\//, '').replace(/^requests\//i, '').replace(/\/+$/, '');
  return p;
}

/**
 * A request not written yet (the app's editor: a cURL command opened as new, a file deleted
 * elsewhere) placed at `requestPath`: under the folders of that path, which must exist, so it is
 * sent or exported with their headers and auth as if it were saved there.
 */
export function unsavedItem(root: FolderNode, requestPath: string, request: RequestFile): RunItem {
  const relative = normalizeSelectPath(requestPath);
  const file = /\.yaml$/i.test(relative) ? relative : `${relative}.yaml`;
  const folderPath = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file);
  const folders = [root];
  const parts = folderPath.split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const folder = findFolder(root, parts.slice(0, i).join('/'));
    if (!folder) throw new SelectError(`No folder "${parts.slice(0, i).join('/')}" under requests/ for the unsaved request ${requestPath}; place it in a folder that exists.`);
    folders.push(folder);
  }
  // Found folders give the display path as on disk; the file name is the caller's.
  const placed = [...(folders.length > 1 ? [folders.at(-1)!.path] : []), path.posix.basename(file)].join('/');
  return { node: { type: 'request', path: placed, request }, folders };
}

/**
 * `byName: false`: paths from `requests/` only, no name looked for at any depth (the app's API,
 * which names folders and requests by their paths, never by a name several may have).
 */
export function selectRequests<R extends RequestSummary = RequestFile>(root: FolderNode<R>, paths: readonly string[], options: { byName?: boolean; warnings?: readonly Warning[] } = {}): RunItem<R>[] {
  if (paths.length === 0) return [...walkAll(root, [])];
  const all = [...walkAll(root, [])];
  const out: RunItem<R>[] = [];
  const seen = new Set<string>();
  const add = (item: RunItem<R>) => {
    if (!seen.has(item.node.path)) {
      seen.add(item.node.path);
      out.push(item);
    }
  };
  for (const raw of paths) {
    const wanted = normalizeSelectPath(raw);
    if (wanted === '' || wanted === '.') {
      all.forEach(add);
      continue;
    }
    const lower = wanted.toLowerCase();
    // `Users/` is the folder only; `Users.yaml` the request first; a bare `Users` either, and
    // refused when it is both (a hand-made folder beside a request of its name).
    const folderOnly = namesFolderOnly(raw);
    const asFile = folderOnly ? undefined : all.find((i) => i.node.path.toLowerCase() === lower || i.node.path.toLowerCase() === `${lower}.yaml`);
    const folder = asFile && /\.yaml$/i.test(wanted) ? undefined : findFolder(root, wanted);
    if (asFile && folder) {
      throw new SelectError(`"${raw}" names both the request ${asFile.node.path} and the folder ${folder.path}/. Give ${asFile.node.path} for the request or ${folder.path}/ for the folder.`);
    }
    if (asFile) {
      add(asFile);
      continue;
    }
    if (folder) {
      insideFolder(all, folder, wanted).forEach(add);
      continue;
    }
    // Newman's --folder finds a folder (or request) by its name at any depth: so does a name
    // without `/` that is no path from the root, when one folder or request has it (`Name/`: a folder).
    const named = wanted.includes('/') || options.byName === false ? [] : byName(root, all, lower).filter((n) => !folderOnly || n.type === 'folder');
    if (named.length === 1) {
      const [hit] = named;
      if (hit!.type === 'folder') insideFolder(all, hit!.folder, hit!.folder.path).forEach(add);
      else add(hit!.item);
      continue;
    }
    if (named.length > 1) {
      const kinds = new Set(named.map((n) => n.type));
      const what = kinds.size === 2 ? 'folders and requests' : kinds.has('folder') ? 'folders' : 'requests';
      throw new SelectError(`"${raw}" names ${named.length} ${what}: ${named.map((n) => n.path).join(', ')}. Give the path of the one to run.`);
    }
    // A file the reader skipped (a symbolic link, a name that is not UTF-8): its warning says why.
    const skipped = options.warnings && skippedFile(options.warnings, lower);
    if (skipped) throw new SelectError(skipped.message);
    throw new SelectError(`No request or folder "${raw}" under requests/. ${suggest(root, all, wanted, named.length === 0 && !wanted.includes('/') && options.byName !== false)}Give a request path such as Folder/Name.yaml (see \`ferry ls\`).`);
  }
  return out;
}

/** The warning of the file or folder under requests/ that `lower` (a path in lower case) names or lies in. */
function skippedFile(warnings: readonly Warning[], lower: string): Warning | undefined {
  const wanted = `requests/${lower}`;
  // requests/ itself not read (a link, a pipe, a file): every path lies in it.
  const unread = warnings.find(isUnreadableRequestsFolder);
  if (unread) return unread;
  return warnings.find((w) => {
    const file = w.file.toLowerCase();
    return file.startsWith('requests/') && w.line === undefined && (file === wanted || file === `${wanted}.yaml` || wanted.startsWith(`${file}/`));
  });
}

/** The requests inside `folder`, in tree order; none is refused (a run of nothing would pass). */
function insideFolder<R extends RequestSummary>(all: RunItem<R>[], folder: FolderNode<R>, said: string): RunItem<R>[] {
  const inside = all.filter((i) => i.node.path.toLowerCase().startsWith(`${folder.path.toLowerCase()}/`));
  if (inside.length === 0) throw new SelectError(`The folder ${said} holds no requests.`);
  return inside;
}

type Named<R extends RequestSummary> = { type: 'folder'; path: string; folder: FolderNode<R> } | { type: 'request'; path: string; item: RunItem<R> };

/**
 * Folders below the root and requests whose name (`lower`, in lower case) is the folder's name on
 * disk or display name, the request's file name (without `.yaml`) or its `name`: folders first,
 * each in tree order.
 */
function byName<R extends RequestSummary>(root: FolderNode<R>, all: RunItem<R>[], lower: string): Named<R>[] {
  const found: Named<R>[] = [];
  const walk = (folder: FolderNode<R>) => {
    for (const child of folder.children) {
      if (child.type !== 'folder') continue;
      if (path.posix.basename(child.path).toLowerCase() === lower || child.name.toLowerCase() === lower) found.push({ type: 'folder', path: child.path, folder: child });
      walk(child);
    }
  };
  walk(root);
  for (const item of all) {
    if (item.node.type !== 'request') continue;
    const file = path.posix.basename(item.node.path).replace(/\.yaml$/i, '').toLowerCase();
    if (file === lower || item.node.request.name?.toLowerCase() === lower) found.push({ type: 'request', path: item.node.path, item });
  }
  return found;
}

function suggest<R extends RequestSummary>(root: FolderNode<R>, all: RunItem<R>[], wanted: string, atAnyDepth: boolean): string {
  const base = path.posix.basename(wanted).toLowerCase().replace(/\.yaml$/i, '');
  const close = all.filter((i) => path.posix.basename(i.node.path).toLowerCase().replace(/\.yaml$/i, '').includes(base)).slice(0, 3);
  if (close.length) return `Did you mean ${close.map((i) => i.node.path).join(', ')}? `;
  // A typo (`Shop flw`, `List al pets`): the request or folder a letter or two away.
  const paths = [...all.map((i) => i.node.path), ...folderPaths(root).map((p) => `${p}/`)];
  const near = nearestPath(paths, wanted);
  if (near) return `Did you mean ${near}? `;
  if (!atAnyDepth) return '';
  // A name is looked for at any depth (`Peple`), so is its typo: by the folder's or file's own name.
  const own = (p: string) => path.posix.basename(p.replace(/\/$/, '')) + (p.endsWith('/') ? '/' : '');
  const nearName = nearestPath([...new Set(paths.map(own))], wanted);
  const found = nearName === undefined ? [] : paths.filter((p) => own(p) === nearName).slice(0, 3);
  return found.length ? `Did you mean ${found.join(', ')}? ` : '';
}

function folderPaths<R extends RequestSummary>(folder: FolderNode<R>): string[] {
  return folder.children.flatMap((child) => (child.type === 'folder' ? [child.path, ...folderPaths(child)] : []));
}

/**
 * The request or folder path among `paths` that `wanted` is one or two typed letters from (one
 * for a name of up to 4 letters), compared without case, `.yaml` and a trailing `/`; the nearest.
 */
export function nearestPath(paths: readonly string[], wanted: string): string | undefined {
  const bare = (p: string) => p.toLowerCase().replace(/\/+$/, '').replace(/\.yaml$/i, '');
  const target = bare(wanted);
  const allowed = target.length <= 4 ? 1 : 2;
  let best: { path: string; distance: number } | undefined;
  for (const candidate of paths) {
    const distance = editDistance(target, bare(candidate));
    if (distance > 0 && distance <= allowed && (!best || distance < best.distance)) best = { path: candidate, distance };
  }
  return best?.path;
}

/**
 * The file warnings that concern a run of `items`: the workspace file's, the requests folder's,
 * those of the items' own files and of the folders above them (their `_folder.yaml`), what in
 * environments/ is not read as an environment, and a resource folder named in other case; the others (other requests, environment files,
 * servers, load tests) are only counted.
 */
export function warningsOfRun<R extends RequestSummary>(warnings: readonly Warning[], items: readonly RunItem<R>[]): { own: Warning[]; others: number } {
  const files = new Set<string>(['ferry.yaml', 'requests', 'requests/_folder.yaml']);
  for (const item of items) {
    files.add(`requests/${item.node.path}`);
    for (const folder of item.folders) {
      if (!folder.path) continue;
      files.add(`requests/${folder.path}`);
      files.add(`requests/${folder.path}/_folder.yaml`);
    }
  }
  // A run reads environments/ (its variables, -e): what there is not read as an environment (a
  // subfolder, a .yml file) is said in full, since the run may be missing it; so is `Requests/`,
  // a folder read on some computers only.
  const own = warnings.filter((w) => files.has(w.file) || notReadAsEnvironment(w) || isCaseMisnamedFolderWarning(w));
  return { own, others: warnings.length - own.length };
}

/** A warning about something in environments/ that is not read as an environment: a subfolder, a `.yml` file (not a broken `.yaml`, said when that environment is used). */
function notReadAsEnvironment(warning: Warning): boolean {
  return /^environments\/[^/]+$/.test(warning.file) && !isYamlFile(warning.file);
}
