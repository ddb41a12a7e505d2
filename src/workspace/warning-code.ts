/**
 * Why a file or folder of the workspace was not read for what or where it is on disk, as a word a
 * program compares (`ferry ls --json`'s `code`), set where the warning is made: callers that must
 * tell one warning from another (a skipped link from a broken file, a subfolder from a file) ask
 * this, never the message, whose words may change. A warning about what a file says (its YAML,
 * its fields) has none, but for `unknown-fields`. docs/workspace.md lists them.
 */
export const WARNING_CODES = [
  /** A symbolic link: never followed (an entry, one of the workspace's folders, a file made a link after it was listed). */
  'symlink',
  /** A named pipe, a socket, a device, or a file of another type: never opened. */
  'fifo',
  'socket',
  'device',
  'unknown-type',
  /** requests/, environments/, servers/ or loadtests/ is a file, pipe, socket or device: nothing in it was read. */
  'not-a-folder',
  /** Could not be listed or read: permissions, an I/O error, gone while being read, a name that is not UTF-8. */
  'unreadable',
  /** A YAML file over the size limit. */
  'too-large',
  /** A folder deeper than the request tree is read. */
  'too-deep',
  /** A subfolder of environments/, servers/ or loadtests/ that holds .yaml files. */
  'subfolder',
  /** A `.yml` file where Ferry reads `.yaml` ones. */
  'yml',
  /** A Postman export in environments/, servers/ or loadtests/. */
  'postman-export',
  /** A `_folder.yaml` directly in requests/ (the collection root's settings are in ferry.yaml). */
  'root-folder-file',
  /** requests/, environments/, servers/ or loadtests/ named in other case (`Requests/`). */
  'misnamed-folder',
  /** Fields the format does not have: kept, never read (the file itself is read). */
  'unknown-fields',
  /** A hidden `.NAME.deleting-…` folder under requests/: what is left of a folder delete that did not finish (removal-aside.ts). */
  'unfinished-delete',
] as const;

export type WarningCode = (typeof WARNING_CODES)[number];

/** The codes of an entry skipped for what it is: a link, or a pipe, socket or device. */
const SKIPPED_ENTRY: ReadonlySet<WarningCode | undefined> = new Set<WarningCode>(['symlink', 'fifo', 'socket', 'device', 'unknown-type']);

/** Whether `warning` says an entry was skipped for what it is (a link, pipe, socket or device): nothing in it to fix, a regular file goes in its place. */
export function isSkippedEntry(warning: { code?: WarningCode }): boolean {
  return SKIPPED_ENTRY.has(warning.code);
}
