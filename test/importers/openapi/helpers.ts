/** Shared pieces of the OpenAPI importer tests: corpus files, temp workspaces, tree walking. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ImportedFolderNode, ImportedNode, ImportedRequestData, ImportResult } from '../../../src/importers/types.js';
import { initWorkspace } from '../../../src/workspace/index.js';
import { CORPUS as SHARED_CORPUS } from '../../support/corpus.js';

export const CORPUS = path.join(SHARED_CORPUS, 'openapi');

/** Every top-level document of the corpus, plus the two multi-file entry points. */
export async function corpusDocuments(): Promise<string[]> {
  const top = (await fs.readdir(CORPUS)).filter((f) => /\.(json|ya?ml)$/.test(f)).map((f) => path.join(CORPUS, f));
  const contract = (await fs.readdir(path.join(CORPUS, 'contract'))).map((f) => path.join(CORPUS, 'contract', f));
  return [...top, ...contract, path.join(CORPUS, 'multifile/oas31-redocly-cafe/openapi.yaml'), path.join(CORPUS, 'multifile/swagger20-petstore-separate/spec/swagger.json')];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Operations counted straight from the data: path items written inline or as local references. */
export function countOperations(doc: Record<string, unknown>): number {
  let count = 0;
  const paths = (doc.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [key, rawItem] of Object.entries(paths)) {
    if (!key.startsWith('/')) continue;
    let item = rawItem;
    const ref = item?.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) continue;
      item = ref.slice(2).split('/').reduce<any>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    }
    for (const method of METHODS) if (item && typeof item[method] === 'object') count++;
  }
  return count;
}

/** All requests of an import, with the folder names above each. */
export function requestsOf(result: ImportResult): Array<{ request: ImportedRequestData; folders: string[] }> {
  const out: Array<{ request: ImportedRequestData; folders: string[] }> = [];
  const walk = (nodes: ImportedNode[], folders: string[]) => {
    for (const node of nodes) {
      if (node.type === 'request') out.push({ request: node.request, folders });
      else walk(node.children, [...folders, node.name]);
    }
  };
  walk(result.items, []);
  return out;
}

export function requestFor(result: ImportResult, operation: string): ImportedRequestData {
  const found = requestsOf(result).find((r) => r.request.openapi?.operation === operation);
  if (!found) throw new Error(`no request for ${operation}`);
  return found.request;
}

export function topFolder(result: ImportResult): ImportedFolderNode {
  const top = result.items[0];
  if (!top || top.type !== 'folder') throw new Error('no top folder');
  return top;
}

export async function tempDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), `ferry-openapi-${prefix}-`));
}

export async function tempWorkspace(): Promise<string> {
  const dir = await tempDir('ws');
  await initWorkspace(dir, 'Test');
  return dir;
}

export function yamlDoc(data: unknown): string {
  return stringify(data);
}

/** Every file under a folder (relative paths), for "nothing written" checks. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (current: string) => {
    for (const entry of await fs.readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  await walk(dir);
  return out.sort();
}
