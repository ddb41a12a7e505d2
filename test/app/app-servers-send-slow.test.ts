/**
 * The traffic panel's send to a client that never reads (real sockets: a TCP client and a
 * WebSocket client paused from the start, beside one that reads). Each push is up to 1 MB; without
 * a bound every push to the paused client piled up in the app's memory. Now a client with more
 * than 1 MB waiting unsent is skipped, the answer says so (`note`, and a 409 when it was the only
 * one), the reading client gets every message, and the paused one gets sends again once it reads.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { ClientInfo, ServerSendDone, ServerView } from '../../src/app/shared/api.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { ApiClient, until } from './api-client.js';

const portOf = (url: string) => Number(new URL(url.replace(/^tcp:/, 'http:')).port);
/** One panel message just under the 1 MB a send may hold. */
const BIG = 'x'.repeat(1024 * 1024 - 16);

describe('ferry app API: the panel send and a client that does not read', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let client: ApiClient;

  beforeEach(async () => {
    ws = await makeWorkspace({
      'servers/raw.yaml': { name: 'Raw', kind: 'tcp', socket: { mode: 'manual' } },
      'servers/chat.yaml': { name: 'Chat', kind: 'websocket', websocket: { mode: 'manual' } },
    });
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
    client = new ApiClient(app.port);
    await client.login(app.token);
  });
  afterEach(async () => {
    await app.close();
    await ws.cleanup();
  });

  const start = async (id: string) => ((await client.call('POST', '/api/servers/start', { id })).body as ServerView[]).find((s) => s.id === id)!;
  const clientId = async (server: string, port: number) => ((await client.call('GET', `/api/servers/clients?id=${server}`)).body as ClientInfo[]).find((c) => c.id.endsWith(`:${port}`))!.id;

  /** Pushes BIG to all until a send skips a client; the answers, the last one skipping. */
  async function pushUntilSkipped(server: string): Promise<ServerSendDone[]> {
    const answers: ServerSendDone[] = [];
    for (let i = 0; i < 64; i++) {
      const answer = await client.call('POST', '/api/servers/send', { id: server, data: BIG });
      expect(answer.status, answer.text).toBe(200);
      answers.push(answer.body as ServerSendDone);
      if (answers.at(-1)!.notReading) return answers;
    }
    throw new Error('no send skipped the client that does not read');
  }

  it('TCP: the paused client is skipped past 1 MB waiting, the reading one gets every message; reading again, it is sent to again', async () => {
    const raw = await start('raw');
    let read = 0;
    const reader = net.connect(portOf(raw.url!), '127.0.0.1');
    reader.on('data', (d) => (read += d.length));
    const slow = net.connect(portOf(raw.url!), '127.0.0.1');
    slow.pause(); // never reads: what the server writes waits in the kernel, then in the server's socket
    await Promise.all([reader, slow].map((s) => new Promise<void>((resolve) => s.once('connect', () => resolve()))));
    await until('both clients listed', async () => ((await client.call('GET', '/api/servers/clients?id=raw')).body as unknown[]).length === 2);
    const slowId = await clientId('raw', slow.localPort!);

    const answers = await pushUntilSkipped('raw');
    const last = answers.at(-1)!;
    expect(last.sent).toBe(1);
    expect(last.notReading).toEqual([{ client: slowId, waitingBytes: expect.any(Number) }]);
    expect(last.notReading![0]!.waitingBytes).toBeGreaterThan(1024 * 1024);
    expect(last.note).toMatch(new RegExp(`^Not sent to every client: client ${slowId.replace(/\./g, '\\.')} does not read what it is sent \\(\\d+\\.\\d MB wait unsent for it\\)\\.$`));
    await until('every message at the reading client', () => read === answers.length * BIG.length);

    // To it alone: refused, saying why and what happens next.
    const refused = await client.call('POST', '/api/servers/send', { id: 'raw', to: slowId, data: 'hello' });
    expect(refused.status).toBe(409);
    expect((refused.body as { error: string }).error).toMatch(/^Not sent: client .* does not read what it is sent \(.* MB wait unsent for it\)\. It gets the next message once it has read what waits/);

    // Reading now: what waited arrives (bounded: the sends before the skip), and sends reach it again.
    let slowRead = 0;
    slow.on('data', (d) => (slowRead += d.length));
    slow.resume();
    await until('what waited read', () => slowRead >= (answers.length - 1) * BIG.length);
    expect((await client.call('POST', '/api/servers/send', { id: 'raw', to: slowId, data: 'hello' })).body).toEqual({ sent: 1 });
    await until('the hello too', () => slowRead === (answers.length - 1) * BIG.length + 'hello'.length);
    reader.destroy();
    slow.destroy();
  }, 60_000);

  it('WebSocket: a paused client is skipped the same way, the send saying so', async () => {
    const chat = await start('chat');
    let read = 0;
    const reader = new WebSocket(chat.url!.replace(/^http/, 'ws'));
    reader.on('message', (d) => (read += (d as Buffer).length));
    const slow = new WebSocket(chat.url!.replace(/^http/, 'ws'));
    await Promise.all([reader, slow].map((s) => new Promise<void>((resolve, reject) => { s.once('open', () => resolve()); s.once('error', reject); })));
    slow.pause();
    await until('both clients listed', async () => ((await client.call('GET', '/api/servers/clients?id=chat')).body as unknown[]).length === 2);
    const slowId = await clientId('chat', (slow as unknown as { _socket: net.Socket })._socket.localPort!);
    const answers = await pushUntilSkipped('chat');
    expect(answers.at(-1)).toMatchObject({ sent: 1, notReading: [{ client: slowId }] });
    await until('every message at the reading client', () => read === answers.length * BIG.length);
    reader.close();
    slow.terminate();
  }, 60_000);

  it('the relay: a paused relayed client is skipped the same way', async () => {
    const quiet = net.createServer(() => undefined); // the upstream: takes the connection, says nothing
    await new Promise<void>((resolve) => quiet.listen(0, '127.0.0.1', () => resolve()));
    await ws.write('servers/relay.yaml', { name: 'Relay', kind: 'tcpProxy', proxy: { target: `127.0.0.1:${(quiet.address() as net.AddressInfo).port}` } });
    await app.state.reload();
    const relay = await start('relay');
    let read = 0;
    const reader = net.connect(portOf(relay.url!), '127.0.0.1');
    reader.on('data', (d) => (read += d.length));
    const slow = net.connect(portOf(relay.url!), '127.0.0.1');
    slow.pause();
    await Promise.all([reader, slow].map((s) => new Promise<void>((resolve) => s.once('connect', () => resolve()))));
    await until('both clients listed', async () => ((await client.call('GET', '/api/servers/clients?id=relay')).body as unknown[]).length === 2);
    const slowId = await clientId('relay', slow.localPort!);
    const answers = await pushUntilSkipped('relay');
    expect(answers.at(-1)).toMatchObject({ sent: 1, notReading: [{ client: slowId }] });
    await until('every message at the reading client', () => read === answers.length * BIG.length);
    reader.destroy();
    slow.destroy();
    await new Promise<void>((resolve) => quiet.close(() => resolve()));
  }, 60_000);
});
