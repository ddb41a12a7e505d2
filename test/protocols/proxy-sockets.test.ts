/**
 * Proxies (issue 20) for the kinds that do not go through undici's HTTP pools, and for the ones
 * that use fetch outside a send: WebSocket (`ws`), Socket.IO (its WebSocket and long-polling
 * transports), GraphQL subscriptions over WebSocket, MCP over Streamable HTTP and HTTP+SSE, and
 * imports from a URL. Real servers and the tests' own proxies on 127.0.0.1 (support/servers/
 * proxies.ts), each of which records what it was asked: a request counts as proxied only when the
 * proxy saw its CONNECT or absolute-form request line.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Server as SocketIoServer } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { requestSchema, DEFAULT_SETTINGS } from '../../src/model/index.js';
import { HttpAgents, SendError, requestKind, type ProtocolResult } from '../../src/protocols/index.js';
import { resolveProxyConfig, type ProxyConfig } from '../../src/protocols/http/proxy-rules.js';
import { download, ImportError } from '../../src/importers/index.js';
import { UrlNetwork, withUrlNetwork } from '../../src/runner/url-network.js';
import { closedPort, startHttp1, startHttpProxy, startSocks5Proxy, testCertificate, type Peer, type TestProxy } from '../support/servers/index.js';
import { graphqlWsPeer, type GraphqlPeer } from './graphql-peers.js';
import { startGrpcPeer, type GrpcPeer } from './grpc-peer.js';
import { tempDir } from '../support/temp.js';
import { failure, sendWith } from './kind-cases.js';
import { received } from './streaming-send.js';
import { startSse, startStreamableHttp, type McpPeer } from './mcp-peers.js';

/** Tests reach 127.0.0.1, which goes direct unless noProxy opts loopback in. */
const through = (proxy: string, noProxy: string[] = []): ProxyConfig => ({ http: proxy, https: proxy, noProxy: ['<-loopback>', ...noProxy] });
const withCredentials = (proxy: TestProxy, credentials: string) => proxy.url.replace('://', `://${credentials}@`);

/** Sends a request of `kind` (prepared as a run prepares it) with these proxies. */
function sendVia(proxy: ProxyConfig | undefined, kind: Parameters<typeof requestKind>[0], fields: Record<string, unknown>): Promise<ProtocolResult> {
  const request = requestSchema.parse({ name: 'proxied', kind, ...fields, settings: { timeoutMs: 5000, ...(fields.settings as object | undefined) } });
  return sendWith(requestKind(kind), request, undefined, { agents: new HttpAgents(proxy ? { proxy } : {}) });
}

/** A `ws` echo server; `secure`: over TLS with the tests' self-signed certificate. */
async function echoServer(secure = false): Promise<{ url: string; host: string; close(): Promise<void> }> {
  const server = secure ? https.createServer(await testCertificate()) : http.createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${secure ? 'wss' : 'ws'}://127.0.0.1:${port}/echo`,
    host: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A socket.io server that greets each connection and answers `echo`. */
async function ioServer(): Promise<{ url: string; host: string; transports: string[]; close(): Promise<void> }> {
  const server = http.createServer();
  const io = new SocketIoServer(server);
  const transports: string[] = [];
  io.on('connection', (socket) => {
    transports.push(socket.conn.transport.name);
    socket.emit('welcome', 'hi');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    host: `127.0.0.1:${port}`,
    transports,
    close: () => new Promise<void>((resolve) => {
      io.close();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

let open: TestProxy;
let guarded: TestProxy;
let socks: TestProxy;
beforeAll(async () => {
  [open, guarded, socks] = await Promise.all([startHttpProxy(), startHttpProxy({ credentials: 'ann:s3cret' }), startSocks5Proxy()]);
});
afterAll(async () => {
  await Promise.all([open, guarded, socks].map((p) => p.close()));
});

/** What the proxy saw since `before`. */
const linesSince = (proxy: TestProxy, before: number) => proxy.seen.slice(before).map((s) => s.line);

describe('WebSocket requests through a proxy', () => {
  let plain: Awaited<ReturnType<typeof echoServer>>;
  let secure: Awaited<ReturnType<typeof echoServer>>;
  beforeAll(async () => {
    [plain, secure] = await Promise.all([echoServer(), echoServer(true)]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), secure.close()]);
  });

  it('ws:// and wss:// go through a CONNECT tunnel, and the messages still flow', async () => {
    for (const server of [plain, secure]) {
      const before = open.seen.length;
      const result = await sendVia(through(open.url), 'websocket', { url: server.url, body: { type: 'text', text: 'ping' }, settings: { verifyTls: false, stream: { maxEvents: 1 } } });
      expect(result.messages?.map((m) => `${m.direction} ${m.text}`)).toEqual(['sent ping', 'received ping']);
      expect(linesSince(open, before)).toEqual([`CONNECT ${server.host}`]);
    }
  });

  it('sends the proxy credentials as Basic on CONNECT', async () => {
    const before = guarded.seen.length;
    const result = await sendVia(through(withCredentials(guarded, 'ann:s3cret')), 'websocket', { url: plain.url, body: { type: 'text', text: 'x' }, settings: { stream: { maxEvents: 1 } } });
    expect(received(result).map((m) => m.text)).toEqual(['x']);
    expect(guarded.seen.slice(before)).toEqual([{ line: `CONNECT ${plain.host}`, authorization: `Basic ${Buffer.from('ann:s3cret').toString('base64')}` }]);
  });

  it('407: the message names the proxy (never the password), not the server', async () => {
    const none = await failure(sendVia(through(guarded.url), 'websocket', { url: plain.url }));
    expect(none).toBeInstanceOf(SendError);
    expect((none as SendError).kind).toBe('proxy');
    expect(none.message).toContain(`the proxy ${guarded.url} asks for a user name and password (407 Proxy Authentication Required)`);
    const wrong = await failure(sendVia(through(withCredentials(guarded, 'ann:nope')), 'websocket', { url: secure.url, settings: { verifyTls: false } }));
    expect(wrong.message).toContain(`the proxy ${guarded.url} refused the user name and password Ferry sent (407`);
    expect(wrong.message).not.toContain('nope');
  });

  it('a proxy that will not open the tunnel (502) and an unreachable proxy are named as such', async () => {
    const nowhere = await closedPort();
    const refused = await failure(sendVia(through(open.url), 'websocket', { url: `ws://127.0.0.1:${nowhere}/` }));
    expect(refused.message).toContain(`the proxy ${open.url} would not open a tunnel to 127.0.0.1:${nowhere} (it answered 502 to CONNECT)`);
    const port = await closedPort();
    const unreachable = await failure(sendVia(through(`http://127.0.0.1:${port}`), 'websocket', { url: plain.url }));
    expect(unreachable.message).toMatch(new RegExp(`^could not reach the proxy http://127\\.0\\.0\\.1:${port} to send to ${plain.host.replace(/\./g, '\\.')}: nothing is listening there\\.`));
    expect((unreachable as SendError).kind).toBe('proxy');
  });

  it('NO_PROXY, loopback and settings.proxy: false go direct', async () => {
    const before = open.seen.length;
    const fields = { url: plain.url, body: { type: 'text', text: 'd' }, settings: { stream: { maxEvents: 1 } } };
    await sendVia(through(open.url, ['127.0.0.0/8']), 'websocket', fields);
    await sendVia({ http: open.url, https: open.url, noProxy: [] }, 'websocket', fields);
    await sendVia(through(open.url), 'websocket', { ...fields, settings: { ...fields.settings, proxy: false } });
    expect(linesSince(open, before)).toEqual([]);
  });

  it('a SOCKS5 proxy carries ws:// and wss:// (the name resolved by the proxy), with RFC 1929 credentials', async () => {
    for (const server of [plain, secure]) {
      const before = socks.seen.length;
      const result = await sendVia(through(socks.url), 'websocket', { url: server.url, body: { type: 'text', text: 'via socks' }, settings: { verifyTls: false, stream: { maxEvents: 1 } } });
      expect(received(result).map((m) => m.text)).toEqual(['via socks']);
      expect(linesSince(socks, before)).toEqual([`SOCKS ${server.host}`]);
    }
    const guardedSocks = await startSocks5Proxy({ credentials: 'ann:s3cret' });
    try {
      const result = await sendVia(through(withCredentials(guardedSocks, 'ann:s3cret')), 'websocket', { url: plain.url, body: { type: 'text', text: 'x' }, settings: { stream: { maxEvents: 1 } } });
      expect(received(result).map((m) => m.text)).toEqual(['x']);
      const wrong = await failure(sendVia(through(withCredentials(guardedSocks, 'ann:nope')), 'websocket', { url: plain.url }));
      expect((wrong as SendError).kind).toBe('proxy');
      expect(wrong.message).toContain(`the proxy ${guardedSocks.url} refused the user name and password Ferry sent`);
      expect(wrong.message).not.toContain('nope');
    } finally {
      await guardedSocks.close();
    }
  });
});

describe('a proxy variable Ferry cannot use', () => {
  it('HTTP_PROXY without a scheme is an HTTP proxy (as curl reads it); a value that is no URL fails each kind with one line', async () => {
    const target = await echoServer();
    try {
      const before = open.seen.length;
      const bare = resolveProxyConfig({ proxy: '', noProxy: ['<-loopback>'], useSystemProxy: true }, { HTTP_PROXY: open.url.replace('http://', '') })!;
      expect(bare.http).toBe(open.url);
      await sendVia(bare, 'websocket', { url: target.url, body: { type: 'text', text: 'b' }, settings: { stream: { maxEvents: 1 } } });
      expect(linesSince(open, before)).toEqual([`CONNECT ${target.host}`]);

      const broken = resolveProxyConfig({ proxy: '', noProxy: ['<-loopback>'], useSystemProxy: true }, { http_proxy: 'not a proxy' })!;
      const expected = 'the proxy in HTTP_PROXY / HTTPS_PROXY / ALL_PROXY cannot be used: "http://not a proxy" is not a URL;';
      for (const [kind, fields] of [
        ['websocket', { url: target.url }],
        ['socketio', { url: target.url.replace('ws://', 'http://') }],
        ['http', { url: target.url.replace('ws://', 'http://') }],
        ['mcp', { url: target.url.replace('ws://', 'http://'), mcp: { transport: 'streamableHttp', call: 'tool', name: 'add' } }],
      ] as const) {
        const error = await failure(sendVia(broken, kind, fields));
        expect(error.message, kind).toContain(expected);
        expect((error as SendError).kind, kind).toBe('proxy');
      }
    } finally {
      await target.close();
    }
  });
});

describe('gRPC requests through a proxy', () => {
  let plain: GrpcPeer;
  let secure: GrpcPeer;
  beforeAll(async () => {
    [plain, secure] = await Promise.all([startGrpcPeer(), startGrpcPeer({ tls: true })]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), secure.close()]);
  });
  const say = (url: string, settings: Record<string, unknown> = {}) => ({ url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{"text": "via proxy"}' }, settings: { verifyTls: false, ...settings } });
  const host = (peer: GrpcPeer) => `127.0.0.1:${peer.port}`;

  it('grpc:// and grpcs:// go through a CONNECT tunnel (TLS end to end), as WebSocket requests do', async () => {
    for (const peer of [plain, secure]) {
      const before = open.seen.length;
      const result = await sendVia(through(open.url), 'grpc', say(peer.url));
      expect(JSON.parse(Buffer.from(result.body).toString()).text).toBe('hello via proxy');
      const lines = linesSince(open, before);
      expect(lines.length).toBeGreaterThan(0);
      expect(new Set(lines)).toEqual(new Set([`CONNECT ${host(peer)}`]));
    }
  });

  it('sends the proxy credentials as Basic on CONNECT; 407 and an unreachable proxy name the proxy (never the password)', async () => {
    const before = guarded.seen.length;
    await sendVia(through(withCredentials(guarded, 'ann:s3cret')), 'grpc', say(plain.url));
    expect(guarded.seen.slice(before)[0]).toEqual({ line: `CONNECT ${host(plain)}`, authorization: `Basic ${Buffer.from('ann:s3cret').toString('base64')}` });
    const refused = await failure(sendVia(through(withCredentials(guarded, 'ann:nope')), 'grpc', say(plain.url, { timeoutMs: 3000 })));
    expect((refused as SendError).kind).toBe('proxy');
    expect(refused.message).toContain(`the proxy ${guarded.url} refused the user name and password Ferry sent (407`);
    expect(refused.message).not.toContain('nope');
    const nowhere = await closedPort();
    const noTunnel = await failure(sendVia(through(open.url), 'grpc', say(`grpc://127.0.0.1:${nowhere}`, { timeoutMs: 3000 })));
    expect(noTunnel.message).toContain(`the proxy ${open.url} would not open a tunnel to 127.0.0.1:${nowhere} (it answered 502 to CONNECT)`);
    const port = await closedPort();
    const unreachable = await failure(sendVia(through(`http://127.0.0.1:${port}`), 'grpc', say(plain.url, { timeoutMs: 3000 })));
    expect((unreachable as SendError).kind).toBe('proxy');
    expect(unreachable.message).toMatch(new RegExp(`^could not reach the proxy http://127\\.0\\.0\\.1:${port} to send to ${host(plain).replace(/\./g, '\\.')}: nothing is listening there\\.`));
  });

  it('a failed tunnel is tried once per request, within its time limit: no CONNECT after the request ended (grpc-js tried again 1 s later), none carried into the next', async () => {
    for (const mode of ['502', 'hang up'] as const) {
      const connects: number[] = [];
      const proxy = net.createServer((socket) => {
        connects.push(Date.now());
        socket.on('error', () => {});
        socket.once('data', () => (mode === '502' ? socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n') : socket.destroy()));
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      try {
        for (let i = 1; i <= 2; i++) {
          const error = await failure(sendVia(through(proxyUrl), 'grpc', say(plain.url, { timeoutMs: 3000 })));
          expect((error as SendError).kind).toBe('proxy');
          expect(error.message).toMatch(mode === '502' ? `the proxy ${proxyUrl} would not open a tunnel to ${host(plain)} (it answered 502 to CONNECT)` : `the proxy ${proxyUrl} closed the connection without answering CONNECT for ${host(plain)}.`);
          expect(connects).toHaveLength(i);
        }
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(connects).toHaveLength(2);
      } finally {
        proxy.close();
      }
    }
  });

  it('NO_PROXY, loopback and settings.proxy: false go direct', async () => {
    const before = open.seen.length;
    await sendVia(through(open.url, ['127.0.0.0/8']), 'grpc', say(plain.url));
    await sendVia({ http: open.url, https: open.url, noProxy: [] }, 'grpc', say(plain.url));
    await sendVia(through(open.url), 'grpc', say(plain.url, { proxy: false }));
    expect(linesSince(open, before)).toEqual([]);
  });

  it('a SOCKS5 or https:// proxy, which grpc-js cannot tunnel through, is refused with what to do (not bypassed)', async () => {
    for (const proxy of [socks.url, 'https://127.0.0.1:9']) {
      const error = await failure(sendVia(through(proxy), 'grpc', say(plain.url)));
      expect((error as SendError).kind).toBe('proxy');
      expect(error.message).toContain(`gRPC requests go through an http:// proxy only, and the proxy for ${host(plain)} is ${proxy}`);
      expect(error.message).toContain('settings.proxy: false');
    }
  });

  it("grpc-js's own proxy variables (grpc_proxy, https_proxy for grpc://) do not apply: only Ferry's rules choose (a ferry run in a child process)", async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'requests'));
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: grpc-proxy-env\nname: gRPC proxy env\n');
    await fs.writeFile(path.join(root, 'requests', 'Say.yaml'), `name: Say\nkind: grpc\nurl: ${plain.url}\nmethod: ferry.test.Echo/Say\nbody:\n  type: json\n  text: '{"text": "env"}'\n`);
    const run = (env: Record<string, string>) => new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name)));
      const child = spawn(process.execPath, [path.resolve('bin/ferry.js'), '-w', root, 'run', '-r', 'json'], { env: { ...clean, FERRY_DATA_DIR: path.join(root, '.data'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const timer = setTimeout(() => child.kill(), 20_000);
      child.on('error', reject);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
    });
    const before = open.seen.length;
    // grpc-js would tunnel a loopback call through these; Ferry sends loopback direct.
    for (const env of [{ grpc_proxy: open.url }, { https_proxy: open.url }, { http_proxy: open.url }] as Record<string, string>[]) {
      const { code, out } = await run(env);
      expect(code, `${JSON.stringify(env)}: ${out}`).toBe(0);
    }
    // (Only lines for this server: other tests use the same proxy.)
    const toPlain = () => linesSince(open, before).filter((line) => line === `CONNECT ${host(plain)}`);
    expect(toPlain()).toEqual([]);
    // HTTP_PROXY with loopback opted in (Ferry's rules): through the proxy.
    const { code, out } = await run({ HTTP_PROXY: open.url, NO_PROXY: '<-loopback>' });
    expect(code, out).toBe(0);
    expect(toPlain().length).toBeGreaterThan(0);
  }, 60_000);
});

describe('Socket.IO requests through a proxy', () => {
  let server: Awaited<ReturnType<typeof ioServer>>;
  beforeAll(async () => {
    server = await ioServer();
  });
  afterAll(() => server.close());

  for (const transport of ['websocket', 'polling'] as const) {
    it(`${transport}: tunnelled with CONNECT, credentials included`, async () => {
      const before = guarded.seen.length;
      const result = await sendVia(through(withCredentials(guarded, 'ann:s3cret')), 'socketio', { url: server.url, socketio: { transport }, settings: { stream: { maxEvents: 1 } } });
      expect(received(result).map((m) => m.event)).toEqual(['welcome']);
      expect(result.detail?.transport).toBe(transport);
      const seen = guarded.seen.slice(before);
      expect(seen.length).toBeGreaterThan(0);
      for (const entry of seen) expect(entry).toEqual({ line: `CONNECT ${server.host}`, authorization: `Basic ${Buffer.from('ann:s3cret').toString('base64')}` });
    });

    it(`${transport}: 407 and an unreachable proxy get the proxy's messages`, async () => {
      const denied = await failure(sendVia(through(guarded.url), 'socketio', { url: server.url, socketio: { transport } }));
      expect(denied.message).toContain(`the proxy ${guarded.url} asks for a user name and password (407 Proxy Authentication Required)`);
      const port = await closedPort();
      const unreachable = await failure(sendVia(through(`http://127.0.0.1:${port}`), 'socketio', { url: server.url, socketio: { transport } }));
      expect(unreachable.message).toContain(`could not reach the proxy http://127.0.0.1:${port} to send to ${server.host}`);
    });

    it(`${transport}: through a SOCKS5 proxy`, async () => {
      const before = socks.seen.length;
      const result = await sendVia(through(socks.url), 'socketio', { url: server.url, socketio: { transport }, settings: { stream: { maxEvents: 1 } } });
      expect(received(result).map((m) => m.event)).toEqual(['welcome']);
      const seen = linesSince(socks, before);
      expect(seen.length).toBeGreaterThan(0);
      for (const line of seen) expect(line).toBe(`SOCKS ${server.host}`);
    });
  }

  it('noProxy goes direct', async () => {
    const before = open.seen.length;
    await sendVia(through(open.url, [`127.0.0.1:${new URL(server.url).port}`]), 'socketio', { url: server.url, socketio: { transport: 'polling' }, settings: { stream: { maxEvents: 1 } } });
    expect(linesSince(open, before)).toEqual([]);
  });
});

describe('GraphQL subscriptions over WebSocket through a proxy', () => {
  let peer: GraphqlPeer;
  beforeAll(async () => {
    peer = await graphqlWsPeer();
  });
  afterAll(() => peer.close());

  it('the subscription socket is tunnelled as a WebSocket request is', async () => {
    const before = open.seen.length;
    const host = new URL(peer.url).host;
    const result = await sendVia(through(open.url), 'http', { method: 'POST', url: peer.url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 2) }', transport: 'websocket' } } });
    expect(received(result)).toHaveLength(2);
    expect(linesSince(open, before)).toEqual([`CONNECT ${host}`]);
    const denied = await failure(sendVia(through(guarded.url), 'http', { method: 'POST', url: peer.url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport: 'websocket' } } }));
    expect(denied.message).toContain(`the proxy ${guarded.url} asks for a user name and password (407`);
  });
});

describe('MCP over HTTP through a proxy', () => {
  let streamable: McpPeer;
  let sse: McpPeer;
  beforeAll(async () => {
    [streamable, sse] = await Promise.all([startStreamableHttp(), startSse()]);
  });
  afterAll(async () => {
    await Promise.all([streamable.close(), sse.close()]);
  });

  const echo = (url: string, transport: string, settings: Record<string, unknown> = {}) => ({
    url,
    mcp: { transport, call: 'tool', name: 'add', arguments: '{"a":20,"b":22}' },
    settings,
  });

  it('Streamable HTTP and HTTP+SSE: every request in absolute form through the proxy, with credentials', async () => {
    for (const [peer, transport] of [[streamable, 'streamableHttp'], [sse, 'sse']] as const) {
      const before = guarded.seen.length;
      const result = await sendVia(through(withCredentials(guarded, 'ann:s3cret')), 'mcp', echo(peer.url, transport));
      expect((result.detail?.result as { structuredContent?: unknown }).structuredContent).toEqual({ sum: 42 });
      const seen = guarded.seen.slice(before);
      const origin = new URL(peer.url).origin;
      expect(seen.length).toBeGreaterThan(1);
      for (const entry of seen) {
        expect(entry.line).toMatch(new RegExp(`^(GET|POST|DELETE) ${origin.replace(/\./g, '\\.')}/`));
        expect(entry.authorization).toBe(`Basic ${Buffer.from('ann:s3cret').toString('base64')}`);
      }
      if (transport === 'sse') expect(seen.map((s) => s.line)).toContain(`GET ${peer.url}`);
    }
  });

  it('407 and an unreachable proxy: the proxy is named, no fallback to HTTP+SSE blames the server', async () => {
    const denied = await failure(sendVia(through(guarded.url), 'mcp', echo(streamable.url, 'auto')));
    expect(denied.message).toContain(`the proxy ${guarded.url} asks for a user name and password (407 Proxy Authentication Required)`);
    const port = await closedPort();
    const unreachable = await failure(sendVia(through(`http://127.0.0.1:${port}`), 'mcp', echo(sse.url, 'sse')));
    expect(unreachable.message).toContain(`could not reach the proxy http://127.0.0.1:${port} to send to ${new URL(sse.url).host}: nothing is listening there`);
  });

  it('settings.proxy: false and noProxy go direct', async () => {
    const before = open.seen.length;
    await sendVia(through(open.url), 'mcp', echo(streamable.url, 'streamableHttp', { proxy: false }));
    await sendVia(through(open.url, ['127.0.0.1']), 'mcp', echo(streamable.url, 'streamableHttp'));
    expect(linesSince(open, before)).toEqual([]);
  });
});

describe('imports from a URL through a proxy', () => {
  let target: Peer;
  beforeAll(async () => {
    target = await startHttp1();
  });
  afterAll(() => target.close());

  /** Settings as a computer without a proxy setting has them, loopback opted in to the proxy. */
  const settings = { ...DEFAULT_SETTINGS, noProxy: ['<-loopback>'] };

  it('HTTP_PROXY from the environment carries the download (useSystemProxy), redirects included', async () => {
    const before = open.seen.length;
    const input = await withUrlNetwork((network) => download(`${target.url}/redirect/1`, network), { settings, env: { HTTP_PROXY: open.url } });
    expect(JSON.parse(input.text).url).toBe('/echo');
    expect(linesSince(open, before)).toEqual([`GET ${target.url}/redirect/1`, `GET ${target.url}/echo`]);
  });

  it('the proxy setting with credentials; 407 and an unreachable proxy are named', async () => {
    const before = guarded.seen.length;
    await withUrlNetwork((network) => download(`${target.url}/spec.yaml`, network), { settings: { ...settings, proxy: withCredentials(guarded, 'ann:s3cret') }, env: {} });
    expect(guarded.seen.slice(before)).toEqual([{ line: `GET ${target.url}/spec.yaml`, authorization: `Basic ${Buffer.from('ann:s3cret').toString('base64')}` }]);
    const denied = await failure(withUrlNetwork((network) => download(`${target.url}/spec.yaml`, network), { settings: { ...settings, proxy: guarded.url }, env: {} }));
    expect(denied).toBeInstanceOf(ImportError);
    expect(denied.message).toBe(`Could not download ${target.url}/spec.yaml: the proxy ${guarded.url} asks for a user name and password (407 Proxy Authentication Required). Set them with ferry config set proxy http://USER:PASSWORD@${new URL(guarded.url).host} (the password is kept in the secret store). The proxy comes from the proxy setting (ferry config set proxy URL) or, with useSystemProxy on, from HTTP_PROXY / HTTPS_PROXY; settings.proxy: false sends one request direct.`);
    const port = await closedPort();
    const unreachable = await failure(withUrlNetwork((network) => download(`${target.url}/spec.yaml`, network), { settings, env: { http_proxy: `http://127.0.0.1:${port}` } }));
    expect(unreachable.message).toContain(`Could not download ${target.url}/spec.yaml: could not reach the proxy http://127.0.0.1:${port} to send to ${new URL(target.url).host}: nothing is listening there`);
  });

  it('NO_PROXY and useSystemProxy off go direct; a file import opens no network', async () => {
    const before = open.seen.length;
    await withUrlNetwork((network) => download(`${target.url}/a.json`, network), { settings, env: { HTTP_PROXY: open.url, NO_PROXY: '127.0.0.1' } });
    await withUrlNetwork((network) => download(`${target.url}/a.json`, network), { settings: { ...settings, useSystemProxy: false }, env: { HTTP_PROXY: open.url } });
    expect(linesSince(open, before)).toEqual([]);
    const unused = new UrlNetwork({ settings, env: { HTTP_PROXY: open.url } });
    expect(unused.proxyFailure(new Error('x'), new URL(target.url))).toBeUndefined();
    await unused.close();
  });
});
