/** The shape of an update from API spec (spec 4.5): what the preview shows and what gets written. */

export interface RequestChange {
  operation: string;
  name: string;
  /** Request path relative to `requests/`. */
  path: string;
  /** Fields that take the new document's value. */
  update: string[];
  /** Fields the user edited, which the new document also changed: the user's value stays. */
  kept: string[];
  /** It was marked as no longer in the spec and is back. */
  restored: boolean;
  /** The document renamed the operation (new `summary`/`operationId`) to this; the request keeps its name. */
  documentName?: string;
}

export interface RequestRef {
  operation: string;
  name: string;
  path: string;
}

export interface PlannedWrite {
  /** Absolute file path. */
  file: string;
  text: string;
}

export interface UpdatePlan {
  /** Folder path relative to `requests/`, and its display name. */
  folder: string;
  folderName: string;
  /** Where the new version came from (URL, path, `standard input`). */
  from: string;
  /** Warnings for the preview (the old document missing from `specs/`). */
  warnings: string[];
  added: RequestRef[];
  changed: RequestChange[];
  removed: RequestRef[];
  /** Folder settings (auth, docs) of the imported folder. */
  folderChange?: { update: string[]; kept: string[] };
  /** New environment variables, and the environment they go to (created when `createsEnvironment`). */
  newVariables: string[];
  /**
   * New variables of path parameters the document renamed (`{username}` → `{login}`) that take the
   * value you gave the old variable, new key → old key; the others take the document's value.
   */
  carriedVariables: Record<string, string>;
  /** Variables whose value the new document changed and the environment still had as the old one gave it. */
  updatedVariables: string[];
  environment: string;
  createsEnvironment: boolean;
  /** True when the kept document's text changes. */
  documentChanged: boolean;
  /** The folder's new `openapi.source` (a different URL or in-workspace file), when it changes. */
  source?: string;
  /** Nothing to change: the folder already matches this version. */
  upToDate: boolean;
  /** Notes from reading the new document (external refs, unsupported auth…) that the old one did not give already. */
  notes: string[];
  /** Files to write and delete, all absolute; applied together by `applyUpdate`. */
  writes: PlannedWrite[];
  deletes: string[];
}
