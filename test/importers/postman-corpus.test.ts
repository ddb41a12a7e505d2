/**
 * Every collection and environment export of the corpus imports into a real workspace (or is
 * refused with the right message), the counts equal the source's, and sampled fields match.
 */
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Postman's own URL model (postman-collection, installed with newman): what Postman sends. */
const require = createRequire(import.meta.url);
const { Url: PostmanUrl, Collection: PostmanCollection } = require('postman-collection') as {
  Url: new (url: unknown) => { toString(): string };
  Collection: new (doc: unknown) => { forEachItem(fn: (item: { request: unknown; getProtocolProfileBehaviorResolved(): unknown }) => void): void };
};
/** Postman's runner decides whether a body is sent at all (empty, switched off, or pruned from a GET). */
const { getRequestBody } = require('postman-runtime/lib/requester/core') as { getRequestBody(request: unknown, behavior: unknown): unknown };
/** For each request of the collection, in order: whether Postman sends its body. */
function bodiesSent(source: unknown): boolean[] {
  const out: boolean[] = [];
  new PostmanCollection(source).forEachItem((item) => out.push(getRequestBody(item.request, item.getProtocolProfileBehaviorResolved()) !== undefined));
  return out;
}
import { commitImport, convert, decodeText, type ImportedNode, type ImportResult } from '../../src/importers/index.js';
import { initWorkspace, openWorkspace, type FolderNode, type TreeNode } from '../../src/workspace/index.js';
import { CORPUS } from '../support/corpus.js';
import { AUTH_FIELDS_NOT_IMPORTED } from '../../src/importers/postman/auth.js';


const collections = [
  ...readdirSync(path.join(CORPUS, 'postman')).filter((f) => f.endsWith('.json')).map((f) => `postman/${f}`),
  ...readdirSync(path.join(CORPUS, 'postman/contract')).map((f) => `postman/contract/${f}`),
];
const environments = readdirSync(path.join(CORPUS, 'environments')).map((f) => `environments/${f}`);

type Obj = Record<string, any>;
const read = (rel: string) => decodeText(readFileSync(path.join(CORPUS, rel)));

let dataDir: string;
let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-import-corpus-'));
  dataDir = path.join(tmp, 'data');
  process.env.FERRY_DATA_DIR = dataDir;
});
afterAll(async () => {
  delete process.env.FERRY_DATA_DIR;
  await fs.rm(tmp, { recursive: true, force: true });
});

function sourceCounts(items: Obj[]): { requests: number; folders: number } {
  let requests = 0;
  let folders = 0;
  for (const item of items) {
    if (Array.isArray(item.item)) {
      folders++;
      const inner = sourceCounts(item.item);
      requests += inner.requests;
      folders += inner.folders;
    } else requests++;
  }
  return { requests, folders };
}

function flatSource(items: Obj[], out: Obj[] = []): Obj[] {
  for (const item of items) Array.isArray(item.item) ? flatSource(item.item, out) : out.push(item);
  return out;
}

function flatImported(nodes: ImportedNode[], out: Obj[] = []): Obj[] {
  for (const n of nodes) n.type === 'folder' ? flatImported(n.children, out) : out.push(n.request);
  return out;
}

function flatTree(node: TreeNode, out: TreeNode[] = []): TreeNode[] {
  out.push(node);
  if (node.type === 'folder') for (const c of node.children) flatTree(c, out);
  return out;
}

const BODY_TYPES: Record<string, string[]> = {
  raw: ['json', 'xml', 'text'], urlencoded: ['formUrlencoded'], formdata: ['multipart'], file: ['binary'], graphql: ['graphql'],
};
const AUTH_TYPES: Record<string, string> = { noauth: 'none', apikey: 'apiKey' };

/** The body's data, by mode: raw text, form rows (with switched-off ones), form-data parts, file, GraphQL query. */
function expectSameBody(body: Obj, mine: Obj): void {
  const on = (e: Obj) => e.disabled !== true;
  if (body.mode === 'raw') expect(mine.text).toBe(body.raw ?? '');
  if (body.mode === 'urlencoded') {
    expect((mine.form ?? []).map((r: Obj) => [r.key, r.value, r.enabled !== false])).toEqual((body.urlencoded ?? []).map((e: Obj) => [e.key, String(e.value ?? ''), on(e)]));
  }
  if (body.mode === 'formdata') {
    // A file field with several files is one row per file, as Newman sends one part each.
    const entries = (body.formdata ?? []).flatMap((e: Obj) => (e.type === 'file' && Array.isArray(e.src) && e.src.length > 1 ? e.src.map((src: unknown) => ({ ...e, src })) : [e]));
    expect((mine.multipart ?? []).map((p: Obj) => [p.key, p.file === true, p.enabled !== false])).toEqual(entries.map((e: Obj) => [e.key, e.type === 'file', on(e)]));
    entries.forEach((e: Obj, i: number) => expect(mine.multipart[i].value).toBe(String((e.type === 'file' ? (Array.isArray(e.src) ? e.src[0] : e.src) : e.value) ?? '')));
  }
  if (body.mode === 'file' && body.file?.src) expect(mine.file).toBe(body.file.src);
  if (body.mode === 'graphql') expect(mine.graphql?.query).toBe(body.graphql?.query ?? '');
}

const notImported = (type: string, key: string) => [...AUTH_FIELDS_NOT_IMPORTED['*']!, ...(AUTH_FIELDS_NOT_IMPORTED[type] ?? [])].includes(key);

/** Every setting of the source's auth is in ours (but those left out on purpose): under our names for basic, bearer and API key, else under the source's own. */
function expectSameAuthSettings(auth: Obj, mine: Obj | undefined): void {
  const raw = auth[auth.type];
  const params: Obj = Array.isArray(raw) ? Object.fromEntries(raw.map((e: Obj) => [e.key, e.value])) : raw ?? {};
  const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  if (auth.type === 'basic') expect([mine?.username, mine?.password]).toEqual([str(params.username), str(params.password)]);
  else if (auth.type === 'bearer') expect(mine?.token).toBe(str(params.token));
  else if (auth.type === 'apikey') expect([mine?.key, mine?.value, mine?.location]).toEqual([str(params.key), str(params.value), params.in === 'query' ? 'query' : 'header']);
  else if (!['oauth2', 'noauth', 'inherit'].includes(auth.type)) {
    for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && !notImported(auth.type, key)) expect(mine?.[key], `${auth.type}.${key}`).toEqual(value);
  }
}

describe('collection exports', () => {
  for (const rel of collections) {
    it(rel, async () => {
      const text = read(rel);
      if (rel.includes('v1-') || rel.includes('v999')) {
        await expect(convert(text, { label: rel })).rejects.toThrow(rel.includes('v1-') ? /v1 format.*v2\.1/ : /schema version 999\.0.*v2\.1/);
        return;
      }
      const doc = JSON.parse(text) as Obj;
      const source = doc.collection ?? doc;
      const result = await convert(text, { label: rel });
      expect(result.kind).toBe('postman');
      const counts = sourceCounts(source.item);
      const top = result.items[0]!;
      expect(top.type === 'folder' && top.name).toBe(source.info.name);

      // Sampled fields: method, URL, headers, body, auth, scripts of every request.
      const theirs = flatSource(source.item);
      const ours = flatImported(result.items);
      const sent = bodiesSent(source);
      expect(ours).toHaveLength(theirs.length);
      theirs.forEach((item, i) => {
        const req = typeof item.request === 'string' ? { url: item.request } : item.request ?? {};
        const mine = ours[i]!;
        expect(mine.name).toBe(item.name ?? 'Untitled request');
        expect(mine.method).toBe((req.method ?? 'GET').toUpperCase());
        // The URL Postman itself sends: its SDK builds it from the structured parts when there
        // are any (a stale `raw` loses), with the parameters switched off in `query` left out.
        if (req.url !== undefined) {
          // Path variables stay `:name` in Ferry (their values are the request's pathParams).
          // Tabs and line breaks in query parts: the SDK writes them as they are, its request layer sends them encoded.
          const structured = typeof req.url === 'string' ? req.url : new PostmanUrl({ ...req.url, variable: [] }).toString();
          const sent = typeof req.url === 'string' ? structured : structured.replace(/[\t\n\r]/g, (c: string) => encodeURIComponent(c));
          // `http://h?q` and `http://h/?q` are one URL (the SDK writes the empty path as `/`).
          const slash = (u: string) => u.replace(/^([a-z]+:\/\/[^/?#]*)(?=[?#]|$)/i, '$1/');
          if (typeof req.url === 'string' || req.url.host !== undefined || req.url.path !== undefined) expect(slash(mine.url), item.name).toBe(slash(sent));
          else if (req.url.raw !== undefined) expect(mine.url, item.name).toBe(req.url.raw);
        }
        if (Array.isArray(req.header)) {
          expect((mine.headers ?? []).map((h: Obj) => [h.key, h.value, h.enabled !== false])).toEqual(req.header.map((h: Obj) => [h.key, String(h.value ?? ''), h.disabled !== true]));
        }
        if (req.body?.mode && BODY_TYPES[req.body.mode]) {
          // A body Postman does not send (switched off, empty, or on a GET without
          // disableBodyPruning) is kept but not sent (type none). A file body without its file
          // stays binary: the import's note asks for the file.
          const fileToChoose = req.body.mode === 'file' && !req.body.file?.src && req.body.disabled !== true && mine.body?.type === 'binary';
          expect(sent[i] || fileToChoose ? BODY_TYPES[req.body.mode] : ['none']).toContain(mine.body?.type);
          expectSameBody(req.body, mine.body);
        }
        if (req.auth?.type) {
          const want = AUTH_TYPES[req.auth.type] ?? req.auth.type;
          if (want === 'inherit') expect(mine.auth).toBeUndefined();
          else expect(mine.auth?.type).toBe(want);
          expectSameAuthSettings(req.auth, mine.auth);
        }
        for (const event of item.event ?? []) {
          const code = Array.isArray(event.script?.exec) ? event.script.exec.join('\n') : event.script?.exec ?? '';
          if (!code.trim()) continue;
          if (event.listen === 'prerequest') expect(mine.scripts?.preRequest).toContain(code);
          if (event.listen === 'test') expect(mine.scripts?.postResponse).toContain(code);
        }
      });

      // Committed into a real workspace: the files read back with the same counts.
      const root = await initWorkspace(path.join(tmp, `ws-${path.basename(rel, '.json')}`));
      const workspace = await openWorkspace(root);
      const summary = await commitImport({ root, id: workspace.id }, result);
      expect(summary.requests).toBe(counts.requests);
      expect(summary.folders).toBe(counts.folders + 1);
      const reopened = await openWorkspace(root);
      expect(reopened.warnings).toEqual([]);
      const nodes = flatTree(reopened.tree).slice(1);
      expect(nodes.filter((n) => n.type === 'request')).toHaveLength(counts.requests);
      expect(nodes.filter((n) => n.type === 'folder')).toHaveLength(counts.folders + 1);
      const sourceVars = (source.variable ?? []).filter((v: Obj) => v.key ?? v.id);
      expect(summary.variables).toBe(new Set(sourceVars.map((v: Obj) => v.key ?? v.id)).size);
      // Order among siblings is kept.
      const importedRoot = reopened.tree.children[0] as FolderNode;
      expect(importedRoot.name).toBe(source.info.name);
      const names = importedRoot.children.map((c) => (c.type === 'request' ? c.request.name : c.type === 'folder' ? c.name : ''));
      expect(names).toEqual(source.item.map((i: Obj) => i.name ?? (Array.isArray(i.item) ? 'Untitled folder' : 'Untitled request')));
      // Nothing left in staging.
      expect((await fs.readdir(path.join(root, 'requests'))).filter((n) => n.startsWith('.'))).toEqual([]);
    });
  }
});

describe('environment exports', () => {
  for (const rel of environments) {
    it(rel, async () => {
      const text = read(rel);
      const doc = JSON.parse(text) as Obj | Obj[];
      const values = (Array.isArray(doc) ? doc : doc.values) as Obj[];
      const result: ImportResult = await convert(text, { label: rel, path: path.join(CORPUS, rel) });
      expect(result.kind).toBe(rel.includes('globals') ? 'globals' : 'environment');
      const env = result.environments[0]!;
      // Without a name: `Globals` (spec 4.3), an environment after its file (`env-missing-name`).
      const fileStem = path.basename(rel).replace(/\.postman_environment\.json$/, '');
      const expectedName = !Array.isArray(doc) && doc.name ? doc.name : rel.includes('globals') ? 'Globals' : fileStem;
      expect(env.name).toBe(expectedName);
      expect(env.variables.map((v) => v.key)).toEqual(values.map((v) => v.key));
      // Postman uses the last enabled row of a repeated key; the earlier ones come switched off.
      const on = (v: Obj) => !(v.enabled === false || v.disabled === true);
      const lastOn = new Map(values.flatMap((v, i) => (on(v) ? [[v.key, i] as const] : [])));
      values.forEach((v, i) => {
        const mine = env.variables[i]!;
        if (v.type === 'secret') {
          expect(mine.secret).toBe(true);
          expect(mine.value).toBe('');
        } else expect(mine.value).toBe(String(v.value ?? ''));
        expect(mine.enabled ?? true).toBe(on(v) && lastOn.get(v.key) === i);
      });

      const root = await initWorkspace(path.join(tmp, `env-${path.basename(rel, '.json')}`));
      const workspace = await openWorkspace(root);
      const summary = await commitImport({ root, id: workspace.id }, result);
      expect(summary.environments).toBe(1);
      const reopened = await openWorkspace(root);
      expect(reopened.environments).toHaveLength(1);
      const secrets = values.filter((v) => v.type === 'secret');
      const fileText = await fs.readFile(path.join(root, reopened.environments[0]!.file), 'utf8');
      for (const s of secrets) if (String(s.value ?? '').length > 2) expect(fileText).not.toContain(String(s.value));
      if (secrets.length > 0) {
        const { SecretStore, workspaceDataDir } = await import('../../src/appdata/index.js');
        const store = new SecretStore(workspaceDataDir(workspace.id, root));
        for (const s of secrets) expect(await store.get(reopened.environments[0]!.id, s.key)).toBe(String(s.value));
      }
    });
  }
});
