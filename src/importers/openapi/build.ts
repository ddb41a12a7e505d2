/**
 * A document to requests, independent of any workspace: what `importOpenApi` writes and what
 * an update compares the saved requests with. Pure and deterministic: the same document gives
 * the same requests, which is what the three-way update rule relies on.
 */
import { deepEqual } from '../../model/index.js';
import type { ImportedRequestData, ImportedVariable } from '../types.js';
import { BodyBuilder, type BodyOutcome } from './body.js';
import { MAX_LISTED_REFS, MAX_OPERATIONS, isObject, type JsonObject, type SpecVersionInfo, RefResolver } from '../../openapi-document/index.js';
import { cleanName, operationText, requestName } from './names.js';
import { firstTag, listOperations, orderedTags, type OperationRef, type TagInfo } from './operations.js';
import { buildParameters, mergeParameters } from './params.js';
import { recordResponseRefs } from './response-refs.js';
import { SecurityMapper, type ImportedAuth } from './security.js';
import { documentServer, firstServer, resolveBaseUrl, type ServerInfo } from './servers.js';

export interface GeneratedOperation {
  /** `METHOD /path/{param}` as the document writes the path. */
  operation: string;
  /** The first tag: the subfolder the request goes in. */
  tag?: string;
  request: ImportedRequestData;
  /** Path parameters as environment variables. */
  variables: ImportedVariable[];
  /** The request's JSON body was generated from the schema, not taken from an example. */
  bodyGenerated?: true;
  /**
   * The URL as Ferry wrote it before a path or operation server that is the document's own server
   * became `{{baseUrl}}`: that server's URL written out. The same request; an update takes a saved
   * URL equal to it for the import's (see update/plan.ts).
   */
  serverWrittenOut?: string;
}

export interface GeneratedCollection {
  title: string;
  description?: string;
  /** Document-wide security; undefined when the document sets none. */
  folderAuth?: ImportedAuth;
  tags: TagInfo[];
  operations: GeneratedOperation[];
  /** `baseUrl` (when known), auth placeholders, path parameters: the new environment's variables. */
  variables: ImportedVariable[];
  notes: string[];
}

export interface BuildOptions {
  /** `--base-url`. */
  baseUrl?: string;
  /** The URL the document was downloaded from. */
  downloadedFrom?: string;
  /** Imports need a base URL; updates do not (requests use `{{baseUrl}}`). */
  requireBaseUrl: boolean;
  /** Most operations built (defaults to `MAX_OPERATIONS`). */
  maxOperations?: number;
  /**
   * Build requests as imports by earlier Ferry versions wrote them: parameters without an example
   * left empty, object query parameters as JSON text, arrays by repeating the key, local `$ref`s
   * inside examples as written, a JSON body that is a string written bare, keywords beside a 3.1
   * `$ref` ignored (schemas' and parameter references' alike). An update compares saved requests with that too, so such values are not taken for
   * edits (see update/plan.ts).
   */
  asEarlierImports?: boolean;
}

const DEPRECATED = '**Deprecated:** the API document marks this operation as deprecated.';

export function buildCollection(root: JsonObject, info: SpecVersionInfo, options: BuildOptions): GeneratedCollection {
  const refs = new RefResolver(root, info.version, options.asEarlierImports !== true);
  /** Local references already walked for response schemas' external references. */
  const walkedRefs = new Set<string>();
  const notes = new Set<string>();
  const docInfo = isObject(root.info) ? root.info : {};
  const title = cleanName(docInfo.title) ?? 'API';
  const description = typeof docInfo.description === 'string' && docInfo.description.trim() ? docInfo.description.trim() : undefined;
  if (info.version === 'oas31' && !/^3\.1(\.|$)/.test(info.text)) {
    notes.add(`The document is OpenAPI ${info.text}, newer than the 3.1 Ferry knows; it was read as 3.1.`);
  }

  const { operations: refsList, skipped } = listOperations(root, refs, options.maxOperations ?? MAX_OPERATIONS);
  if (skipped > 0) {
    notes.add(`The document has ${refsList.length + skipped} operations; Ferry imports at most ${refsList.length} at once, so the last ${skipped} were left out.`);
  }

  let baseUrl: string | undefined;
  const server = documentServer(root, info.version);
  const needsBase = refsList.some((op) => ownServer(op) === undefined);
  if (options.baseUrl !== undefined || (needsBase && options.requireBaseUrl)) baseUrl = resolveBaseUrl(server, options.baseUrl, options.downloadedFrom);
  else if (server.kind === 'absolute') baseUrl = server.url;

  const security = new SecurityMapper(root, info.version, refs);
  const variables = new Map<string, ImportedVariable>();
  const addVariable = (v: ImportedVariable) => {
    const key = String(v.key);
    const existing = variables.get(key);
    if (!existing) variables.set(key, { ...v });
    else if (!existing.value && v.value) existing.value = v.value;
  };
  if (baseUrl !== undefined) addVariable({ key: 'baseUrl', value: baseUrl });

  const documentSecurity = Array.isArray(root.security) ? root.security : undefined;
  let folderAuth: ImportedAuth | undefined;
  if (documentSecurity) {
    const outcome = security.map(documentSecurity);
    folderAuth = outcome.auth;
    outcome.variables.forEach(addVariable);
    outcome.notes.forEach((n) => notes.add(n));
  }

  const bodies = new BodyBuilder(refs, options.asEarlierImports === true);
  const consumes = stringList(root.consumes);
  const fileRequests: string[] = [];
  const noResponses: string[] = [];
  const operations: GeneratedOperation[] = [];
  const pathVariables: ImportedVariable[] = [];

  for (const op of refsList) {
    const text = operationText(op.method, op.path);
    const params = mergeParameters(refs, op.pathItem.parameters, op.operation.parameters);
    const parts = buildParameters(op.path, params, refs, info.version, options.asEarlierImports === true);
    // A path or operation server that repeats the document's (Twilio's on each path) is {{baseUrl}}
    // too, so that one variable still moves every request (to a mock, to staging).
    const own = ownServer(op);
    const documentsOwn = own !== undefined && server.kind === 'absolute' && own === server.url;
    const url = `${own !== undefined && !documentsOwn ? own : '{{baseUrl}}'}${parts.pathAndQuery}`;

    let body: BodyOutcome;
    if (info.version === 'swagger2') {
      const opConsumes = op.operation.consumes !== undefined ? stringList(op.operation.consumes) : consumes;
      body = bodies.fromSwaggerParams(parts.bodyParams, opConsumes);
    } else {
      body = bodies.fromRequestBody(op.operation.requestBody);
    }
    const headers = [...parts.headers];
    if (body.contentTypeHeader) headers.push({ key: 'Content-Type', value: body.contentTypeHeader });

    let auth: ImportedAuth | undefined;
    if (Array.isArray(op.operation.security) && !deepEqual(op.operation.security, documentSecurity)) {
      const outcome = security.map(op.operation.security);
      auth = outcome.auth;
      outcome.variables.forEach(addVariable);
      outcome.notes.forEach((n) => notes.add(n));
    }

    const name = requestName(op.operation, op.method, op.path);
    if (body.needsFile) fileRequests.push(name);
    const responses = refs.deref(op.operation.responses);
    recordResponseRefs(op.operation.responses, refs, walkedRefs);
    if (!isObject(responses) || Object.keys(responses).filter((k) => !k.startsWith('x-')).length === 0) noResponses.push(text);

    const docs = docsOf(op.operation);
    const request: ImportedRequestData = {
      name,
      method: op.method,
      url,
      ...(parts.disabledParams.length > 0 ? { disabledParams: parts.disabledParams } : {}),
      ...(parts.paramDescriptions.length > 0 ? { paramDescriptions: parts.paramDescriptions } : {}),
      ...(headers.length > 0 ? { headers } : {}),
      ...(body.body ? { body: body.body } : {}),
      ...(auth ? { auth } : {}),
      ...(docs ? { docs } : {}),
      openapi: { operation: text },
    };
    const tag = firstTag(op.operation);
    operations.push({
      operation: text,
      ...(tag !== undefined ? { tag } : {}),
      request,
      variables: parts.variables,
      ...(body.generated ? { bodyGenerated: true as const } : {}),
      ...(documentsOwn ? { serverWrittenOut: `${own}${parts.pathAndQuery}` } : {}),
    });
    pathVariables.push(...parts.variables);
  }
  pathVariables.forEach(addVariable);

  if (fileRequests.length > 0) {
    notes.add(`${fileRequests.length} request${fileRequests.length === 1 ? ' sends' : 's send'} a file (binary body or multipart file part), which the document cannot hold; choose the file${fileRequests.length === 1 ? '' : 's'} before sending: ${listed(fileRequests.map((n) => `"${n}"`))}.`);
  }
  if (noResponses.length > 0) {
    notes.add(`${noResponses.length === 1 ? 'An operation documents' : `${noResponses.length} operations document`} no responses, so responses cannot be checked against the document: ${listed(noResponses)}.`);
  }
  if (refs.external.size > 0) {
    notes.add(`References to other files or URLs are not followed, so what they hold was left out: ${listed([...refs.external])}.`);
  }
  if (refs.broken.size > 0) {
    notes.add(`References that point nowhere (or loop) were skipped: ${listed([...refs.broken])}.`);
  }
  const webhooks = isObject(root.webhooks) ? Object.keys(root.webhooks).length : 0;
  if (webhooks > 0) notes.add(`The document describes ${webhooks} webhook${webhooks === 1 ? '' : 's'}: calls the API makes to you, not requests to send; they were not imported.`);
  if (refsList.length === 0) notes.add('The document has no operations to import.');

  return {
    title,
    ...(description ? { description } : {}),
    ...(folderAuth ? { folderAuth } : {}),
    tags: orderedTags(root, refsList),
    operations,
    variables: [...variables.values()],
    notes: [...notes],
  };
}

/** An operation's or path's own absolute server URL, which replaces `{{baseUrl}}`. */
function ownServer(op: OperationRef): string | undefined {
  for (const servers of [op.operation.servers, op.pathItem.servers]) {
    const server: ServerInfo | undefined = firstServer(servers);
    if (server) return server.kind === 'absolute' ? server.url : undefined;
  }
  return undefined;
}

function docsOf(operation: JsonObject): string | undefined {
  const parts: string[] = [];
  if (operation.deprecated === true) parts.push(DEPRECATED);
  if (typeof operation.description === 'string' && operation.description.trim()) parts.push(operation.description.trim());
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function listed(items: string[]): string {
  const shown = items.slice(0, MAX_LISTED_REFS).join(', ');
  return items.length > MAX_LISTED_REFS ? `${shown} and ${items.length - MAX_LISTED_REFS} more` : shown;
}
