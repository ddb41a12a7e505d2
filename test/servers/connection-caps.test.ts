/**
 * The connection caps of the servers (servers/connection-cap.ts), live on 127.0.0.1: the cap
 * lowered for the test, the connections past it closed at once, the refusals of a burst recorded
 * as one record and a count, and the connections kept still answered.
 */
import http2 from 'node:http2';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTestSchema } from '../../src/model/loadtest.js';
import { CONNECTION_CAPS } from '../../src/servers/connection-cap.js';
import type { MessageRecord } from '../../src/servers/kinds/messages/traffic.js';
import type { TrafficRecord } from '../../src/servers/index.js';
import { eventually, makeWorkspace, serve } from './helpers.js';
import { runTool } from './kinds/tools.js';
import { connect } from './kinds/ws-client.js';

const DEFAULTS = { ...CONNECTION_CAPS };
afterEach(() => void Object.assign(CONNECTION_CAPS, DEFAULTS));

const opened: net.Socket[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.destroy();
});

/** A client that collects what it is sent, and whether the server closed it. */
function client(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  opened.push(socket);
  const got: Buffer[] = [];
  let closed = false;
  socket.on('data', (c) => got.push(c));
  socket.on('error', () => {});
  socket.on('close', () => (closed = true));
  return { socket, text: () => Buffer.concat(got).toString(), closed: () => closed };
}

async function start(servers: Record<string, Record<string, unknown>>) {
  const handle = await serve(await makeWorkspace({ servers }));
  if (handle.failures.length) throw new Error(handle.failures[0]!.message);
  return { handle, port: handle.servers[0]!.port };
}

const refusals = (records: readonly TrafficRecord[]) => (records as MessageRecord[]).filter((r) => r.detail.preview?.startsWith('refused'));

describe('connection caps', () => {
  it('a TCP server keeps at most its cap of connections: one more is closed at once, a burst is one record and a count, the others are still answered', async () => {
    CONNECTION_CAPS.tcp = 8;
    const { handle, port } = await start({ raw: { name: 'Raw', kind: 'tcp', socket: { greeting: 'hi', lineEnding: 'lf' } } });
    const kept = Array.from({ length: 8 }, () => client(port));
    await eventually(async () => kept.every((c) => c.text() === 'hi\n'));
    const extra = Array.from({ length: 5 }, () => client(port));
    await eventually(async () => extra.every((c) => c.closed()), 3000);
    expect(extra.map((c) => c.text())).toEqual(['', '', '', '', '']);
    const why = "8 connections are open already, the TCP server's limit; close some, or spread the clients over a second server";
    await eventually(async () => refusals(handle.traffic.recent()).length === 2, 3000);
    const [first, more] = refusals(handle.traffic.recent());
    expect(first!.summary).toMatch(new RegExp(`^↔ 127\\.0\\.0\\.1:\\d+ error refused: ${why.replace(/[.()]/g, '\\$&')}$`));
    expect([first!.kind, first!.level, more!.detail.peer, more!.detail.preview]).toEqual(['tcp', 'error', 'clients', `refused 4 more: ${why}`]);
    // The connections kept are still answered, and one that leaves makes room for the next.
    kept[0]!.socket.write('still there?');
    await eventually(async () => kept[0]!.text() === 'hi\nstill there?');
    kept[1]!.socket.destroy();
    await eventually(async () => handle.servers[0]!.openStreams() === 7);
    const next = client(port);
    await eventually(async () => next.text() === 'hi\n');
    expect(kept.slice(2).every((c) => !c.closed())).toBe(true);
  });

  it('the port the HTTP kinds share keeps at most its cap: one more is closed at once and recorded, keep-alive connections kept are still answered', async () => {
    CONNECTION_CAPS.sharedHttp = 8;
    const { handle, port } = await start({ api: { name: 'API', http: { routes: [{ path: '/ok', body: 'ok' }] } } });
    const ask = 'GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const answers = (text: string) => text.split('HTTP/1.1 200 OK').length - 1;
    const kept = Array.from({ length: 8 }, () => client(port));
    for (const c of kept) c.socket.write(ask);
    await eventually(async () => kept.every((c) => answers(c.text()) === 1));
    const extra = Array.from({ length: 5 }, () => client(port));
    for (const c of extra) c.socket.write(ask);
    await eventually(async () => extra.every((c) => c.closed()), 3000);
    expect(extra.map((c) => c.text())).toEqual(['', '', '', '', '']);
    const why = "8 connections are open already, the server's limit; close some (a load test: fewer users or a lower maxInFlight), or spread the clients over a second server";
    await eventually(async () => refusals(handle.traffic.recent()).length === 2, 3000);
    const [first, more] = refusals(handle.traffic.recent());
    expect(first!.summary).toMatch(/^↔ 127\.0\.0\.1:\d+ error refused: 8 connections are open already/);
    expect([first!.kind, first!.level, first!.detail.preview, more!.detail.peer, more!.detail.preview]).toEqual(['http', 'error', `refused: ${why}`, 'clients', `refused 4 more: ${why}`]);
    // Each kept connection answers again (keep-alive), none was closed.
    for (const c of kept) c.socket.write(ask);
    await eventually(async () => kept.every((c) => answers(c.text()) === 2));
    expect(kept.every((c) => !c.closed())).toBe(true);
    expect(handle.servers[0]!.openConnections()).toBe(8);
  });

  it('upgraded WebSocket connections count: past the cap a new one is closed before its upgrade, and the ones kept still echo', async () => {
    CONNECTION_CAPS.sharedHttp = 4;
    const { handle, port } = await start({ chat: { name: 'Chat', kind: 'websocket', websocket: {} } });
    const kept = await Promise.all(Array.from({ length: 4 }, () => connect(`ws://127.0.0.1:${port}/`)));
    await expect(connect(`ws://127.0.0.1:${port}/`)).rejects.toThrow(/socket hang up|ECONNRESET/);
    await eventually(async () => refusals(handle.traffic.recent()).length === 1);
    expect(refusals(handle.traffic.recent())[0]!.kind).toBe('websocket');
    kept.forEach((c, i) => c.ws.send(`still ${i}`));
    await Promise.all(kept.map((c, i) => eventually(async () => c.received.some((m) => m.data === `still ${i}`))));
    for (const c of kept) c.ws.close();
  });

  it('a DNS server keeps at most its cap of TCP connections: kdig +tcp past it is closed unanswered and recorded, UDP and the connections kept are still answered', async () => {
    CONNECTION_CAPS.dnsTcp = 4;
    const { handle, port } = await start({ names: { name: 'Names', kind: 'dns', dns: { records: [{ name: 'api.example.test', type: 'A', value: '127.0.0.1' }] } } });
    const kdig = async (...flags: string[]) => (await runTool('kdig', ['@127.0.0.1', '-p', String(port), '+retry=0', '+time=2', '+short', ...flags, 'api.example.test', 'A'])).stdout.toString().trim();
    const kept = Array.from({ length: 4 }, () => client(port));
    await eventually(async () => handle.servers[0]!.openConnections() === 4);
    expect(await kdig('+tcp')).toBe('');
    const extra = Array.from({ length: 3 }, () => client(port));
    await eventually(async () => extra.every((c) => c.closed()), 3000);
    const why = "4 TCP connections are open already, the DNS server's limit; close some (UDP is still answered), or spread the clients over a second server";
    await eventually(async () => refusals(handle.traffic.recent()).length === 2, 3000);
    const [first, more] = refusals(handle.traffic.recent());
    expect([first!.kind, first!.level, first!.detail.preview, more!.detail.peer, more!.detail.preview]).toEqual(['dns', 'error', `refused: ${why}`, 'clients', `refused 3 more: ${why}`]);
    expect(await kdig()).toBe('127.0.0.1');
    // A connection kept is still answered (a query with its two-byte length), none was closed.
    const query = dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'api.example.test' }] });
    kept[0]!.socket.write(Buffer.concat([Buffer.from([0, query.length]), query]));
    await eventually(async () => kept[0]!.text().length > 0);
    expect(kept.every((c) => !c.closed())).toBe(true);
    // One that leaves makes room for the next.
    kept[1]!.socket.destroy();
    await eventually(async () => handle.servers[0]!.openConnections() === 3);
    expect(await kdig('+tcp')).toBe('127.0.0.1');
  });

  it('every accepted connection is probed after 60 s of silence (TCP keepalive, as the system shows it), so a vanished peer frees its place: HTTP, HTTPS, TCP, DNS over TCP, both sides of a relay', async () => {
    const target = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()));
    const targetPort = (target.address() as net.AddressInfo).port;
    try {
      const { handle } = await start({
        api: { name: 'API', http: { routes: [{ path: '/ok', body: 'ok' }] } },
        secure: { name: 'Secure', tls: { enabled: true }, http: { routes: [{ path: '/ok', body: 'ok' }] } },
        raw: { name: 'Raw', kind: 'tcp', socket: {} },
        names: { name: 'Names', kind: 'dns', dns: { records: [] } },
        wire: { name: 'Wire', kind: 'tcpProxy', proxy: { target: `127.0.0.1:${targetPort}` } },
      });
      const ports = handle.servers.map((s) => s.port);
      expect(ports).toHaveLength(5);
      for (const port of ports) client(port);
      await eventually(async () => handle.servers.every((s) => s.openConnections() >= 1));
      // `ss -o` prints a socket's timer: `timer:(keepalive,59sec,0)` once keepalive is on.
      const timers = async (filter: string) => (await runTool('ss', ['-tnoH', 'state', 'established', filter])).stdout.toString().trim().split('\n').filter(Boolean);
      const probed = /timer:\(keepalive,(?:[5]\dsec|1min),0\)/;
      for (const port of ports) {
        const accepted = await timers(`( sport = :${port} )`);
        expect(accepted, `port ${port}`).toHaveLength(1);
        expect(accepted[0], `port ${port}`).toMatch(probed);
      }
      // The relay's own connection to the target (the test's target sets none on its side).
      await eventually(async () => (await timers(`( dport = :${targetPort} )`)).length === 1);
      expect((await timers(`( dport = :${targetPort} )`))[0]).toMatch(probed);
      expect((await timers(`( sport = :${targetPort} )`))[0]).not.toMatch(/keepalive/);
    } finally {
      target.close();
    }
  });

  it('one HTTP/2 connection keeps at most its cap of streams at once: event streams past it are refused, the ones kept still flow, and a stream closed makes room', async () => {
    CONNECTION_CAPS.http2Streams = 4;
    const { handle, port } = await start({ events: { name: 'Events', kind: 'sse', tls: { enabled: true }, sse: { events: [{ data: 'hi' }], repeat: true } } });
    const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on('error', () => {});
    try {
      const settings = new Promise<http2.Settings>((resolve) => session.once('remoteSettings', resolve));
      // Ten streams asked at once, before the server's settings are read: a client that ignores them.
      const streams = Array.from({ length: 10 }, () => {
        const stream = session.request({ ':path': '/' });
        const state = { answered: false, refused: false, data: 0 };
        stream.on('response', () => (state.answered = true));
        stream.on('data', () => state.data++);
        stream.on('error', () => (state.refused = true));
        return { stream, state };
      });
      expect((await settings).maxConcurrentStreams).toBe(4);
      await eventually(async () => streams.filter((s) => s.state.answered).length === 4 && streams.some((s) => s.state.refused), 5000);
      await new Promise((r) => setTimeout(r, 300));
      const kept = streams.filter((s) => s.state.answered);
      expect(kept).toHaveLength(4);
      expect(handle.servers[0]!.openConnections()).toBe(1);
      // The streams kept still flow; one closed makes room for the next.
      const before = kept.map((s) => s.state.data);
      await eventually(async () => kept.every((s, i) => s.state.data > before[i]!), 5000);
      kept[0]!.stream.close();
      await eventually(async () => handle.servers[0]!.openStreams() === 3);
      const next = session.request({ ':path': '/' });
      next.on('error', () => {});
      await new Promise<void>((resolve) => next.once('response', () => resolve()));
    } finally {
      session.destroy();
    }
  });

  it('the shared port\'s cap is above the connections a default load test opens (one per request in flight)', () => {
    const defaults = loadTestSchema.parse({ name: 'Default' });
    expect(CONNECTION_CAPS.sharedHttp).toBeGreaterThan(defaults.maxInFlight);
  });
});
