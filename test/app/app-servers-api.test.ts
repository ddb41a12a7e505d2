/**
 * The servers part of the app's API on real sockets (issue 26): the traffic panel's send to one
 * client or all (WebSocket, TCP, UDP, the relay, SSE) with `{{variables}}` filled, the decoded DNS
 * answers in the traffic, the server editor (saved through the workspace writer; bad YAML and
 * schema problems refused with their place, nothing written), new servers, and the autoStart rule
 * of 2.11 across app restarts. Peers are real: `ws` clients, TCP and UDP sockets, dns-packet.
 */
import dgram from 'node:dgram';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import dnsPacket from 'dns-packet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { io as connectSocketIo } from 'socket.io-client';
import WebSocket from 'ws';
import { KnownServers } from '../../src/appdata/index.js';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { ServerEditorView, ServerKindsView, ServerView, TrafficView } from '../../src/app/shared/api.js';
import { SERVER_KINDS } from '../../src/model/index.js';
import { startWorkspaceServers } from '../../src/servers/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { freePort } from '../support/servers/index.js';
import { ApiClient, until } from './api-client.js';

async function openApp(ws: TempWorkspace): Promise<{ app: AppServer; client: ApiClient }> {
  process.env.FERRY_DATA_DIR = ws.dataDir;
  const app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
  const client = new ApiClient(app.port);
  await client.login(app.token);
  return { app, client };
}

async function started(client: ApiClient, id: string): Promise<ServerView> {
  const answer = await client.call('POST', '/api/servers/start', { id });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as ServerView[]).find((s) => s.id === id)!;
}

/** A WebSocket client that keeps what it receives. */
async function wsClient(url: string): Promise<{ ws: WebSocket; got: string[] }> {
  const ws = new WebSocket(url);
  const got: string[] = [];
  ws.on('message', (data) => got.push(String(data)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, got };
}

const portOf = (url: string) => Number(new URL(url.replace(/^(tcp|udp|dns):/, 'http:')).port);

/**
 * A port another program holds, for a server to be refused and, once the test frees it, to bind:
 * from below the ephemeral range (freePort), so no other test's connection or listen(0) can take
 * it in between; listen(0)'s port could be.
 */
async function heldPort(): Promise<{ holder: net.Server; port: number }> {
  const holder = net.createServer();
  const port = await freePort();
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  return { holder, port };
}

/** The server `id` of `ws` as it is now, known on this computer (started or saved here before). */
async function knownHere(ws: TempWorkspace, id: string): Promise<void> {
  const opened = await openWorkspace(ws.root);
  await new KnownServers(opened.id, ws.root).remember(id, opened.servers.find((e) => e.id === id)!.value);
}

describe('ferry app API: servers (editors, send, DNS traffic, autoStart)', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let client: ApiClient;

  beforeEach(async () => {
    ws = await makeWorkspace(
      {
        'servers/chat.yaml': '# the chat test server\nname: Chat\nkind: websocket\nwebsocket:\n  mode: manual # the panel answers\n',
        'servers/raw.yaml': { name: 'Raw', kind: 'tcp', socket: { mode: 'manual', framing: 'line', lineEnding: 'lf' } },
        'servers/bytes.yaml': { name: 'Bytes', kind: 'udp', socket: { mode: 'manual', encoding: 'hex' } },
        'servers/names.yaml': { name: 'Names', kind: 'dns', dns: { records: [{ name: 'api.test', type: 'A', value: '127.0.0.9' }, { name: 'api.test', type: 'TXT', value: 'hello' }] } },
        'servers/ticks.yaml': { name: 'Ticks', kind: 'sse' },
        'servers/broken.yaml': 'name: [unclosed',
      },
      { variables: [{ key: 'who', value: 'Ada' }] },
    );
    ({ app, client } = await openApp(ws));
  });

  afterEach(async () => {
    await app.close();
    await ws.cleanup();
  });

  describe('send from the traffic panel', () => {
    it('WebSocket: a client message in the traffic, a send to that client (variables filled) and to all', async () => {
      const live = await client.live();
      const chat = await started(client, 'chat');
      expect(chat.sendForm).toEqual({ event: false, hex: false });
      const url = chat.url!;
      expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/); // what a WebSocket client is given
      const first = await wsClient(url);
      const second = await wsClient(url);
      first.ws.send('hello from the client');
      await until('the client message on the live channel', () =>
        live.events.some((e) => e.type === 'traffic' && e.records.some((r) => r.server === 'chat' && r.direction === 'in' && r.summary.includes('hello from the client'))));

      const clients = (await client.call('GET', '/api/servers/clients?id=chat')).body as { id: string; label: string }[];
      expect(clients).toHaveLength(2);
      // The first client's peer (its local port) is the id the panel sends to.
      const firstId = clients.find((c) => c.id.endsWith(`:${(first.ws as unknown as { _socket: net.Socket })._socket.localPort}`))!.id;
      const one = await client.call('POST', '/api/servers/send', { id: 'chat', to: firstId, data: 'hi {{who}} at {{$randomInt}}' });
      expect(one.body).toEqual({ sent: 1 });
      await until('the message at the first client', () => first.got.length === 1);
      expect(first.got[0]).toMatch(/^hi Ada at \d+$/);
      expect(second.got).toEqual([]);

      const all = await client.call('POST', '/api/servers/send', { id: 'chat', data: 'to all {{undefinedName}}' });
      expect(all.body).toEqual({ sent: 2 });
      await until('the message at both clients', () => first.got.length === 2 && second.got.length === 1);
      expect(second.got[0]).toBe('to all {{undefinedName}}');

      // A closed client: a clear refusal, nothing sent to the others.
      first.ws.close();
      await until('the client gone', async () => ((await client.call('GET', '/api/servers/clients?id=chat')).body as unknown[]).length === 1);
      const gone = await client.call('POST', '/api/servers/send', { id: 'chat', to: firstId, data: 'late' });
      expect(gone.status).toBe(409);
      expect((gone.body as { error: string }).error).toBe(`Client ${firstId} of server "chat" is no longer connected; nothing was sent. Pick another client or send to all.`);
      await new Promise((r) => setTimeout(r, 100));
      expect(second.got).toHaveLength(1);
      second.ws.close();
      live.close();
    });

    it('a secret value sent from the panel reaches the client, and the traffic shows it as ***', async () => {
      expect((await client.call('PUT', '/api/workspace/variables', { variables: [{ key: 'who', value: 'Ada' }, { key: 'apiKey', value: 'S3CRET-APIKEY-42', secret: true }] })).status).toBe(200);
      const live = await client.live();
      const chat = await started(client, 'chat');
      const peer = await wsClient(chat.url!.replace(/^http/, 'ws'));
      await until('the client listed', async () => ((await client.call('GET', '/api/servers/clients?id=chat')).body as unknown[]).length === 1);
      expect((await client.call('POST', '/api/servers/send', { id: 'chat', data: 'key={{apiKey}}' })).body).toEqual({ sent: 1 });
      await until('the message at the client', () => peer.got.length === 1);
      expect(peer.got[0]).toBe('key=S3CRET-APIKEY-42');
      // The client echoes it back too: masked in both directions, on the live channel and in the list.
      peer.ws.send('you said S3CRET-APIKEY-42');
      await until('the echo in the traffic', async () => ((await client.call('GET', '/api/servers/traffic')).body as TrafficView[]).some((r) => r.direction === 'in' && r.summary.includes('you said')));
      const traffic = JSON.stringify((await client.call('GET', '/api/servers/traffic')).body);
      expect(traffic).toContain('key=***');
      expect(traffic).toContain('you said ***');
      expect(traffic).not.toContain('S3CRET-APIKEY-42');
      expect(JSON.stringify(live.events)).not.toContain('S3CRET-APIKEY-42');
      peer.ws.close();
      live.close();
    });

    it('TCP (line framing) and UDP (hex): a send reaches the socket as the kind frames it', async () => {
      const raw = await started(client, 'raw');
      const socket = net.connect(portOf(raw.url!), '127.0.0.1');
      let received = '';
      socket.on('data', (d) => (received += d.toString()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      await until('the TCP client listed', async () => ((await client.call('GET', '/api/servers/clients?id=raw')).body as unknown[]).length === 1);
      expect((await client.call('POST', '/api/servers/send', { id: 'raw', data: 'hey {{who}}' })).body).toEqual({ sent: 1 });
      await until('the line at the TCP client', () => received === 'hey Ada\n');
      socket.destroy();

      const bytes = await started(client, 'bytes');
      expect(bytes.sendForm).toEqual({ event: false, hex: true });
      const udp = dgram.createSocket('udp4');
      const got: Buffer[] = [];
      udp.on('message', (m) => got.push(m));
      await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', () => resolve()));
      udp.send(Buffer.from([1, 2]), portOf(bytes.url!), '127.0.0.1');
      await until('the UDP peer known', async () => ((await client.call('GET', '/api/servers/clients?id=bytes')).body as unknown[]).length === 1);
      expect((await client.call('POST', '/api/servers/send', { id: 'bytes', data: '48 69' })).body).toEqual({ sent: 1 });
      await until('the datagram', () => got.length === 1);
      expect([...got[0]!]).toEqual([0x48, 0x69]);
      // Hex that is not hex: refused with the reason, nothing sent.
      const bad = await client.call('POST', '/api/servers/send', { id: 'bytes', data: 'zz top' });
      expect(bad.status).toBe(400);
      expect((bad.body as { error: string }).error).toMatch(/the message.*hex/i);
      udp.close();
    });

    it('the relay: both directions in the traffic, and a send reaches the relayed client', async () => {
      const echo = net.createServer((s) => s.pipe(s));
      await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
      await ws.write('servers/relay.yaml', { name: 'Relay', kind: 'tcpProxy', proxy: { target: `127.0.0.1:${(echo.address() as net.AddressInfo).port}` } });
      await app.state.reload();
      const relay = await started(client, 'relay');
      const socket = net.connect(portOf(relay.url!), '127.0.0.1');
      let received = '';
      socket.on('data', (d) => (received += d.toString()));
      socket.write('ping');
      await until('the echo through the relay', () => received === 'ping');
      const traffic = async () => ((await client.call('GET', '/api/servers/traffic')).body as TrafficView[]).filter((t) => t.server === 'relay');
      await until('both directions recorded', async () => {
        const rows = await traffic();
        return rows.some((t) => t.direction === 'in' && t.summary.includes('"ping"')) && rows.some((t) => t.direction === 'out' && t.summary.includes('"ping"'));
      });
      expect((await client.call('POST', '/api/servers/send', { id: 'relay', data: '+{{who}}' })).body).toEqual({ sent: 1 });
      await until('the panel text at the client', () => received === 'ping+Ada');
      expect((await traffic()).some((t) => t.note === 'sent from the app' && t.summary.includes('"+Ada"'))).toBe(true);
      socket.destroy();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    });

    it('SSE: an event with a name to every open stream', async () => {
      const ticks = await started(client, 'ticks');
      expect(ticks.sendForm).toEqual({ event: true, hex: false });
      const controller = new AbortController();
      const response = await fetch(`${ticks.url}/stream?user=grace`, { signal: controller.signal });
      const reader = response.body!.getReader();
      await until('the stream listed', async () => ((await client.call('GET', '/api/servers/clients?id=ticks')).body as unknown[]).length === 1);
      const sent = await client.call('POST', '/api/servers/send', { id: 'ticks', event: 'note', data: 'for {{request.query.user}} from {{who}}' });
      expect(sent.body).toEqual({ sent: 1 });
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toBe('event: note\ndata: for grace from Ada\n\n');
      controller.abort();
    });

    it('Socket.IO: an event with JSON arguments to one socket (by id), not the other', async () => {
      await ws.write('servers/rooms.yaml', { name: 'Rooms', kind: 'socketio', socketio: { mode: 'manual' } });
      await app.state.reload();
      const rooms = await started(client, 'rooms');
      expect(rooms.sendForm).toEqual({ event: true, hex: false });
      const connect = async () => {
        const socket = connectSocketIo(rooms.url!, { transports: ['websocket'], reconnection: false });
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        return socket;
      };
      const [first, second] = [await connect(), await connect()];
      const got: unknown[][] = [];
      first.on('news', (...args: unknown[]) => got.push(args));
      second.on('news', (...args: unknown[]) => got.push(['second', ...args]));
      const listed = (await client.call('GET', '/api/servers/clients?id=rooms')).body as { id: string; label: string }[];
      expect(listed.map((c) => c.id).sort()).toEqual([first.id, second.id].sort());
      const sent = await client.call('POST', '/api/servers/send', { id: 'rooms', to: first.id, event: 'news', data: '[{"for": "{{who}}"}, 2]' });
      expect(sent.body).toEqual({ sent: 1 });
      await until('the event at the first socket', () => got.length === 1);
      expect(got).toEqual([[{ for: 'Ada' }, 2]]);
      first.close();
      second.close();
    });

    it('refuses an unknown server, one not running, a kind that cannot send, no clients, bad input', async () => {
      const expectError = async (body: unknown, status: number, message: RegExp) => {
        const answer = await client.call('POST', '/api/servers/send', body);
        expect(answer.status, answer.text).toBe(status);
        expect((answer.body as { error: string }).error).toMatch(message);
      };
      await expectError({ id: 'nope', data: 'x' }, 404, /^No server "nope": there is no servers\/nope\.yaml\.$/);
      await expectError({ id: 'chat', data: 'x' }, 409, /^Server "chat" is not running: start it first\.$/);
      await started(client, 'chat');
      await expectError({ id: 'chat', data: 'x' }, 409, /^Server "chat" has no connected clients; nothing was sent\.$/);
      await started(client, 'names');
      await expectError({ id: 'names', data: 'x' }, 400, /is a dns server: it answers requests and cannot send to clients/);
      await expectError({ id: 'chat' }, 400, /"data" is missing/);
      await expectError({ id: 'chat', data: 42 }, 400, /"data" is missing \(a string is expected\)/);
      await expectError({ id: 'chat', data: 'x'.repeat(1024 * 1024 + 1) }, 413, /over 1 MB; nothing was sent/);
      expect((await client.call('GET', '/api/servers/clients?id=nope')).status).toBe(404);
      const notJson = await client.call('POST', '/api/servers/send', undefined, '{"id": "chat",');
      expect(notJson.status).toBe(400);
    });
  });

  it('DNS: each query in the traffic with its question and decoded answer records', async () => {
    const names = await started(client, 'names');
    const udp = dgram.createSocket('udp4');
    const answer = new Promise<Buffer>((resolve) => udp.once('message', (m) => resolve(m)));
    udp.send(dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'api.test' }] }), portOf(names.url!), '127.0.0.1');
    expect(dnsPacket.decode(await answer).answers?.[0]).toMatchObject({ name: 'api.test', type: 'A', data: '127.0.0.9' });
    udp.close();
    const row = await until('the DNS record', async () => ((await client.call('GET', '/api/servers/traffic')).body as TrafficView[]).find((t) => t.server === 'names'));
    expect(row.summary).toBe('A api.test → NOERROR, 1 answer (udp)');
    expect(row.detail).toMatchObject({ name: 'api.test', type: 'A', rcode: 'NOERROR', transport: 'udp', records: ['api.test 60 IN A 127.0.0.9'] });
  });

  it('MCP: each call in the traffic with its method, target and outcome', async () => {
    await ws.write('servers/tools.yaml', { name: 'Tools', kind: 'mcp', mcp: { tools: [{ name: 'greet', result: 'hello {{args.name}}' }] } });
    await app.state.reload();
    const tools = await started(client, 'tools');
    const mcp = new McpClient({ name: 'ferry-test', version: '1.0.0' });
    // The panel shows the endpoint itself (`…/mcp`), the URL an MCP client is given.
    expect(tools.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await mcp.connect(new StreamableHTTPClientTransport(new URL(tools.url!)));
    expect(await mcp.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
    await mcp.close();
    const row = await until('the tool call record', async () => ((await client.call('GET', '/api/servers/traffic')).body as TrafficView[]).find((t) => t.server === 'tools' && t.summary.startsWith('tools/call')));
    expect(row.summary).toBe('tools/call greet → ok');
    expect(row.detail).toMatchObject({ method: 'tools/call', target: 'greet', outcome: 'ok' });
  });

  describe('the server editor', () => {
    const chatFile = () => path.join(ws.root, 'servers/chat.yaml');

    it('reads the common fields and the section as YAML; a save edits the file in place and the running server follows', async () => {
      const view = (await client.call('GET', '/api/server?id=chat')).body as ServerEditorView;
      // The section as the file has it, its comment too.
      expect(view).toMatchObject({ id: 'chat', file: 'servers/chat.yaml', section: 'websocket', sectionYaml: 'mode: manual # the panel answers\n' });
      expect(view.sections).toMatchObject({ tcp: 'socket', udp: 'socket', tcpProxy: 'proxy', dns: 'dns' });
      const chat = await started(client, 'chat');
      const sectionYaml = 'mode: rules\nrules:\n  - match: exact\n    pattern: ping\n    reply: pong {{who}} {{message}}\n';
      const saved = await client.call('PUT', '/api/server', { id: 'chat', server: { ...view.server, autoStart: true }, sectionYaml });
      expect(saved.status, saved.text).toBe(200);
      expect((saved.body as ServerEditorView & { warning?: string }).warning).toBeUndefined();
      const text = await fs.readFile(chatFile(), 'utf8');
      // Written through the workspace writer: the comment on the first line stays, the new fields are there.
      expect(text).toBe('# the chat test server\nname: Chat\nkind: websocket\nautoStart: true\nwebsocket:\n  mode: rules\n  rules:\n    - match: exact\n      pattern: ping\n      reply: pong {{who}} {{message}}\n');
      expect((await openWorkspace(ws.root)).servers.find((s) => s.id === 'chat')!.value.websocket).toMatchObject({ mode: 'rules', rules: [{ match: 'exact', pattern: 'ping', reply: 'pong {{who}} {{message}}' }] });
      // The running server took the new rules without a restart.
      const peer = await wsClient(chat.url!.replace(/^http/, 'ws'));
      peer.ws.send('ping');
      await until('the rule reply', () => peer.got.length === 1);
      expect(peer.got[0]).toBe('pong Ada ping');
      peer.ws.close();
    });

    it("a save carries the server as the editor read it: an edit made outside meanwhile is a 409 with the file's version, never overwritten", async () => {
      const view = (await client.call('GET', '/api/server?id=chat')).body as ServerEditorView;
      // Another editor changes the file before the app has read the folder again.
      const outside = `${await fs.readFile(chatFile(), 'utf8')}  greeting: hello from outside\n`;
      await fs.writeFile(chatFile(), outside);
      const mine = { id: 'chat', server: { ...view.server, name: 'Chat room' }, sectionYaml: view.sectionYaml };
      const refused = await client.call('PUT', '/api/server', { ...mine, base: view.server });
      expect(refused.status).toBe(409);
      expect((refused.body as { error: string }).error).toBe('servers/chat.yaml changed on disk since the app read it; nothing was saved.');
      const current = (refused.body as { current: ServerEditorView }).current;
      expect(current.sectionYaml).toBe('mode: manual # the panel answers\ngreeting: hello from outside\n');
      expect(await fs.readFile(chatFile(), 'utf8')).toBe(outside);
      // Saved over the version the refusal gave: written, with the other editor's section kept.
      const saved = await client.call('PUT', '/api/server', { ...mine, sectionYaml: current.sectionYaml, base: current.server });
      expect(saved.status, saved.text).toBe(200);
      // Its new name renamed its file (2.1.4).
      expect(saved.body).toMatchObject({ id: 'Chat room', file: 'servers/Chat room.yaml' });
      expect(await fs.readFile(path.join(ws.root, 'servers/Chat room.yaml'), 'utf8')).toBe(outside.replace('name: Chat\n', 'name: Chat room\n'));
      await expect(fs.stat(chatFile())).rejects.toThrow(/ENOENT/);
    });

    it('a new name renames the file, so the id (2.1.4): a running server starts again under it, and this computer knows it by it', async () => {
      const view = (await client.call('GET', '/api/server?id=raw')).body as ServerEditorView;
      const raw = await started(client, 'raw');
      // Traffic before the rename: shown under the new id after it, as a load test's history follows it.
      const before = net.connect(portOf(raw.url!), '127.0.0.1');
      await new Promise<void>((resolve, reject) => before.once('connect', resolve).once('error', reject));
      before.write('hello\n');
      const trafficOf = async (id: string) => ((await client.call('GET', '/api/servers/traffic')).body as TrafficView[]).filter((t) => t.server === id);
      await until('the traffic of raw', async () => (await trafficOf('raw')).length > 0);
      before.destroy();
      const earlier = (await trafficOf('raw')).length;
      const saved = await client.call('PUT', '/api/server', { id: 'raw', server: { ...view.server, name: 'Raw lines' }, sectionYaml: view.sectionYaml });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body).toMatchObject({ id: 'Raw lines', file: 'servers/Raw lines.yaml', server: { name: 'Raw lines' } });
      expect((saved.body as { warning?: string }).warning).toBeUndefined();
      const names = await fs.readdir(path.join(ws.root, 'servers'));
      expect(names).toContain('Raw lines.yaml');
      expect(names).not.toContain('raw.yaml');
      const list = (await client.call('GET', '/api/servers')).body as ServerView[];
      expect(list.some((s) => s.id === 'raw')).toBe(false);
      const renamed = list.find((s) => s.id === 'Raw lines')!;
      expect(renamed).toMatchObject({ name: 'Raw lines', running: true });
      // The old one stopped (its port free or reused), the new one answers on its own.
      const socket = net.connect(portOf(renamed.url!), '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      await until('the client in the panel', async () => ((await client.call('GET', '/api/servers/clients?id=Raw%20lines')).body as unknown[]).length === 1);
      socket.destroy();
      expect((await client.call('GET', '/api/servers/clients?id=raw')).status).toBe(404);
      if (portOf(raw.url!) !== portOf(renamed.url!)) {
        const old = net.connect(portOf(raw.url!), '127.0.0.1');
        await expect(new Promise((resolve, reject) => old.once('connect', resolve).once('error', reject))).rejects.toThrow(/ECONNREFUSED/);
      }
      expect(await trafficOf('raw')).toEqual([]);
      expect((await trafficOf('Raw lines')).length).toBeGreaterThanOrEqual(earlier);
      // autoStart's record (2.11) moved to the new id.
      const known = new KnownServers(app.state.workspace.id, ws.root);
      const config = (await openWorkspace(ws.root)).servers.find((s) => s.id === 'Raw lines')!.value;
      expect(await known.isKnown('Raw lines', config)).toBe(true);
      expect(await known.isKnown('raw', view.server)).toBe(false);
    });

    it('refuses YAML that does not parse and fields the schema refuses, at their place; nothing is written', async () => {
      const before = await fs.readFile(chatFile(), 'utf8');
      const view = (await client.call('GET', '/api/server?id=chat')).body as ServerEditorView;
      const put = (body: Record<string, unknown>) => client.call('PUT', '/api/server', { id: 'chat', server: view.server, ...body });

      const syntax = await put({ sectionYaml: 'mode: echo\nrules: [unclosed\n' });
      expect(syntax.status).toBe(400);
      expect(syntax.body).toMatchObject({ line: 3 });
      expect((syntax.body as { error: string }).error).toMatch(/^servers\/chat\.yaml: websocket: the YAML does not parse \(line 3, column \d+\): .+; nothing was saved\.$/);

      const schema = await put({ sectionYaml: 'greeting: hi\nrules:\n  - pattern: a\n    match: sometimes\n' });
      expect(schema.status).toBe(400);
      expect(schema.body).toMatchObject({ line: 4, column: 12 });
      expect((schema.body as { error: string }).error).toBe(
        'servers/chat.yaml: websocket.rules[0].match: expected one of any, contains, exact, regex, got text "sometimes" (line 4, column 12); nothing was saved.',
      );

      const list = await put({ sectionYaml: '- mode: echo\n' });
      expect((list.body as { error: string }).error).toMatch(/websocket: expected the fields of the section \(a mapping\), got a list; nothing was saved\./);

      const port = await put({ server: { ...view.server, port: 70000 }, sectionYaml: '' });
      expect(port.status).toBe(400);
      expect(port.body).toMatchObject({ field: 'port', error: 'servers/chat.yaml: port: must be at most 65535; nothing was saved.' });

      const kind = await put({ server: { ...view.server, kind: 'ftp' }, sectionYaml: '' });
      expect(kind.body).toMatchObject({ field: 'kind' });
      const name = await put({ server: { ...view.server, name: '' }, sectionYaml: '' });
      expect(name.status).toBe(400);
      expect(name.body).toMatchObject({ field: 'name' });
      const huge = await put({ sectionYaml: `greeting: "${'x'.repeat(5 * 1024 * 1024)}"\n` });
      expect((huge.body as { error: string }).error).toMatch(/over 5 MB; nothing was saved/);
      expect((await client.call('PUT', '/api/server', { id: 'chat', sectionYaml: 7 })).status).toBe(400);

      expect(await fs.readFile(chatFile(), 'utf8')).toBe(before);
    });

    it('refuses unknown, broken and hostile ids; saves with a warning when the kind would refuse the settings', async () => {
      expect((await client.call('GET', '/api/server?id=nope')).status).toBe(404);
      const broken = await client.call('GET', '/api/server?id=broken');
      expect(broken.status).toBe(400);
      expect((broken.body as { error: string }).error).toMatch(/servers\/broken\.yaml.*fix the file in a text editor/);
      expect((await client.call('PUT', '/api/server', { id: '../ferry', server: { name: 'x' }, sectionYaml: '' })).status).toBe(404);
      expect((await client.call('PUT', '/api/server', { id: 'broken', server: { name: 'x' }, sectionYaml: '' })).status).toBe(400);
      expect(await fs.readFile(path.join(ws.root, 'servers/broken.yaml'), 'utf8')).toBe('name: [unclosed');

      // A regex the rules cannot compile passes the schema (it is text) but would not start: saved, with the reason.
      const view = (await client.call('GET', '/api/server?id=chat')).body as ServerEditorView;
      const saved = await client.call('PUT', '/api/server', { id: 'chat', server: view.server, sectionYaml: 'mode: rules\nrules:\n  - match: regex\n    pattern: "("\n' });
      expect(saved.status).toBe(200);
      expect((saved.body as { warning?: string }).warning).toMatch(/servers\/chat\.yaml:\d+:\d+: websocket\.rules\[0\]/);
    });

    it('comments typed in the section are written where they were typed and shown the next time; an unchanged save writes nothing', async () => {
      const file = path.join(ws.root, 'servers/notes.yaml');
      await fs.writeFile(file, '# notes server\r\nname: Notes\r\nkind: tcp\r\nsocket:\r\n  mode: echo\r\n# after the section\r\nport: 0\r\n');
      await app.state.reload();
      const view = (await client.call('GET', '/api/server?id=notes')).body as ServerEditorView;
      expect(view.sectionYaml).toBe('mode: echo\n');
      const typed = '# answers by rule\nmode: rules # was echo\nrules:\n  # the health check\n  - match: exact\n    pattern: ping\n    reply: pong\n';
      const saved = await client.call('PUT', '/api/server', { id: 'notes', server: view.server, sectionYaml: typed });
      expect(saved.status, saved.text).toBe(200);
      // In place of the block, indented as it was, with the file's CRLF line ends; the rest of the file untouched.
      const text = await fs.readFile(file, 'utf8');
      expect(text).toBe(
        '# notes server\r\nname: Notes\r\nkind: tcp\r\nsocket:\r\n  # answers by rule\r\n  mode: rules # was echo\r\n  rules:\r\n    # the health check\r\n    - match: exact\r\n      pattern: ping\r\n      reply: pong\r\n# after the section\r\nport: 0\r\n',
      );
      expect((await openWorkspace(ws.root)).servers.find((s) => s.id === 'notes')!.value.socket).toMatchObject({ mode: 'rules', rules: [{ match: 'exact', pattern: 'ping', reply: 'pong' }] });
      expect((saved.body as ServerEditorView).sectionYaml).toBe(typed);
      expect(((await client.call('GET', '/api/server?id=notes')).body as ServerEditorView).sectionYaml).toBe(typed);
      const { mtimeMs } = await fs.stat(file);
      await new Promise((r) => setTimeout(r, 20));
      expect((await client.call('PUT', '/api/server', { id: 'notes', server: view.server, sectionYaml: typed })).status).toBe(200);
      expect((await fs.stat(file)).mtimeMs).toBe(mtimeMs);

      // A section written as a flow map is saved through the writer: the values land, a typed comment cannot.
      await fs.writeFile(file, 'name: Notes\nkind: tcp\nsocket: {mode: rules}\n');
      await app.state.reload();
      expect(((await client.call('GET', '/api/server?id=notes')).body as ServerEditorView).sectionYaml).toBe('mode: rules\n');
      expect((await client.call('PUT', '/api/server', { id: 'notes', server: view.server, sectionYaml: '# lost\nmode: echo\ngreeting: hi\n' })).status).toBe(200);
      expect((await openWorkspace(ws.root)).servers.find((s) => s.id === 'notes')!.value.socket).toMatchObject({ mode: 'echo', greeting: 'hi' });
      expect(await fs.readFile(file, 'utf8')).not.toContain('# lost');
    });

    it('GET /api/server-kinds: what each kind says about itself, as the panel draws it, and the new-server picker', async () => {
      const answer = await client.call('GET', '/api/server-kinds');
      expect(answer.status, answer.text).toBe(200);
      const view = answer.body as ServerKindsView;
      expect(view.kinds.map((k) => k.kind)).toEqual([...SERVER_KINDS]);
      expect(view.kinds.find((k) => k.kind === 'tcpProxy')).toEqual({
        kind: 'tcpProxy', label: 'TCP relay', noun: 'relay', directions: { in: 'client → target', out: 'target → client' }, send: {}, sectionHint: 'target (host:port), upstreamTls',
      });
      expect(view.kinds.find((k) => k.kind === 'sse')).toMatchObject({ label: 'Server-sent events', directions: { in: 'from client', out: 'to client' }, send: { eventPlaceholder: 'event (empty = message)' } });
      // Kinds that answer requests only have no send.
      expect(view.kinds.filter((k) => !k.send).map((k) => k.kind)).toEqual(['http', 'mcp', 'dns']);
      expect(view.newServer).toEqual({ kinds: ['http', 'websocket', 'sse', 'socketio', 'mcp', 'tcp', 'udp', 'dns', 'tcpProxy'], picked: 'websocket' });
    });

    it('creates a server of any kind with the app port of its kind (2.11)', async () => {
      const made = await client.call('POST', '/api/server', { name: 'Name server', kind: 'dns' });
      expect(made.status, made.text).toBe(200);
      // The file name comes from the display name, as for requests and environments.
      expect(made.body).toMatchObject({ id: 'Name server', section: 'dns', server: { name: 'Name server', kind: 'dns', port: 1053 } });
      expect(await fs.readFile(path.join(ws.root, 'servers/Name server.yaml'), 'utf8')).toBe('name: Name server\nkind: dns\nport: 1053\n');
      expect((await client.call('GET', '/api/servers')).body).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'Name server', kind: 'dns', port: 1053 })]));
      // The whole list of 2.11, written out from the spec.
      const appPorts = { http: 3000, websocket: 3001, sse: 3002, socketio: 3003, mcp: 3004, tcp: 9000, udp: 9001, tcpProxy: 9100 };
      for (const [kind, port] of Object.entries(appPorts)) {
        const other = await client.call('POST', '/api/server', { name: `New ${kind}`, kind });
        expect(other.status, other.text).toBe(200);
        expect(other.body).toMatchObject({ server: { kind, port } });
      }
      expect((await client.call('POST', '/api/server', { name: 'X', kind: 'gopher' })).status).toBe(400);
      const unnamed = await client.call('POST', '/api/server', { name: '', kind: 'tcp' });
      expect(unnamed.status).toBe(400);
      expect(unnamed.body).toMatchObject({ field: 'name', error: expect.stringMatching(/^the new tcp server: name: .+; nothing was saved\.$/) });
      expect((await client.call('POST', '/api/server', { kind: 'tcp' })).status).toBe(400);
    });

    it("a new server takes its kind's app port unless a server file asks for it, then the next port none asks for", async () => {
      const make = async (name: string, kind: string) => {
        const made = await client.call('POST', '/api/server', { name, kind });
        expect(made.status, made.text).toBe(200);
        return (made.body as ServerEditorView).server.port;
      };
      const file = (name: string) => fs.readFile(path.join(ws.root, `servers/${name}.yaml`), 'utf8');
      // Two HTTP servers one after the other: 3000, then 3001 (the workspace's other servers ask for any free port).
      expect(await make('First', 'http')).toBe(3000);
      expect(await make('Second', 'http')).toBe(3001);
      expect(await file('First')).toBe('name: First\nport: 3000\n');
      expect(await file('Second')).toBe('name: Second\nport: 3001\n');
      // Every kind: a WebSocket server's 3001 is Second's now.
      expect(await make('Socket', 'websocket')).toBe(3002);
      expect(await file('Socket')).toBe('name: Socket\nkind: websocket\nport: 3002\n');
      // A file written outside the app counts, even one that does not read yet (it will ask for its port once fixed).
      await fs.writeFile(path.join(ws.root, 'servers/draft.yaml'), 'name: Draft\nkind: http\nport: 3003\nhttp:\n  routes:\n    - path: no-slash\n');
      await until('the draft listed with its error', async () => ((await client.call('GET', '/api/servers')).body as ServerView[]).some((s) => s.id === 'draft' && s.error));
      expect(await make('Events', 'sse')).toBe(3004);
      // Made at the same time, two TCP servers still get two ports.
      const both = await Promise.all([make('Raw one', 'tcp'), make('Raw two', 'tcp')]);
      expect(both.sort((a, b) => a - b)).toEqual([9000, 9001]);
      expect([await file('Raw one'), await file('Raw two')].sort()).toEqual(['name: Raw one\nkind: tcp\nport: 9000\n', 'name: Raw two\nkind: tcp\nport: 9001\n']);
    });
  });
});

/** servers/probe.yaml: a TCP server on a port held by another program, so each start of it is refused. */
const probeFile = (port: number, autoStart: boolean) => ({ name: 'Probe', kind: 'tcp', autoStart, port, socket: { greeting: 'probe' } });

/**
 * Saves servers/probe.yaml again as it is (`probe` refused its held port and waits for a save to
 * retry) and waits for the retry's refusal in the list: proof that a save of another server file
 * just before it was acted on, where a fixed sleep could end first on a loaded machine. The
 * autoStart pass watches both files with one watch whose actions run one after another
 * (settled-watch.ts), so the probe's comes second; a Start by hand's own watch sees the same
 * changes in the same order, each settled as long.
 */
async function probeSavedAfter(ws: TempWorkspace, list: () => Promise<ServerView[]>, port: number, autoStart: boolean): Promise<void> {
  await ws.write('servers/probe.yaml', probeFile(port, autoStart));
  await until('the probe\'s save to be retried and refused', async () => /^server probe did not start: .*already in use.*Save the file again to retry\./.test((await list()).find((r) => r.id === 'probe')?.startError ?? ''));
}

describe('ferry app API: the autoStart rule (2.11)', () => {
  let ws: TempWorkspace;
  let opened: { app: AppServer; client: ApiClient } | undefined;
  const list = async () => (await opened!.client.call('GET', '/api/servers')).body as ServerView[];
  const reopen = async () => {
    await opened?.app.close();
    opened = await openApp(ws);
  };

  beforeEach(async () => {
    ws = await makeWorkspace({
      'servers/auto.yaml': { name: 'Auto', kind: 'tcp', autoStart: true, socket: { greeting: 'hello' } },
      'servers/manual.yaml': { name: 'Manual', kind: 'udp' },
    });
  });

  afterEach(async () => {
    await opened?.app.close();
    opened = undefined;
    await ws.cleanup();
  });

  it('a configuration never started here waits; once started by hand it starts by itself; changed outside Ferry it waits again; saved in the app it starts', async () => {
    await reopen();
    let rows = await list();
    expect(rows.find((r) => r.id === 'auto')).toMatchObject({ running: false, autoStart: true });
    expect(rows.find((r) => r.id === 'auto')!.waiting).toMatch(/^autoStart is on, but this computer has not started or saved this configuration before/);
    expect(rows.find((r) => r.id === 'manual')).toMatchObject({ running: false, autoStart: false });
    expect(rows.find((r) => r.id === 'manual')!.waiting).toBeUndefined();

    // Started by hand: remembered in the data folder (never in the workspace).
    await started(opened!.client, 'auto');
    expect(await fs.readdir(path.join(ws.root, 'servers'))).toEqual(['auto.yaml', 'manual.yaml']);
    await reopen();
    rows = await list();
    const auto = rows.find((r) => r.id === 'auto')!;
    expect(auto).toMatchObject({ running: true });
    expect(auto.waiting).toBeUndefined();
    // It really listens: the greeting arrives.
    const socket = net.connect(portOf(auto.url!), '127.0.0.1');
    const greeting = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
    expect(greeting).toBe('hello');
    socket.destroy();

    // Changed outside Ferry (a pull, an editor): not started by itself.
    await ws.write('servers/auto.yaml', { name: 'Auto', kind: 'tcp', autoStart: true, socket: { greeting: 'changed' } });
    await reopen();
    expect((await list()).find((r) => r.id === 'auto')).toMatchObject({ running: false, waiting: expect.stringMatching(/changed outside Ferry/) });

    // Saved in the app's editor: this computer made that configuration, so it starts next time.
    const view = (await opened!.client.call('GET', '/api/server?id=auto')).body as ServerEditorView;
    const saved = await opened!.client.call('PUT', '/api/server', { id: 'auto', server: view.server, sectionYaml: 'greeting: saved here\n' });
    expect(saved.status, saved.text).toBe(200);
    await reopen();
    expect((await list()).find((r) => r.id === 'auto')).toMatchObject({ running: true });
  });

  it('an autoStart server whose port was taken starts when its file is saved in the app, as `ferry serve` does; stopped by hand it stays stopped', async () => {
    process.env.FERRY_DATA_DIR = ws.dataDir;
    const { holder, port } = await heldPort();
    const probe = await heldPort();
    await ws.write('servers/auto.yaml', { name: 'Auto', kind: 'tcp', autoStart: true, port, socket: { greeting: 'hello' } });
    await ws.write('servers/probe.yaml', probeFile(probe.port, true));
    await knownHere(ws, 'auto');
    await knownHere(ws, 'probe');
    try {
      await reopen();
      expect((await list()).find((r) => r.id === 'auto')).toMatchObject({ running: false, startError: expect.stringMatching(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use by another program`)) });
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      // Saved in the app's editor: the server starts, and answers.
      const view = (await opened!.client.call('GET', '/api/server?id=auto')).body as ServerEditorView;
      const saved = await opened!.client.call('PUT', '/api/server', { id: 'auto', server: view.server, sectionYaml: 'greeting: saved here\n' });
      expect(saved.status, saved.text).toBe(200);
      await until('auto to start after the save', async () => (await list()).find((r) => r.id === 'auto')!.running);
      const row = (await list()).find((r) => r.id === 'auto')!;
      expect(row.startError).toBeUndefined();
      const socket = net.connect(portOf(row.url!), '127.0.0.1');
      expect(await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())))).toBe('saved here');
      socket.destroy();
      // Stopped by hand, then saved: it stays stopped (the user's choice), as a running server's edit does not start it either.
      // Saved as this computer knows it (a changed one would wait for a start by hand whatever the stop said).
      await opened!.client.call('POST', '/api/servers/stop', { id: 'auto' });
      await ws.write('servers/auto.yaml', { name: 'Auto', kind: 'tcp', autoStart: true, port, socket: { greeting: 'saved here' } });
      await probeSavedAfter(ws, list, probe.port, true);
      expect((await list()).find((r) => r.id === 'auto')).toMatchObject({ running: false });
    } finally {
      holder.close();
      probe.holder.close();
    }
  });

  it('a Start by hand that failed (its port in use) is tried again when the file is saved; a failed retry shows its error; stopped by hand it stays stopped', async () => {
    process.env.FERRY_DATA_DIR = ws.dataDir;
    const { holder, port } = await heldPort();
    const probe = await heldPort();
    await ws.write('servers/manual.yaml', { name: 'Manual', kind: 'tcp', port, socket: { greeting: 'first' } });
    await ws.write('servers/probe.yaml', probeFile(probe.port, false));
    try {
      await reopen();
      // Refused its port, the probe waits for a save to retry (probeSavedAfter).
      expect((await opened!.client.call('POST', '/api/servers/start', { id: 'probe' })).status).toBe(400);
      const refused = await opened!.client.call('POST', '/api/servers/start', { id: 'manual' });
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use by another program`));
      expect((await list()).find((r) => r.id === 'manual')).toMatchObject({ running: false, startError: expect.stringMatching(/already in use/) });

      // Saved while the port is still taken: tried again, and the row says why it failed again.
      await ws.write('servers/manual.yaml', { name: 'Manual', kind: 'tcp', port, socket: { greeting: 'second' } });
      await until('the retry to fail', async () => /did not start: .*already in use.*Save the file again to retry\./.test((await list()).find((r) => r.id === 'manual')!.startError ?? ''));

      // The port freed, the fix saved (in any editor): the server starts, with the file's settings.
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      await ws.write('servers/manual.yaml', { name: 'Manual', kind: 'tcp', port, socket: { greeting: 'saved' } });
      await until('manual to start after the save', async () => (await list()).find((r) => r.id === 'manual')!.running);
      const row = (await list()).find((r) => r.id === 'manual')!;
      expect(row.startError).toBeUndefined();
      const socket = net.connect(port, '127.0.0.1');
      expect(await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())))).toBe('saved');
      socket.destroy();

      // Stopped by hand, then saved: it stays stopped.
      await opened!.client.call('POST', '/api/servers/stop', { id: 'manual' });
      await ws.write('servers/manual.yaml', { name: 'Manual', kind: 'tcp', port, socket: { greeting: 'again' } });
      await probeSavedAfter(ws, list, probe.port, false);
      expect((await list()).find((r) => r.id === 'manual')).toMatchObject({ running: false });
      // And Start by hand works again.
      expect((await opened!.client.call('POST', '/api/servers/start', { id: 'manual' })).status).toBe(200);
      expect((await list()).find((r) => r.id === 'manual')).toMatchObject({ running: true });
    } finally {
      holder.close();
    }
  });

  it('an autoStart server that failed, then started and stopped by hand, stays stopped when its file is saved', async () => {
    process.env.FERRY_DATA_DIR = ws.dataDir;
    const { holder, port } = await heldPort();
    const probe = await heldPort();
    await ws.write('servers/auto.yaml', { name: 'Auto', kind: 'tcp', autoStart: true, port, socket: { greeting: 'hello' } });
    await ws.write('servers/probe.yaml', probeFile(probe.port, true));
    await knownHere(ws, 'auto');
    await knownHere(ws, 'probe');
    try {
      await reopen();
      expect((await list()).find((r) => r.id === 'auto')!.startError).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use by another program`));
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      expect((await opened!.client.call('POST', '/api/servers/start', { id: 'auto' })).status).toBe(200);
      await opened!.client.call('POST', '/api/servers/stop', { id: 'auto' });
      // Saved again as it is (an editor's save): a configuration this computer knows.
      await ws.write('servers/auto.yaml', { name: 'Auto', kind: 'tcp', autoStart: true, port, socket: { greeting: 'hello' } });
      await probeSavedAfter(ws, list, probe.port, true);
      expect((await list()).find((r) => r.id === 'auto')).toMatchObject({ running: false });
    } finally {
      holder.close();
      probe.holder.close();
    }
  });

  it('an autoStart server that failed and is then changed outside Ferry waits for a start by hand (2.11)', async () => {
    process.env.FERRY_DATA_DIR = ws.dataDir;
    const { holder, port } = await heldPort();
    await ws.write('servers/auto.yaml', { name: 'Auto', kind: 'tcp', autoStart: true, port, socket: { greeting: 'hello' } });
    await knownHere(ws, 'auto');
    try {
      await reopen();
      expect((await list()).find((r) => r.id === 'auto')!.startError).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use by another program`));
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      await ws.write('servers/auto.yaml', { name: 'Auto', kind: 'tcp', autoStart: true, port, socket: { greeting: 'from a pull' } });
      await until('auto to wait after a change outside Ferry', async () => (await list()).find((r) => r.id === 'auto')!.waiting !== undefined);
      expect((await list()).find((r) => r.id === 'auto')).toMatchObject({ running: false, waiting: expect.stringMatching(/^autoStart is on, but this computer has not started or saved/) });
    } finally {
      holder.close();
    }
  });

  it('a configuration `ferry serve` started (startWorkspaceServers with remember) starts by itself in the app', async () => {
    process.env.FERRY_DATA_DIR = ws.dataDir;
    const handle = await startWorkspaceServers(await openWorkspace(ws.root), { ids: ['auto'], remember: true, watch: false });
    expect(handle.servers).toHaveLength(1);
    await handle.stop();
    await reopen();
    expect((await list()).find((r) => r.id === 'auto')).toMatchObject({ running: true });
  });
});

describe('ferry app API: a save right after a save (the server editor)', () => {
  it('answers the server as the file reads back, so the next save, based on it, is not refused as a conflict (a server without TLS)', async () => {
    const ws = await makeWorkspace({ 'servers/names.yaml': { name: 'Names', kind: 'dns', dns: { records: [{ name: 'api.test', type: 'A', value: '127.0.0.9' }] } } });
    const { app, client } = await openApp(ws);
    try {
      const read = (await client.call('GET', '/api/server?id=names')).body as ServerEditorView;
      // What the editor's form sends: TLS off is `tls: {enabled: false}`, which the file leaves out.
      const edit = (docs: string, base: unknown) => ({ id: 'names', server: { name: 'Names', kind: 'dns', host: '127.0.0.1', port: 0, autoStart: false, tls: { enabled: false }, docs }, sectionYaml: read.sectionYaml, base });
      const first = await client.call('PUT', '/api/server', edit('Answers api.test.', read.server));
      expect(first.status, first.text).toBe(200);
      const saved = (first.body as ServerEditorView).server;
      expect(saved.tls).toBeUndefined();
      expect(saved).toEqual(((await client.call('GET', '/api/server?id=names')).body as ServerEditorView).server);
      const second = await client.call('PUT', '/api/server', edit('', saved));
      expect(second.status, second.text).toBe(200);
      expect(await fs.readFile(path.join(ws.root, 'servers/names.yaml'), 'utf8')).toBe('name: Names\nkind: dns\ndns:\n  records:\n    - name: api.test\n      type: A\n      value: 127.0.0.9\n');
    } finally {
      await app.close();
      await ws.cleanup();
    }
  });
});
