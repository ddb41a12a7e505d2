/** Where an imported folder's document came from (`openapi.source`), checked: the update's default "new version" (CLI and app). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { checkNoSymlinks, FOLDER_FILE, REQUESTS_DIR, type FolderNode } from '../../../workspace/index.js';
import { ImportError } from '../../types.js';

/**
 * The URL, or the path inside the workspace, the folder records; an ImportError saying what to
 * give instead when it records none, or a path that would leave the workspace or pass a link.
 */
export async function knownDocumentSource(root: string, folder: string, node: FolderNode): Promise<string> {
  if (!node.settings.openapi) throw await notImported(root, node, folder);
  const source = node.settings.openapi.source;
  if (!source) {
    // Files outside the workspace and standard input are not recorded (docs/openapi.md).
    throw new ImportError(`The folder "${folder}" does not record where its document came from (it was imported from a file outside the workspace or from standard input); give the new version with --from FILE|URL|-. Nothing was updated.`);
  }
  if (/^https?:\/\//i.test(source)) return source;
  // A recorded file is a path inside the workspace (docs/openapi.md); a _folder.yaml from elsewhere
  // must not make Ferry read files outside it, or through a link.
  const parts = source.split('/');
  const problem = path.isAbsolute(source) || source.includes('\\') || parts.includes('..')
    ? 'is not a path inside the workspace'
    : (await checkNoSymlinks(root, source)) ?? (await notAFile(path.join(root, ...parts)));
  if (problem) {
    const which = /^(is|does) /.test(problem) ? problem : `cannot be read: ${problem}`;
    throw new ImportError(`The folder "${folder}" records its document as "${source}", which ${which}; give the new version with --from FILE|URL|-. Nothing was updated.`);
  }
  return source;
}

/** Why the recorded file cannot be the new version (it was moved or deleted since), or undefined when it is a file. */
async function notAFile(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.lstat(file);
    if (stat.isFile()) return undefined;
    return stat.isDirectory() ? 'is a folder, not a file' : 'is not a regular file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist (moved, renamed or deleted?)' : (error as Error).message;
  }
}

/**
 * Why a folder has no `openapi` link: never imported, or its `_folder.yaml` is a symbolic link the
 * workspace reader does not follow (the settings it holds are not read).
 */
export async function notImported(root: string, node: FolderNode, folder = node.name): Promise<ImportError> {
  const file = [REQUESTS_DIR, ...node.path.split('/').filter(Boolean), FOLDER_FILE].join('/');
  const stat = await fs.lstat(path.join(root, ...file.split('/'))).catch(() => undefined);
  if (stat?.isSymbolicLink()) {
    return new ImportError(`${file} is a symbolic link, and Ferry never follows links, so the folder's settings (its link to the API document) are not read and "${folder}" cannot be updated. Put the real file in its place (remove the link, then move or copy the file it points to here), then update again. Nothing was updated.`);
  }
  return new ImportError(`The folder "${folder}" was not imported from an OpenAPI document (its _folder.yaml has no openapi section), so it cannot be updated from one.`);
}
