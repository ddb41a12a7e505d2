/**
 * Collection export import, v2.0 and v2.1 (spec 4.2): a new folder named after the collection,
 * holding its folders and requests in order, with auth, scripts and docs on each; collection
 * variables go to the workspace variables.
 */
import { MAX_TREE_DEPTH } from '../../workspace/index.js';
import { withinNameLimit } from '../name-limit.js';
import { emptyResult, ImportError, type ImportedFolderData, type ImportedNode, type ImportResult } from '../types.js';
import { mapAuth } from './auth.js';
import { description, keepsBodies, mapRequest, mapSettings, type ImportedSettings } from './request.js';
import { collectScripts, summaryNotes, type ScriptContext } from './scripts.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A sanity bound (Ferry's own; the spec names none): a collection with more items (requests and
 * folders, each a file or folder on disk) is refused rather than flooding the workspace.
 */
export const MAX_IMPORT_ITEMS = 10_000;

export interface PostmanImportOptions {
  /** Name of the new folder; default the collection's name. */
  name?: string;
  /** Folder levels already above the import (the target folder's depth), for the 32-level limit. */
  baseDepth?: number;
}

export function importPostman(collection: Obj, options: PostmanImportOptions = {}): ImportResult {
  const info = isObj(collection.info) ? collection.info : {};
  const notes: string[] = [];
  const ctx: ScriptContext = { notes, files: [], unavailable: new Map(), skippedEvents: [], grouped: new Map() };
  const rootName = displayName(options.name ?? info.name, 'Imported collection', notes);
  // `walk`'s depth is the folder level of the items it lists (the collection's folder is level 1):
  // a folder at level 32 may hold requests (spec 2.1.8), one at 33 is not read.
  const maxDepth = MAX_TREE_DEPTH - (options.baseDepth ?? 0);
  let itemCount = 0;
  const foldersWithVariables: string[] = [];
  /** Collection and folders whose protocolProfileBehavior was copied into the requests inside. */
  const settingsCopied: string[] = [];
  const inheritSettings = (item: Obj, where: string, inherited: ImportedSettings | undefined): ImportedSettings | undefined => {
    const own = mapSettings(item.protocolProfileBehavior, where, ctx.grouped);
    if (!own) return inherited;
    settingsCopied.push(where);
    return { ...inherited, ...own };
  };

  // `keepBodies`: disableBodyPruning of the folders and collection above (Postman's default: off).
  const walk = (items: unknown, path: string, depth: number, inherited: ImportedSettings | undefined, keepBodies: boolean): ImportedNode[] => {
    if (!Array.isArray(items)) return [];
    if (depth > maxDepth) {
      throw new ImportError(
        `The collection nests folders more than ${maxDepth} levels deep (at "${path}"); Ferry reads requests at most ${MAX_TREE_DEPTH} folder levels deep. Flatten the collection and import again.`,
      );
    }
    const nodes: ImportedNode[] = [];
    for (const item of items) {
      if (!isObj(item)) continue;
      if (++itemCount > MAX_IMPORT_ITEMS) {
        throw new ImportError(`The collection has more than ${MAX_IMPORT_ITEMS.toLocaleString('en')} items (requests and folders); Ferry imports at most that many at once. Split the collection into smaller ones and import each.`);
      }
      if (Array.isArray(item.item)) {
        const name = displayName(item.name, 'Untitled folder', notes);
        const where = `${path}/${name}`;
        if (Array.isArray(item.variable) && item.variable.length > 0) foldersWithVariables.push(where);
        const children = walk(item.item, where, depth + 1, inheritSettings(item, where, inherited), keepsBodies(item.protocolProfileBehavior, keepBodies));
        const settings = folderSettings(item, where, ctx);
        nodes.push({ type: 'folder', name, ...(settings ? { settings } : {}), children });
      } else {
        const name = displayName(item.name, 'Untitled request', notes);
        nodes.push({ type: 'request', request: mapRequest(item, name, `${path}/${name}`, ctx, inherited, keepBodies) });
      }
    }
    return nodes;
  };

  // Folders and collections have no request settings of their own in Ferry: theirs go into each request inside.
  const children = walk(collection.item, rootName, 1, inheritSettings(collection, rootName, undefined), keepsBodies(collection.protocolProfileBehavior, false));
  const rootSettings = folderSettings(collection, rootName, ctx, info.description);
  const result = emptyResult('postman', rootName);
  result.items.push({ type: 'folder', name: rootName, ...(rootSettings ? { settings: rootSettings } : {}), children });

  // One variable per key: Postman uses the last enabled row of a repeated key (else the last row).
  const chosen = new Map<string, Obj>();
  const repeated = new Set<string>();
  for (const v of Array.isArray(collection.variable) ? collection.variable : []) {
    if (!isObj(v)) continue;
    const key = String(v.key ?? v.id ?? '');
    if (!key) continue;
    const before = chosen.get(key);
    if (before) repeated.add(key);
    if (!before || v.disabled !== true || before.disabled === true) chosen.set(key, v);
  }
  for (const [key, v] of chosen) {
    const value = v.value === undefined || v.value === null ? '' : typeof v.value === 'object' ? JSON.stringify(v.value) : String(v.value);
    const secret = v.type === 'secret';
    result.variables.push({ key, value: secret ? '' : value, ...(v.disabled === true ? { enabled: false } : {}), ...(secret ? { secret: true } : {}) });
    if (secret) result.secrets.push({ scope: 'workspace', key, value });
  }
  if (repeated.size > 0) notes.push(`The collection gives these variables more than once; the last enabled value is used, as in Postman: ${[...repeated].join('; ')}.`);
  if (settingsCopied.length > 0) {
    notes.push(`Request settings (follow redirects, max redirects, SSL verification) of these folders were copied into each request inside them: ${settingsCopied.join('; ')}.`);
  }
  if (foldersWithVariables.length > 0) notes.push(`Folder variables are not supported and were skipped: ${foldersWithVariables.join('; ')}.`);
  result.notes.push(...notes, ...summaryNotes(ctx));
  return result;
}

function folderSettings(item: Obj, where: string, ctx: ScriptContext, docsOverride?: unknown): ImportedFolderData | undefined {
  const auth = mapAuth(item.auth, where, ctx);
  const scripts = collectScripts(item.event, where, ctx);
  const docs = description(docsOverride ?? item.description);
  if (!auth && !scripts && !docs) return undefined;
  return {
    ...(auth ? { auth: auth as ImportedFolderData['auth'] } : {}),
    ...(scripts ? { scripts } : {}),
    ...(docs ? { docs } : {}),
  };
}

/** Names must be non-empty and at most 200 characters (spec 2.1.5). */
function displayName(raw: unknown, fallback: string, notes: string[]): string {
  const name = raw === undefined || raw === null ? '' : String(raw).replace(/[\r\n]+/g, ' ');
  return name.trim() ? withinNameLimit(name, notes) : fallback;
}
