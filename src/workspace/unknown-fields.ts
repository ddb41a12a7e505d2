/**
 * The fields of each file of a workspace read whole that the format does not have (kept, never
 * read: a misspelt `hedaers:` does nothing), one warning per file, in the words `ferry run`,
 * `ferry serve` and `ferry load` say them for the files they use. For `ferry ls --strict`, which
 * lists them with the other file problems; a listing keeps only what it shows of each file, so
 * it cannot tell them. `ferry.yaml`'s are among the workspace's warnings already.
 */
import { unknownFieldNotes, unknownFieldsMessage, type ResourceKind } from '../model/index.js';
import { FOLDER_FILE, REQUESTS_DIR, walkFolders, walkRequests } from './tree.js';
import type { Warning, Workspace } from './types.js';

export function unknownFieldsWarnings(ws: Workspace): Warning[] {
  const warnings: Warning[] = [];
  const add = (kind: ResourceKind, file: string, value: unknown) => {
    const message = unknownFieldsMessage(kind, file, unknownFieldNotes(kind, value));
    // As ferry.yaml's: the words after the path, which formatWarning puts back.
    if (message) warnings.push({ file, message: message.slice(file.length + 2), code: 'unknown-fields' });
  };
  // Named as a run names them (runner/run.ts), whatever the case of the folder file's name.
  for (const folder of walkFolders(ws.tree)) add('folder', `${REQUESTS_DIR}/${folder.path}/${FOLDER_FILE}`, folder.settings);
  for (const { node } of walkRequests(ws.tree)) add('request', `${REQUESTS_DIR}/${node.path}`, node.request);
  for (const entry of ws.environments) add('environment', entry.file, entry.value);
  for (const entry of ws.servers) add('server', entry.file, entry.value);
  for (const entry of ws.loadtests) add('loadtest', entry.file, entry.value);
  return warnings;
}
