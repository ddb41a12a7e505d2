/**
 * Spec 7: a binary or multipart file outside the workspace folder is not usable unless Files
 * outside the workspace is on. The app's refusal says to turn it on with `ferry config set`; done
 * while the app is open (bin/ferry.js, its own process, on the same data folder), the next send
 * from the app uses it: the app's session reads this computer's settings again when they change.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { ApiClient } from './api-client.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/ferry.js');

describe('ferry app: ferry config set while the app is open', () => {
  let ws: TempWorkspace | undefined;
  let app: AppServer | undefined;
  let server: http.Server | undefined;
  afterEach(async () => {
    await app?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    await ws?.cleanup();
  });

  it('filesOutsideWorkspace turned on holds from the next send (the refusal named that command)', async () => {
    const received: string[] = [];
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString());
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const outside = await tempDir();
    const file = path.join(outside, 'data.bin');
    await fs.writeFile(file, 'hello from outside');
    ws = await makeWorkspace({ 'requests/Upload.yaml': { name: 'Upload', method: 'POST', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, body: { type: 'binary', file } } });
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
    const client = new ApiClient(app.port);
    await client.login(app.token);
    type Sent = { result: { passed: boolean; error?: string; status?: number } };

    const refused = (await client.call('POST', '/api/send', { path: 'Upload.yaml' })).body as Sent;
    expect(refused.result.error).toContain('lies outside the workspace folder');
    expect(refused.result.error).toContain('allow files outside it (⚙ Application settings: filesOutsideWorkspace on, or ferry config set filesOutsideWorkspace true)');
    expect(received).toEqual([]);

    await promisify(execFile)(process.execPath, [BIN, 'config', 'set', 'filesOutsideWorkspace', 'true'], { env: { ...process.env, FERRY_DATA_DIR: ws.dataDir } });
    const sent = (await client.call('POST', '/api/send', { path: 'Upload.yaml' })).body as Sent;
    expect(sent.result).toMatchObject({ passed: true, status: 200 });
    expect(received).toEqual(['hello from outside']);

    // Off again: refused again at the next send.
    await promisify(execFile)(process.execPath, [BIN, 'config', 'set', 'filesOutsideWorkspace', 'false'], { env: { ...process.env, FERRY_DATA_DIR: ws.dataDir } });
    expect(((await client.call('POST', '/api/send', { path: 'Upload.yaml' })).body as Sent).result.error).toContain('lies outside the workspace folder');

    // On in the app's Application settings (the place its refusal names first): the next send again.
    expect((await client.call('PUT', '/api/app-settings', { key: 'filesOutsideWorkspace', text: 'true' })).status).toBe(200);
    expect(((await client.call('POST', '/api/send', { path: 'Upload.yaml' })).body as Sent).result).toMatchObject({ passed: true, status: 200 });
    expect(received).toEqual(['hello from outside', 'hello from outside']);
  });
});
