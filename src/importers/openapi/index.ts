/**
 * OpenAPI 3.0/3.1 and Swagger 2.0 import (spec 4.4) and update from API spec (spec 4.5).
 *
 * `importOpenApi` turns a parsed document into an `ImportResult` that the shared writer commits
 * (all or nothing); nothing here touches the disk. Updates live in `update/`.
 */
import path from 'node:path';
import { isInside } from '../../workspace/index.js';
import { emptyResult, type ImportedFolderNode, type ImportedNode, type ImportedServer, type ImportResult, type ImportSource, type OpenApiImportInput } from '../types.js';
import { buildMockRoutes } from './mock-server.js';
import { buildCollection, type GeneratedCollection } from './build.js';
import { cleanName } from './names.js';
import { wordsFileName } from '../sibling-names.js';
import { parseSpecText, requireSpec } from './parse.js';

/** What detection hands over (`OpenApiImportInput`), plus the workspace the import goes into. */
export interface OpenApiImportRequest extends OpenApiImportInput {
  /** The workspace folder: a source file inside it is recorded by its path relative to it (spec 4.4). */
  workspaceRoot?: string;
}

/**
 * Builds the import of a parsed OpenAPI or Swagger document. Throws `ImportError` (nothing
 * written) when it is not one, or when it gives no host and no base URL was given.
 */
export function importOpenApi(input: OpenApiImportRequest): ImportResult {
  const { source } = input;
  const { root, info } = requireSpec(input.document, source.label);
  const collection = buildCollection(root, info, {
    requireBaseUrl: true,
    ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
    ...(source.url !== undefined ? { downloadedFrom: source.url } : {}),
  });
  const name = cleanName(input.name) ?? collection.title;
  const result = emptyResult('openapi', name);
  const top = collectionTree({ ...collection, title: name }, recordedSource(source, input.workspaceRoot));
  result.items.push(top);
  if (collection.variables.length > 0) result.environments.push({ name, variables: collection.variables });
  result.specs.push({ name, ext: input.format, text: input.text, linkFolders: [top] });
  result.notes.push(...collection.notes);
  return result;
}

/**
 * `--as-server`: a mock API server file instead of requests, with the document kept under
 * `specs/` and linked from the server's `http.openapi.spec` (validation on by default). `name`
 * (`--name`) names the server file; the display name is the document's title.
 */
export function importOpenApiAsServer(input: OpenApiImportRequest): ImportResult {
  const { root, info } = requireSpec(input.document, input.source.label);
  const mock = buildMockRoutes(root, info);
  const id = cleanName(input.name) ?? mock.title;
  const result = emptyResult('openapi', mock.title);
  // The spec path is filled in by the writer once the document's file name is known.
  const server: ImportedServer = { id, server: { name: mock.title, http: { routes: mock.routes, openapi: { spec: '' } } } };
  result.servers = [server];
  result.specs.push({ name: id, ext: input.format, text: input.text, linkServers: [server] });
  result.notes.push(...mock.notes);
  return result;
}

/** Parses text (JSON or YAML, with the size and alias limits) and imports it. */
export function importOpenApiText(text: string, source: ImportSource, options: { name?: string; baseUrl?: string; workspaceRoot?: string } = {}): ImportResult {
  const parsed = parseSpecText(text, source.label);
  const { root, info } = requireSpec(parsed.data, source.label);
  return importOpenApi({ document: root, format: parsed.format, version: info.text, text, source, ...options });
}

/** The folder tree of an import: tag subfolders in order, then untagged requests. */
export function collectionTree(collection: GeneratedCollection, source: string | undefined): ImportedFolderNode {
  const tagFolders = new Map<string, ImportedFolderNode>();
  for (const tag of collection.tags) {
    tagFolders.set(tag.name, { type: 'folder', name: tag.name, ...(tag.description ? { settings: { docs: tag.description } } : {}), children: [] });
  }
  const untagged: ImportedNode[] = [];
  for (const op of collection.operations) {
    const node: ImportedNode = { type: 'request', request: op.request, fileNameFallback: wordsFileName(op.operation) };
    const folder = op.tag !== undefined ? tagFolders.get(op.tag) : undefined;
    (folder ? folder.children : untagged).push(node);
  }
  return {
    type: 'folder',
    name: collection.title,
    settings: {
      ...(collection.folderAuth ? { auth: collection.folderAuth } : {}),
      ...(collection.description ? { docs: collection.description } : {}),
      openapi: { ...(source !== undefined ? { source } : {}) },
    },
    children: [...tagFolders.values(), ...untagged],
  };
}

/**
 * `openapi.source`: the URL, or the path when the file lies inside the workspace folder (spec 4.4).
 * The URL is written into `_folder.yaml`, which goes into git: never with the user name and
 * password it may carry (`https://ann:pw@host/…`); an update from it then asks for them again.
 */
export function recordedSource(source: ImportSource, workspaceRoot: string | undefined): string | undefined {
  if (source.url !== undefined) return withoutLogin(source.url);
  if (source.path !== undefined && workspaceRoot !== undefined) {
    const absolute = path.resolve(source.path);
    const root = path.resolve(workspaceRoot);
    if (isInside(root, absolute) && absolute !== root) return path.relative(root, absolute).split(path.sep).join('/');
  }
  return undefined;
}

function withoutLogin(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

export { buildCollection, type GeneratedCollection, type GeneratedOperation } from './build.js';
export { buildMockRoutes, pathShape, routePath, type GeneratedMock, type GeneratedRoute } from './mock-server.js';
export { parseSpecText, requireSpec, specVersionOf } from './parse.js';
export { NO_HOST_MESSAGE, NoBaseUrlError } from './servers.js';
export { MAX_DOCUMENT_BYTES, MAX_OPERATIONS } from '../../openapi-document/index.js';
export { applyServerUpdate, formatServerPreview, planServerUpdate, serverFileOf, type ServerUpdatePlan } from './update-server.js';
