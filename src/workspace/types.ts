/** The in-memory shape of an opened workspace. */
import type { EnvironmentFile, EnvironmentSummary, FolderFile, FolderSummary, LoadTestFile, LoadTestSummary, RequestFile, RequestSummary, ServerFile, ServerSummary, WorkspaceFile, WorkspaceSummary } from '../model/index.js';
import type { WarningCode } from './warning-code.js';

export interface Warning {
  /** Path relative to the workspace folder, with `/` separators. */
  file: string;
  line?: number;
  column?: number;
  message: string;
  /** When the file has several problems: every one (`field: message`), the first being the one `message` names. */
  problems?: string[];
  /** Why the file or folder was not read, for programs (warning-code.ts); none for a problem with what a file says. */
  code?: WarningCode;
  /**
   * `message` is a sentence that names the file or folder itself (`requests/x.yaml is a named pipe
   * …`), so it is printed as it is; without, it is placed after `file:line:column: `
   * (`formatWarning`). Set where the warning is made: a message's words never decide it.
   */
  namesFile?: true;
}

/** `request` is the whole request, or only its summary in a workspace opened as a listing (`OpenOptions.listing`, `ferry ls`). */
export interface RequestNode<R extends RequestSummary = RequestFile> {
  type: 'request';
  /** Path relative to `requests/`, `/` separators: `Folder/Name.yaml`. */
  path: string;
  request: R;
}

/** A file in the request tree that could not be read; shown with its error, never dropped. */
export interface BrokenNode {
  type: 'broken';
  path: string;
  warning: Warning;
}

/** A folder's settings as a tree of `R` keeps them: whole with whole requests, summarized in a listing. */
export type FolderSettings<R extends RequestSummary> = R extends RequestFile ? FolderFile : FolderSummary;

export interface FolderNode<R extends RequestSummary = RequestFile> {
  type: 'folder';
  /** Path relative to `requests/` (`''` for the collection root). */
  path: string;
  /** Display name: `_folder.yaml`'s `name`, else the folder name. */
  name: string;
  /** `_folder.yaml`'s settings; in a listing (request summaries), only what it shows: name and `seq`. */
  settings: FolderSettings<R>;
  children: TreeNode<R>[];
}

export type TreeNode<R extends RequestSummary = RequestFile> = RequestNode<R> | FolderNode<R> | BrokenNode;

export interface Entry<T> {
  /** File name without `.yaml`: the id used by the CLI and run history. */
  id: string;
  /** Path relative to the workspace folder. */
  file: string;
  value: T;
}

/** Whole files with whole requests; in a listing (request summaries), only what it shows of each file. */
type Listed<R extends RequestSummary, Whole, Summary> = R extends RequestFile ? Whole : Summary;

export interface Workspace<R extends RequestSummary = RequestFile> {
  /** Absolute path of the workspace folder. */
  root: string;
  file: Listed<R, WorkspaceFile, WorkspaceSummary>;
  /** The id from the file (written on first open when missing). */
  id: string;
  tree: FolderNode<R>;
  environments: Entry<Listed<R, EnvironmentFile, EnvironmentSummary>>[];
  servers: Entry<Listed<R, ServerFile, ServerSummary>>[];
  loadtests: Entry<Listed<R, LoadTestFile, LoadTestSummary>>[];
  warnings: Warning[];
  /**
   * Set when only part of the request tree was read (`openWorkspace`'s `requests`): the paths
   * it was read for. `tree` then holds those requests and folders and the folders above them,
   * and `warnings` only the problems of the files read.
   */
  part?: readonly string[];
  /**
   * Set when `ferry.yaml` does not parse or fit the format (`file:line:column: what`): the
   * workspace opened with that file's fields at their defaults, and nothing may write to it.
   */
  fileProblem?: string;
}
