/** The TCP relay between socat and a TLS echo server on 127.0.0.1 (and Chromium, for DNS rebinding). */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../src/servers/kinds/messages/traffic.js';
import { localhostCertificate } from '../../src/servers/self-signed.js';
import { MAX_RELAYED_CLIENTS } from '../../src/servers/kinds/relay/relay.js';
import { tempDir } from '../support/temp.js';
import { eventually, makeWorkspace, serve } from './helpers.js';
import { runTool } from './kinds/tools.js';
import { chromium } from 'playwright-core';
import { browserMissing, CHROMIUM } from '../app/browser.js';

const echoes: net.Server[] = [];
afterEach(async () => {
  while (echoes.length) await new Promise((r) => echoes.pop()!.close(r));
});

/** An echo server that answers in upper case and ends when the client does. */
async function echoServer(secure: boolean): Promise<number> {
  const onSocket = (socket: net.Socket) => {
    socket.on('data', (c) => socket.write(c.toString('latin1').toUpperCase(), 'latin1'));
    socket.on('end', () => socket.end());
    socket.on('error', () => {});
  };
  const material = secure ? await localhostCertificate(path.join(await tempDir('ferry-relay-'), 'certs')) : undefined;
  const server = material ? tls.createServer({ cert: material.cert, key: material.key, allowHalfOpen: true }, onSocket) : net.createServer({ allowHalfOpen: true }, onSocket);
  echoes.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as net.AddressInfo).port;
}

async function relay(proxy: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const root = await makeWorkspace({ servers: { wire: { name: 'Wire', kind: 'tcpProxy', proxy, ...extra } } });
  const handle = await serve(root);
  return { handle, server: handle.servers[0], failures: handle.failures };
}

describe('TCP relay', () => {
  it('relays a client to a TLS echo server and records both directions', async () => {
    const target = await echoServer(true);
    const { server, handle } = await relay({ target: `127.0.0.1:${target}`, upstreamTls: true });
    const { stdout } = await runTool('socat', ['-t', '2', '-', `TCP:127.0.0.1:${server!.port}`], 'hello relay\n');
    expect(stdout.toString()).toBe('HELLO RELAY\n');
    await eventually(async () => handle.traffic.recent().some((r) => (r as MessageRecord).detail.event === 'close'));
    const records = handle.traffic.recent() as MessageRecord[];
    expect(records.map((r) => `${r.direction} ${r.detail.event} ${r.detail.preview}`)).toEqual([
      `exchange connect to 127.0.0.1:${target} (TLS)`, 'in message "hello relay\\n"', 'out message "HELLO RELAY\\n"', 'exchange close ',
    ]);
    expect([records[3]!.bytesIn, records[3]!.bytesOut]).toEqual([12, 12]);
  });

  it('shows binary as hex, bounded', async () => {
    const target = await echoServer(false);
    const { server, handle } = await relay({ target: `127.0.0.1:${target}` });
    const bytes = Buffer.alloc(300, 0x01);
    const { stdout } = await runTool('socat', ['-t', '2', '-', `TCP:127.0.0.1:${server!.port}`], bytes);
    expect(stdout.equals(bytes)).toBe(true);
    const inbound = (handle.traffic.recent() as MessageRecord[]).find((r) => r.direction === 'in')!;
    expect(inbound.detail.preview).toMatch(/^01 01 .*…$/);
    expect(inbound.detail.preview.length).toBeLessThan(300);
  });

  it('closes the client when the target refuses, and records why', async () => {
    const unused = await echoServer(false);
    await new Promise((r) => echoes.pop()!.close(r));
    const { server, handle } = await relay({ target: `127.0.0.1:${unused}` });
    const client = net.connect(server!.port, '127.0.0.1');
    await new Promise((r) => client.once('close', r));
    await eventually(async () => handle.traffic.recent().length > 0);
    const record = handle.traffic.recent()[0] as MessageRecord;
    expect(record.detail.preview).toBe(`127.0.0.1:${unused} refused the connection (ECONNREFUSED): nothing is listening there; start the target, or check proxy.target`);
    expect(record.level).toBe('error');
  });

  it('says the target does not answer TLS, and what to set, when upstreamTls is on for a plain server', async () => {
    // A plain HTTP server: it answers the ClientHello with a 400 in text.
    const plain = net.createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')));
    echoes.push(plain);
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', () => r()));
    const target = (plain.address() as net.AddressInfo).port;
    const { server, handle } = await relay({ target: `127.0.0.1:${target}`, upstreamTls: true });
    await runTool('socat', ['-t', '2', '-', `TCP:127.0.0.1:${server!.port}`], 'hello\n');
    await eventually(async () => handle.traffic.recent().length > 0);
    const record = handle.traffic.recent()[0] as MessageRecord;
    expect(record.detail.preview).toMatch(new RegExp(`^127\\.0\\.0\\.1:${target} does not answer TLS \\([^)]+\\): it may be a plain TCP server; set proxy\\.upstreamTls to false, or check the port$`));
  });

  it('the target is not templated (8.2): a variable in it stays as written and is refused at load', async () => {
    const target = await echoServer(false);
    const root = await makeWorkspace({
      variables: [{ key: 'port', value: String(target) }],
      servers: { wire: { name: 'Wire', kind: 'tcpProxy', proxy: { target: '127.0.0.1:{{port}}' } } },
    });
    const handle = await serve(root);
    expect(handle.failures[0]!.message).toMatch(/^servers\/wire\.yaml:\d+:\d+: proxy\.target: "127\.0\.0\.1:\{\{port\}\}" is not host:port/);
  });

  it(`relays at most ${MAX_RELAYED_CLIENTS} clients at once: one more is closed before reaching the target, and the refusal is recorded once per burst`, async () => {
    let targetConnections = 0;
    const target = net.createServer((socket) => {
      targetConnections++;
      socket.on('error', () => {});
    });
    echoes.push(target);
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    const { server, handle } = await relay({ target: `127.0.0.1:${(target.address() as net.AddressInfo).port}` });
    const connect = () => {
      const socket = net.connect(server!.port, '127.0.0.1');
      socket.on('error', () => {});
      return socket;
    };
    const held = Array.from({ length: MAX_RELAYED_CLIENTS }, connect);
    try {
      const connects = () => (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'connect').length;
      await eventually(async () => connects() === MAX_RELAYED_CLIENTS, 10_000);
      const extra = Array.from({ length: 5 }, connect);
      await Promise.all(extra.map((socket) => new Promise((r) => socket.once('close', r))));
      const refusals = () => (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.preview.startsWith('refused'));
      await eventually(async () => refusals().length === 2, 3000);
      expect(refusals().map((r) => r.detail.preview)).toEqual([
        `refused: ${MAX_RELAYED_CLIENTS} clients are relayed already, the relay's limit (each holds a connection to the target); close some, or start a second relay`,
        `refused 4 more: ${MAX_RELAYED_CLIENTS} clients are relayed already, the relay's limit (each holds a connection to the target); close some, or start a second relay`,
      ]);
      expect(refusals()[0]!.level).toBe('error');
      expect(targetConnections).toBe(MAX_RELAYED_CLIENTS);
      // A client that leaves makes room for the next.
      held.pop()!.destroy();
      await eventually(async () => (handle.traffic.recent() as MessageRecord[]).some((r) => r.detail.event === 'close'));
      held.push(connect());
      await eventually(async () => connects() === MAX_RELAYED_CLIENTS + 1, 5000);
      expect(targetConnections).toBe(MAX_RELAYED_CLIENTS + 1);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it('closes the target connection when the client goes, and refuses an empty target at load', async () => {
    const target = await echoServer(false);
    const { server } = await relay({ target: `127.0.0.1:${target}` });
    const client = net.connect(server!.port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    await eventually(async () => server!.openConnections() === 2);
    client.destroy();
    await eventually(async () => server!.openConnections() === 0);
    expect((await relay({})).failures[0]!.message).toMatch(/servers\/wire\.yaml:\d+:\d+: proxy\.target: is empty/);
  });

  it('an IPv6 target is written in brackets with its port; an IPv6 address alone is refused at load, saying how to write it', async () => {
    // A real echo on ::1, relayed through [::1]:PORT.
    const echo = net.createServer({ allowHalfOpen: true }, (socket) => {
      socket.on('data', (c) => socket.write(c.toString('latin1').toUpperCase(), 'latin1'));
      socket.on('end', () => socket.end());
    });
    echoes.push(echo);
    await new Promise<void>((r) => echo.listen(0, '::1', () => r()));
    const port = (echo.address() as net.AddressInfo).port;
    const { server } = await relay({ target: `[::1]:${port}` });
    const client = net.connect(server!.port, '127.0.0.1');
    const answer = await new Promise<string>((resolve, reject) => {
      let got = '';
      client.on('data', (c) => (got += c));
      client.on('end', () => resolve(got));
      client.on('error', reject);
      client.end('over ipv6');
    });
    expect(answer).toBe('OVER IPV6');

    for (const [target, advice] of [
      ['2001:db8::1', '[2001:db8::1]:PORT'],
      ['::1', '[::1]:PORT'],
      ['::1:5432', '[::1]:5432'],
      ['fe80::1%lo:80', '[fe80::1%lo]:80'],
    ] as const) {
      const { failures } = await relay({ target });
      expect(failures[0]!.message, target).toContain(`servers/wire.yaml:4:11: proxy.target: ${JSON.stringify(target)} `);
      expect(failures[0]!.message, target).toContain(advice);
    }
    for (const target of ['[::1]', '[::1:80', 'localhost', '127.0.0.1:0', '127.0.0.1:99999', 'host:port']) {
      const { failures } = await relay({ target });
      expect(failures[0]!.message, target).toMatch(/^servers\/wire\.yaml:4:11: proxy\.target: .* give where to relay to, such as 127\.0\.0\.1:5432 or \[::1\]:5432\.$/);
    }
  });

  it('refuses a browser request addressed to another name (DNS rebinding), also when its head comes in pieces; relays localhost and other protocols', async () => {
    const seen: string[] = [];
    const web = http.createServer((req, res) => (seen.push(`${req.method} ${req.url}`), res.end('hello')));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
    try {
      const { server, handle } = await relay({ target: `127.0.0.1:${(web.address() as net.AddressInfo).port}` });
      const port = Number(new URL(server!.url).port);
      const rebound = await exchange(port, [`GET /secret HTTP/1.1\r\nHo`, `st: evil.example:${port}\r\nAccept: */*\r\n\r\n`]);
      expect(rebound).toMatch(/^HTTP\/1\.1 403 Forbidden\r\nContent-Type: text\/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: \d+\r\n\r\n/);
      expect(rebound).toContain(`refused: an HTTP request addressed to "evil.example:${port}", which is how a web page reaches this computer through DNS rebinding; a relay on 127.0.0.1 relays HTTP requests addressed to 127.0.0.1, localhost, [::1] or a name under .localhost only (set host: 0.0.0.0 to relay other names)`);
      expect(seen).toEqual([]);
      await eventually(async () => (handle.traffic.recent() as MessageRecord[]).some((r) => r.detail.event === 'error'));
      const record = (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'error')!;
      expect(record.detail.preview).toMatch(/^refused: an HTTP request addressed to "evil\.example:\d+"/);
      const local = await exchange(port, [`GET /page HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`]);
      expect(local).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*hello$/);
      expect(seen).toEqual(['GET /page']);
      // A name under .localhost is this computer too, as the refusal says.
      const named = await exchange(port, [`GET /named HTTP/1.1\r\nHost: app.localhost:${port}\r\nConnection: close\r\n\r\n`]);
      expect(named).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*hello$/);
      expect(seen).toEqual(['GET /page', 'GET /named']);
    } finally {
      await new Promise((r) => web.close(r));
    }
    // Not HTTP (a Redis-like `GET key`), and a relay on 0.0.0.0, which answers other names on purpose.
    const echo = await echoServer(false);
    const { server } = await relay({ target: `127.0.0.1:${echo}` });
    expect(await exchange(Number(new URL(server!.url).port), ['GET key\r\n'], true)).toBe('GET KEY\r\n');
    const open = await relay({ target: `127.0.0.1:${echo}` }, { host: '0.0.0.0' });
    expect(await exchange(Number(new URL(open.server!.url).port), ['GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n'], true)).toBe('GET / HTTP/1.1\r\nHOST: EVIL.EXAMPLE\r\n\r\n');
  });

  it('in Chromium, a page whose name resolves to 127.0.0.1 cannot read the target through the relay', async (context) => {
    const missing = browserMissing();
    if (missing) return context.skip(missing);
    const web = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>target</title><p>private</p>'));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
    // The rebinding, done by the browser's resolver: evil.test is 127.0.0.1.
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--host-resolver-rules=MAP evil.test 127.0.0.1'] });
    try {
      const { server } = await relay({ target: `127.0.0.1:${(web.address() as net.AddressInfo).port}` });
      const port = new URL(server!.url).port;
      const page = await browser.newPage();
      const rebound = await page.goto(`http://evil.test:${port}/`);
      expect(rebound?.status()).toBe(403);
      expect(await page.textContent('body')).toContain('DNS rebinding');
      const local = await page.goto(`http://localhost:${port}/`);
      expect(local?.status()).toBe(200);
      expect(await page.textContent('p')).toBe('private');
    } finally {
      await browser.close();
      await new Promise((r) => web.close(r));
    }
  }, 30_000);
});

/** Writes `parts` to the relay on `port` one by one, and resolves with all it answered once it closed (5 s at most). */
function exchange(port: number, parts: string[], endAfter = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }, async () => {
      for (const part of parts) {
        socket.write(part);
        await new Promise((r) => setTimeout(r, 20));
      }
      if (endAfter) socket.end();
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.setTimeout(5000, () => socket.destroy(new Error(`no end within 5 s; got ${JSON.stringify(text)}`)));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => (socket.end(), resolve(text)));
    socket.on('error', reject);
  });
}
