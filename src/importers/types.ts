/**
 * The one shape every importer produces, and the writer (`commit.ts`) consumes.
 *
 * An importer never touches the disk: it turns its input into an `ImportResult`, an in-memory
 * tree of the format's own objects (requests, folders, environments, variables from
 * `src/model/`), plus secret values to store and notes for the user. The writer then builds the
 * whole tree aside and moves it into the workspace in one rename, so an import is all or nothing.
 *
 * Field values are the model's *input* shapes (`z.input` of the schemas): give only what the
 * import sets, and the writer fills the defaults by parsing them with the model. Anything that
 * does not validate makes the whole import fail before a byte is written.
 *
 * Writing an importer (OpenAPI, Postman, cURL all do this):
 *   1. detect (`detect.ts`) hands you the parsed document and where it came from;
 *   2. build `items` (usually one folder named after the document), `environments`,
 *      `variables`, `secrets`, `specs`, and push a note for everything not brought over exactly;
 *   3. return the result; `commitImport(workspace, result, { into })` writes it.
 */
import type { z } from 'zod';
import type { folderSchema, requestSchema, ServerSchema, variableSchema } from '../model/index.js';

/** A request as the importer builds it: model input shape (defaults may be left out). `name` is the display name. */
export type ImportedRequestData = z.input<typeof requestSchema>;
/** Folder settings (`_folder.yaml`) without `name`/`seq`, which the tree gives. */
export type ImportedFolderData = Omit<z.input<typeof folderSchema>, 'name' | 'seq'>;
export type ImportedVariable = z.input<typeof variableSchema>;

export interface ImportedRequestNode {
  type: 'request';
  /** The request file's content. Its `seq` is set by the writer from the position among siblings. */
  request: ImportedRequestData;
  /** The base file name when `request.name` makes none (`..`, `_folder`): `baseFileName`'s fallback. */
  fileNameFallback?: string;
}

export interface ImportedFolderNode {
  type: 'folder';
  /** Display name; the folder's file name is derived from it (spec 2.1.4). */
  name: string;
  /** Written to `_folder.yaml` when it holds anything beyond the name. */
  settings?: ImportedFolderData;
  /** In order: the writer numbers `seq` 0, 1, 2 … among siblings. */
  children: ImportedNode[];
}

export type ImportedNode = ImportedRequestNode | ImportedFolderNode;

export interface ImportedEnvironment {
  /** Display name; the file name (environment id) is derived from it. */
  name: string;
  /** Secret variables carry `secret: true` and an EMPTY value here; the value is in `secrets`. */
  variables: ImportedVariable[];
}

/** A secret value to put in this computer's secret store, never in a workspace file. */
export interface ImportedSecret {
  /** `environment`: a variable of `environments[environmentIndex]`; `workspace`: a workspace variable. */
  scope: 'environment' | 'workspace';
  /** Index into `ImportResult.environments` when `scope` is `environment`. */
  environmentIndex?: number;
  key: string;
  value: string;
}

/** A document to keep under `specs/` (OpenAPI imports). */
export interface ImportedSpec {
  /** Display name; the file name is derived from it, plus `ext`. */
  name: string;
  ext: 'json' | 'yaml';
  text: string;
  /**
   * Folder nodes (by identity, among `items` and their descendants) whose `settings.openapi.spec`
   * must point at this document once its file name is known. The writer fills the path.
   */
  linkFolders?: ImportedFolderNode[];
  /** Servers (by identity, among `servers`) whose `http.openapi.spec` must point at this document. */
  linkServers?: ImportedServer[];
}

/** A local server file to write under `servers/` (`ferry import --as-server`). */
export interface ImportedServer {
  /** The file name (server id) is derived from it, made unique among the existing servers. */
  id: string;
  /** The file's content (model input shape). */
  server: z.input<ServerSchema>;
}

export type ImportKind = 'postman' | 'environment' | 'globals' | 'openapi' | 'curl';

export interface ImportResult {
  kind: ImportKind;
  /** The imported name shown to the user (collection, environment, document title, request). */
  name: string;
  /** Placed, in order, into the target folder (`--into`, default the workspace root `requests/`). */
  items: ImportedNode[];
  environments: ImportedEnvironment[];
  /**
   * Workspace (collection) variables to merge into `ferry.yaml`. A key the workspace already
   * has keeps its current value; the writer adds a note listing those.
   */
  variables: ImportedVariable[];
  secrets: ImportedSecret[];
  specs: ImportedSpec[];
  /** Server files (`--as-server`); absent for every other import. */
  servers?: ImportedServer[];
  /** Things not brought over exactly, one sentence each, for the user. */
  notes: string[];
}

/** What a committed import created, as shown by the dialog and `ferry import --json`. */
export interface ImportSummary {
  kind: ImportKind;
  name: string;
  requests: number;
  folders: number;
  environments: number;
  variables: number;
  /** Server files written (`--as-server`); absent for other imports. */
  servers?: number;
  notes: string[];
  /** What the import created, relative to the workspace folder (`requests/Petstore 2`, `environments/Petstore.yaml`). */
  written?: string[];
}

/** Where an import's input came from: used in messages and by OpenAPI (`openapi.source`). */
export interface ImportSource {
  /** A file path, a URL, `-` for standard input, or `pasted`. */
  label: string;
  /** Set for downloads: the final URL (OpenAPI uses its scheme and host as base URL). */
  url?: string;
  /** Set for files: the absolute path. */
  path?: string;
}

/** A refusal with a message for people. Nothing is written when an import throws it. */
export class ImportError extends Error {
  override name = 'ImportError';
}

export function emptyResult(kind: ImportKind, name: string): ImportResult {
  return { kind, name, items: [], environments: [], variables: [], secrets: [], specs: [], notes: [] };
}

/** Counts requests and folders in a tree (folders include the imported top folder). */
export function countNodes(nodes: ImportedNode[]): { requests: number; folders: number } {
  let requests = 0;
  let folders = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'request') requests++;
    else {
      folders++;
      stack.push(...node.children);
    }
  }
  return { requests, folders };
}

/**
 * What `src/importers/openapi/index.ts` must export as `importOpenApi` (owned by the OpenAPI
 * importer; detection hands documents to it). It builds the folder tree, the environment, and a
 * `specs` entry whose `linkFolders` names the imported folder.
 */
export interface OpenApiImportInput {
  /** The parsed document (JSON or YAML). */
  document: Record<string, unknown>;
  format: 'json' | 'yaml';
  /** `openapi` or `swagger` field as text: `3.0.3`, `3.1.0`, `2.0`. */
  version: string;
  /** The document's text as read, to keep under `specs/`. */
  text: string;
  source: ImportSource;
  /** `--name`: replaces the document's title as the folder name. */
  name?: string;
  /** Base URL given by the user when the document has no host (spec 4.4, base URL prompt). */
  baseUrl?: string;
  /** The workspace folder: a source file inside it is recorded as `openapi.source` by its relative path. */
  workspaceRoot?: string;
}
export type OpenApiImporter = (input: OpenApiImportInput) => ImportResult | Promise<ImportResult>;
