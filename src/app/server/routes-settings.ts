/**
 * The settings view's routes (docs/app.md): a folder's `_folder.yaml` (spec 2.9) and the
 * workspace file's auth, headers, scripts and docs (2.2), read and saved as a request is: checked
 * by the format's own schema, written in place under the workspace's write lock (comments,
 * unknown fields and the fields the view does not edit kept as the file holds them), and refused
 * with 409 and the file's version when the file changed since the page read it. A folder imported
 * from an API document also has its switch Check responses against the spec (`validate`, 7.1).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  deepEqual, formatFieldPath, isPlainObject, parseResource, serializeResource, unknownFieldsWarning, WORKSPACE_FILE, type FolderFile, type ResourceValue,
} from '../../model/index.js';
import { effectiveAuth } from '../../request/inherit.js';
import { folderSettingsFile, formatWarning, readResource, removeEmptyFolderFile, saveResource, SelectError, unsavedItem } from '../../workspace/index.js';
import type { EditedSettings, InheritedAuthView, SettingsView } from '../shared/api.js';
import { ApiError, field, type Routes } from './router.js';
import { writing } from './routes-workspace.js';
import type { WorkspaceState } from './workspace-state.js';

/** The fields the view edits; every other field of the file is kept as it is. */
const EDITED = ['auth', 'headers', 'scripts', 'docs'] as const;

type Kind = 'folder' | 'workspace';
type Value = ResourceValue<Kind>;

/** One settings file: its kind, and where it is (relative to the workspace folder). */
interface SettingsFile {
  kind: Kind;
  file: string;
}

function editedOf(value: Value): EditedSettings {
  const out: Record<string, unknown> = {};
  for (const key of EDITED) if (value[key] !== undefined) out[key] = value[key];
  return out as EditedSettings;
}

/** The line `ferry run` prints about the file's fields the format does not have, as a list. */
function noticesOf(target: SettingsFile, value: Value): string[] {
  const notice = unknownFieldsWarning(target.kind, target.file, value);
  return notice ? [notice] : [];
}

/**
 * The file as it is on disk now, or, for a folder without `_folder.yaml`, the format's defaults
 * (`exists` false). A file that does not read is refused (`status`): written over, what it holds
 * would be lost.
 */
async function onDisk(root: string, target: SettingsFile, status: number): Promise<{ value: Value; exists: boolean }> {
  const absolute = path.join(root, target.file);
  if (!(await fs.lstat(absolute).catch(() => undefined))) {
    if (target.kind === 'folder') return { value: (parseResource('folder', {}) as { value: Value }).value, exists: false };
    throw new ApiError(404, `${target.file} is no longer in the workspace folder.`);
  }
  const outcome = await readResource(target.kind, absolute, target.file);
  if (!outcome.ok) throw new ApiError(status, `${status === 409 ? 'Not saved: ' : ''}${formatWarning(outcome.warning)}. Fix ${target.file} first (the app reloads it when it changes).`);
  return { value: outcome.value, exists: true };
}

/**
 * `current` with the view's settings `given` (the body's `settings` or `base`) put in, checked
 * by the format: a 400 naming the field when it would not read back. A setting left out of
 * `given` is removed from the file (the view sends all it edits), not kept.
 */
function withSettings(target: SettingsFile, current: Value, given: unknown, name: 'settings' | 'base'): Value {
  if (!isPlainObject(given)) throw new ApiError(400, `"${name}" must be an object of the settings: { ${EDITED.join(', ')} }. Nothing was saved.`);
  const other = Object.keys(given).find((key) => !(EDITED as readonly string[]).includes(key));
  if (other !== undefined) throw new ApiError(400, `${name}.${other} is not a setting this view edits (${EDITED.join(', ')}); nothing was saved.`);
  const merged: Record<string, unknown> = { ...current };
  for (const key of EDITED) merged[key] = given[key];
  const parsed = parseResource(target.kind, merged);
  if (!parsed.ok) {
    const problem = parsed.problems[0]!;
    throw new ApiError(400, `Not saved: ${target.file} would not be valid: ${name}.${formatFieldPath(problem.path)}: ${problem.message}.`);
  }
  return parsed.value;
}

/**
 * Spec 7.1: the folder's switch Check responses against the spec (tab API spec) sets
 * `openapi.validate`, on a folder imported from a document only; `true`, the default, is not
 * written (2.1.1). `validate` absent: the file's value is kept.
 */
function withValidate(target: SettingsFile, value: Value, validate: unknown): Value {
  if (validate === undefined) return value;
  if (typeof validate !== 'boolean') throw new ApiError(400, '"validate" must be true or false; nothing was saved.');
  const openapi = target.kind === 'folder' ? (value as FolderFile).openapi : undefined;
  if (!openapi?.spec) {
    throw new ApiError(400, `${target.file} does not link an API document (openapi.spec): only a folder imported from one has responses to check; nothing was saved.`);
  }
  return { ...value, openapi: { ...openapi, validate } } as Value;
}

export function settingsRoutes(state: WorkspaceState): Routes {
  const root = () => state.workspace.root;
  const workspaceFile: SettingsFile = { kind: 'workspace', file: WORKSPACE_FILE };

  /** Folder `folderPath`'s settings file; 400 for a path that is not a folder's, 404 when the folder is gone. */
  const folderFile = async (folderPath: string): Promise<SettingsFile> => {
    let file: string;
    try {
      file = await folderSettingsFile(root(), folderPath);
    } catch (error) {
      throw new ApiError(400, (error as Error).message);
    }
    const dir = await fs.lstat(path.join(root(), path.dirname(file))).catch(() => undefined);
    if (!dir?.isDirectory()) throw new ApiError(404, `Folder "${folderPath}" is no longer in the workspace (deleted, moved or renamed outside the app).`, { gone: true });
    return { kind: 'folder', file };
  };

  const read = async (target: SettingsFile, name: (value: Value) => string): Promise<SettingsView> => {
    const { value } = await onDisk(root(), target, 400);
    const openapi = target.kind === 'folder' ? (value as FolderFile).openapi : undefined;
    return { file: target.file, name: name(value), settings: editedOf(value), ...(openapi ? { openapi } : {}), notices: noticesOf(target, value) };
  };

  /**
   * Saves the body's `settings` into the file as it is on disk now. `base`: the settings as the
   * page last read them; when the file no longer holds them (an editor, git, an import changed
   * it), nothing is written: 409 with the file's settings, as a request save does.
   */
  const save = async (target: SettingsFile, body: unknown, page: string | undefined): Promise<{ settings: EditedSettings; openapi?: FolderFile['openapi']; notices: string[] }> => {
    if (target.kind === 'workspace' && state.workspace.fileProblem) {
      throw new ApiError(409, `Not saved: ${state.workspace.fileProblem}. Fix ${WORKSPACE_FILE} first (the app reloads it when it changes).`);
    }
    const given = (body as { settings?: unknown }).settings;
    const base = (body as { base?: unknown }).base;
    const saved = await writing(state, async () => {
      const current = await onDisk(root(), target, 409);
      if (base !== undefined && !deepEqual(editedOf(withSettings(target, current.value, base, 'base')), editedOf(current.value))) {
        throw new ApiError(409, `${target.file} changed on disk since the app read it; nothing was saved.`, { settings: editedOf(current.value) });
      }
      const value = withValidate(target, withSettings(target, current.value, given, 'settings'), (body as { validate?: unknown }).validate);
      // A folder without settings gets no file for nothing: all left at their defaults, none is written.
      if (current.exists || Object.keys(serializeResource(target.kind, value)).length > 0) await saveResource(path.join(root(), target.file), target.kind, value);
      // One left with nothing in it goes, unless it is what keeps an empty folder (docs/workspace.md).
      if (target.kind === 'folder' && current.exists) await removeEmptyFolderFile(root(), target.file);
      return value;
    }, page);
    // The page asks for the tree next, and the next send must use these settings: read the folder now
    // (once: the watcher's report of this write reads nothing more).
    await state.reloadAfterOwnWrites([target.file]);
    const openapi = target.kind === 'folder' ? (saved as FolderFile).openapi : undefined;
    return { settings: editedOf(saved), ...(openapi ? { openapi } : {}), notices: noticesOf(target, saved) };
  };

  return {
    /** `?path=` a folder under requests/: its `_folder.yaml`'s settings (the defaults when it has none). */
    'GET /api/folder/settings': async ({ query }) => {
      const folderPath = query.get('path') ?? '';
      return read(await folderFile(folderPath), (value) => (value as FolderFile).name ?? folderPath.split('/').filter(Boolean).at(-1)!);
    },

    'PUT /api/folder/settings': async ({ body, page }) => save(await folderFile(field(body, 'path')), body, page),

    /** The workspace file's auth, headers, scripts and docs: the collection root's settings. */
    'GET /api/workspace/settings': async () => read(workspaceFile, (value) => (value as ResourceValue<'workspace'>).name),

    'PUT /api/workspace/settings': async ({ body, page }) => save(workspaceFile, body, page),

    /**
     * `?path=` a request (saved or not: its folders must exist): the auth it gets when set to
     * `inherit`, as a send resolves it (request/inherit.ts), and whose it is; its type only,
     * never its values. The request editor shows it beside the auth type.
     */
    'GET /api/request/inherited-auth': async ({ query }) => {
      let item;
      try {
        item = unsavedItem(state.workspace.tree, query.get('path') ?? '', { auth: { type: 'inherit' } } as never);
      } catch (error) {
        if (error instanceof SelectError) throw new ApiError(404, error.message);
        throw error;
      }
      const { auth, source } = effectiveAuth({ auth: { type: 'inherit' } }, item.folders, state.workspace.file);
      if (!source.startsWith('folder:')) return { type: auth.type, source: 'workspace', name: state.workspace.file.name } satisfies InheritedAuthView;
      const folder = item.folders.find((f) => `folder:${f.path}` === source)!;
      return { type: auth.type, source: 'folder', folder: folder.path, name: folder.name } satisfies InheritedAuthView;
    },
  };
}
