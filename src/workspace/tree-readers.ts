/**
 * The tree's readers that parse files (tree.ts walks; these read). Apart from tree.ts because
 * they load the model's schemas: a listing whose files all come from the listing cache loads
 * neither them nor the YAML parsers.
 */
import { parseResource, type FolderFile, type RequestFile, type RequestSummary } from '../model/index.js';
import { readFolderSummarySync, readRequestSummarySync, readResourceSync } from './read-resource.js';
import { LISTING_FOLDER_DEFAULTS, type TreeReader } from './tree.js';

const DEFAULT_FOLDER: FolderFile = (() => {
  const parsed = parseResource('folder', {});
  if (!parsed.ok) throw new Error('the folder declaration has no valid defaults');
  return parsed.value;
})();

/** Every field of every file. */
export const WHOLE_READER: TreeReader<RequestFile> = {
  request: (absolute, label) => readResourceSync('request', absolute, label),
  folder: (absolute, label) => readResourceSync('folder', absolute, label),
  folderDefaults: DEFAULT_FOLDER,
};

/** The same reading and the same warnings, keeping only what a listing shows. */
export const LISTING_READER: TreeReader<RequestSummary> = {
  request: readRequestSummarySync,
  folder: readFolderSummarySync,
  folderDefaults: LISTING_FOLDER_DEFAULTS,
};
