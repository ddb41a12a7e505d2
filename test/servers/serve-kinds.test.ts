/** `ferry serve` with the second wave's kinds: each listed with its address, its traffic printed as lines and as JSON. */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { COMMANDS } from '../../src/cli/commands.js';
import { SERVER_KINDS } from '../../src/model/index.js';
import { serveUntil } from '../../src/cli/serve.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { isolatedDataDir } from '../support/temp.js';
import { eventually, makeWorkspace } from './helpers.js';
import { runTool } from './kinds/tools.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), color: false } };
}

describe('ferry serve with socket kinds', () => {
  it("says in its help that it runs every kind, not only mock APIs and event streams", () => {
    const serve = COMMANDS.find((c) => c.name === 'serve')!;
    const names: Record<string, string> = { http: 'mock APIs', sse: 'event streams', websocket: 'WebSocket', socketio: 'Socket.IO', mcp: 'MCP', tcp: 'TCP', udp: 'UDP', dns: 'DNS', tcpProxy: 'TCP relays' };
    for (const kind of SERVER_KINDS) expect(serve.description, kind).toContain(names[kind]);
  });

  it('lists TCP, UDP, DNS, WebSocket, Socket.IO, MCP and relay servers and prints their traffic', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({
      servers: {
        raw: { name: 'Raw', kind: 'tcp', socket: { mode: 'echo' } },
        dgram: { name: 'Dgram', kind: 'udp' },
        names: { name: 'Names', kind: 'dns', dns: { records: [{ name: 'api.test', type: 'A', value: '127.0.0.1' }] } },
        chat: { name: 'Chat', kind: 'websocket' },
        live: { name: 'Live', kind: 'socketio' },
        tools: { name: 'Tools', kind: 'mcp' },
        wire: { name: 'Wire', kind: 'tcpProxy', proxy: { target: '127.0.0.1:9' } },
      },
    });
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: false }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.length > 0, 20_000);
    const listing = io.out.join('\n');
    expect(io.err).toEqual([]);
    for (const line of [/Raw\s+tcp:\/\/127\.0\.0\.1:\d+\s+tcp · servers\/raw\.yaml/, /Dgram\s+udp:\/\/127\.0\.0\.1:\d+\s+udp/, /Names\s+dns:\/\/127\.0\.0\.1:\d+\s+dns/, /Chat\s+ws:\/\/127\.0\.0\.1:\d+\s+websocket/, /Live\s+http:\/\/127\.0\.0\.1:\d+\s+socketio/, /Tools\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+mcp/, /Wire\s+tcp:\/\/127\.0\.0\.1:\d+\s+tcpProxy/]) {
      expect(listing).toMatch(line);
    }
    const tcpPort = /tcp:\/\/127\.0\.0\.1:(\d+)\s+tcp ·/.exec(listing)![1]!;
    const dnsPort = /dns:\/\/127\.0\.0\.1:(\d+)/.exec(listing)![1]!;
    await runTool('socat', ['-t', '0.3', '-', `TCP:127.0.0.1:${tcpPort}`], 'hi\n');
    await runTool('kdig', ['@127.0.0.1', '-p', dnsPort, '+retry=0', 'api.test', 'A']);
    await eventually(async () => io.out.join('\n').includes('A api.test → NOERROR'));
    const lines = io.out.join('\n').split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} raw ← 127\.0\.0\.1:\d+ "hi\\n" [\d.]+ ms ↑3 B ↓3 B \(echoed\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} names A api\.test → NOERROR, 1 answer \(udp\) [\d.]+ ms ↑\d+ B ↓\d+ B$/));
    stop();
    expect(await done).toBe(0);
  }, 40_000);

  it('prints traffic records as JSON with --json', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: { raw: { name: 'Raw', kind: 'udp' } } });
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: false, json: true }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.length > 0, 20_000);
    const server = JSON.parse(io.out[0]!);
    expect(server).toMatchObject({ type: 'server', id: 'raw', kind: 'udp', url: expect.stringMatching(/^udp:\/\//) });
    await runTool('socat', ['-t', '0.3', '-', `UDP:127.0.0.1:${new URL(server.url).port}`], 'ping');
    await eventually(async () => io.out.some((l) => l.includes('"type":"traffic"')));
    const traffic = io.out.flatMap((l) => l.split('\n')).filter((l) => l.includes('"type":"traffic"')).map((l) => JSON.parse(l));
    expect(traffic[0]).toMatchObject({ type: 'traffic', kind: 'udp', server: 'raw', direction: 'in', bytesIn: 4, detail: { event: 'message', preview: '"ping"' } });
    stop();
    expect(await done).toBe(0);
  }, 40_000);

  it('gives the URL a client connects to: ws:// for a WebSocket server (wss:// with TLS), the endpoint for an MCP server', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({
      servers: {
        chat: { name: 'Chat', kind: 'websocket' },
        secure: { name: 'Secure', kind: 'websocket', tls: { enabled: true } },
        tools: { name: 'Tools', kind: 'mcp' },
        agent: { name: 'Agent', kind: 'mcp', mcp: { path: '/rpc' } },
      },
    });
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: false, json: true }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.filter((l) => l.includes('"type":"server"')).length === 4, 20_000);
    const urls = Object.fromEntries(io.out.map((l) => JSON.parse(l)).filter((l) => l.type === 'server').map((l) => [l.id, l.url]));
    expect(urls.chat).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(urls.secure).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    expect(urls.tools).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(urls.agent).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rpc$/);
    // What is printed is what a client uses as it is: a WebSocket client connects, an MCP client initializes.
    const ws = new WebSocket(urls.chat);
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
    ws.close();
    const init = await fetch(urls.tools, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(init.status).toBe(200);
    await init.body?.cancel();
    stop();
    expect(await done).toBe(0);
  }, 40_000);
});
