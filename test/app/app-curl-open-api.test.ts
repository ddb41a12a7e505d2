/**
 * cURL "Open as new request" through the app's API: the pasted command comes back as a request
 * not written anywhere, with the path it is sent as; it sends before it is saved (the session's
 * unsaved request) and Save writes it through `POST /api/request`. Refusals are one clear line.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { SendResponse, UnsavedImport } from '../../src/app/shared/api.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { startResourceServer, type ResourceServer } from './token-servers.js';

describe('app API: cURL opened as a new unsaved request', () => {
  let resource: ResourceServer;
  let ws: TempWorkspace;
  let app: AppServer;
  let post: <T>(url: string, body: unknown) => Promise<{ status: number; body: T }>;

  beforeAll(async () => {
    resource = await startResourceServer();
    ws = await makeWorkspace({ 'requests/Team/_folder.yaml': { name: 'Team', auth: { type: 'bearer', token: 'folder-token' } } });
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root) });
    const login = await fetch(app.url, { redirect: 'manual' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    post = async <T>(url: string, body: unknown) => {
      const res = await fetch(`http://127.0.0.1:${app.port}${url}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as T };
    };
  });
  afterAll(async () => {
    await app?.close();
    await resource?.close();
    await ws?.cleanup();
  });

  it('gives the request without writing it; it sends in its folder; Save writes it', async () => {
    const before = await fs.readdir(path.join(ws.root, 'requests/Team'));
    const opened = await post<UnsavedImport>('/api/import/curl', { text: `curl ${resource.url}/users -H 'Accept: application/json'`, into: 'Team' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.folder).toBe('Team');
    expect(opened.body.path).toMatch(/^Team\/.+\.yaml$/);
    expect(opened.body.request.url).toBe(`${resource.url}/users`);
    expect(await fs.readdir(path.join(ws.root, 'requests/Team'))).toEqual(before);

    const sent = await post<SendResponse>('/api/send', { path: opened.body.path, request: opened.body.request });
    expect(sent.body.result.status).toBe(200);
    expect(resource.seen.at(-1)).toBe('Bearer folder-token'); // the folder's auth applies before saving

    const saved = await post<{ path: string }>('/api/request', { folder: opened.body.folder, request: opened.body.request });
    expect(saved.status).toBe(200);
    const text = await fs.readFile(path.join(ws.root, 'requests', saved.body.path), 'utf8');
    expect(text).toContain(`url: ${resource.url}/users`);
  });

  it('its path is the one Save gives: never an existing request\'s (the same command opened again), cut and cleaned as file names are (2.1.4)', async () => {
    const command = `curl ${resource.url}/again`;
    const first = await post<UnsavedImport>('/api/import/curl', { text: command, into: 'Team' });
    const saved = await post<{ path: string }>('/api/request', { folder: 'Team', request: first.body.request });
    expect(saved.body.path).toBe(first.body.path);
    // Opened again: it was given the saved file's path, so the page showed that request as the
    // one open, and Copy as code from its menu copied the unsaved one.
    const second = await post<UnsavedImport>('/api/import/curl', { text: command, into: 'Team' });
    expect(second.body.path).not.toBe(saved.body.path);
    expect(second.body.path).toBe(first.body.path.replace(/\.yaml$/, ' 2.yaml'));
    expect((await post<{ path: string }>('/api/request', { folder: 'Team', request: second.body.request })).body.path).toBe(second.body.path);

    // A long URL: the name is kept whole, the file name is cut to 80 characters, as Save cuts it.
    const long = await post<UnsavedImport>('/api/import/curl', { text: `curl ${resource.url}/${'segment/'.repeat(15)}end` });
    expect(long.body.request.name.length).toBeGreaterThan(100);
    const longSaved = await post<{ path: string }>('/api/request', { folder: '', request: long.body.request });
    expect(long.body.path).toBe(longSaved.body.path);
    expect(long.body.path.replace(/\.yaml$/, '')).toHaveLength(80);
  });

  it('refuses what is not a cURL command, an unknown folder, hostile input', async () => {
    const collection = await post<{ error: string }>('/api/import/curl', { text: JSON.stringify({ info: { name: 'C', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [] }) });
    expect(collection.status).toBe(400);
    expect(collection.body.error).toMatch(/not a cURL command; use Import for it\.$/);
    const folder = await post<{ error: string }>('/api/import/curl', { text: 'curl http://127.0.0.1:1/', into: '../../etc' });
    expect(folder.status).toBe(400);
    expect(folder.body.error).toBe('No folder "../../etc" under requests/; choose a folder that exists.');
    const junk = await post<{ error: string }>('/api/import/curl', { text: 'rm -rf /' });
    expect(junk.status).toBe(400);
    const wrongType = await post<{ error: string }>('/api/import/curl', { text: 42 });
    expect(wrongType.status).toBe(400);
    const huge = await post<UnsavedImport>('/api/import/curl', { text: `curl http://127.0.0.1:1/ -H 'X-Big: ${'a'.repeat(200_000)}'` });
    expect([200, 400, 413]).toContain(huge.status);
  });
});
