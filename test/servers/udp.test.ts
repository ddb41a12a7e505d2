/** The UDP server against socat on 127.0.0.1 (each datagram one message, replies to the sender). */
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../src/servers/kinds/messages/traffic.js';
import { eventually, makeWorkspace, serve } from './helpers.js';
import { runTool } from './kinds/tools.js';

async function udpServer(socket: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const root = await makeWorkspace({ servers: { dgram: { name: 'Datagrams', kind: 'udp', socket, ...extra } } });
  const handle = await serve(root);
  return { handle, server: handle.servers[0], failures: handle.failures };
}

const socat = (port: number, input: Buffer | string) => runTool('socat', ['-t', '0.4', '-', `UDP:127.0.0.1:${port}`], input).then((r) => r.stdout);

describe('UDP server', () => {
  it('echoes each datagram to its sender (socat)', async () => {
    const { server, handle } = await udpServer({});
    expect(server!.url).toMatch(/^udp:\/\/127\.0\.0\.1:\d+$/);
    expect((await socat(server!.port, 'hello')).toString()).toBe('hello');
    const records = handle.traffic.recent() as MessageRecord[];
    expect(records.map((r) => [r.summary, r.note, r.bytesIn, r.bytesOut])).toEqual([[expect.stringMatching(/^← 127\.0\.0\.1:\d+ "hello"$/), 'echoed', 5, 5]]);
  });

  it('answers with rules: text with {{message}} and lineEnding, hex bytes as written', async () => {
    const text = await udpServer({ mode: 'rules', lineEnding: 'crLf', rules: [{ match: 'regex', pattern: '^time', reply: 'now {{message}}' }, { match: 'any', reply: '?', enabled: false }] });
    expect((await socat(text.server!.port, 'time please\n')).toString()).toBe('now time please\r\n');
    expect((await socat(text.server!.port, 'nothing')).length).toBe(0);
    const hex = await udpServer({ mode: 'rules', encoding: 'hex', lineEnding: 'lf', rules: [{ match: 'exact', pattern: '01 02', reply: 'aa bb' }, { pattern: 'ff', reply: 'cc' }] });
    expect((await socat(hex.server!.port, Buffer.from([1, 2]))).toString('hex')).toBe('aabb');
    expect((await socat(hex.server!.port, Buffer.from([0, 0xff, 0]))).toString('hex')).toBe('cc');
  });

  it('discards, and in manual mode sends what is pushed to recent senders', async () => {
    const discard = await udpServer({ mode: 'discard' });
    expect((await socat(discard.server!.port, 'x')).length).toBe(0);
    const manual = await udpServer({ mode: 'manual' });
    const client = dgram.createSocket('udp4');
    await new Promise<void>((r) => client.bind(0, '127.0.0.1', () => r()));
    client.send('hi', manual.server!.port, '127.0.0.1');
    const got = new Promise<string>((r) => client.once('message', (m) => r(m.toString())));
    for (let i = 0; i < 100 && manual.server!.openStreams() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(manual.server!.pushEvent('pushed')).toBe(1);
    expect(await got).toBe('pushed');
    client.close();
  });

  it('echoes a datagram of the largest size; a reply that would not fit one is not sent, and the log says why', async () => {
    const client = dgram.createSocket('udp4');
    await new Promise<void>((r) => client.bind(0, '127.0.0.1', () => r()));
    const ask = (port: number, bytes: Buffer) =>
      new Promise<Buffer | undefined>((resolve) => {
        const timer = setTimeout(() => (client.off('message', got), resolve(undefined)), 600);
        const got = (m: Buffer) => (clearTimeout(timer), resolve(m));
        client.once('message', got);
        client.send(bytes, port, '127.0.0.1');
      });
    const largest = Buffer.alloc(65_507, 0x61);
    const echo = await udpServer({});
    expect((await ask(echo.server!.port, largest))?.equals(largest)).toBe(true);
    const rules = await udpServer({ mode: 'rules', lineEnding: 'lf', rules: [{ match: 'any', reply: 'got {{message}}' }] });
    expect(await ask(rules.server!.port, largest)).toBeUndefined();
    const out = (rules.handle.traffic.recent() as MessageRecord[]).find((r) => r.direction === 'out')!;
    expect(out.level).toBe('error');
    expect(out.bytesOut).toBe(0);
    expect(out.detail.event).toBe('error');
    expect(out.summary).toMatch(/not sent: the reply is 65,512 bytes, more than one UDP datagram holds \(65,507\) \(rule 1\)$/);
    // A reply that fits still goes out.
    expect((await ask(rules.server!.port, Buffer.from('small')))?.toString()).toBe('got small\n');
    client.close();
  });

  it('keeps at most 4,096 delayed replies (16 MB) waiting: a flood past that is not answered, and the log says so', async () => {
    // Each waiting reply holds its bytes ({{message}}: up to 64 KB) for delayMs; a sender that
    // never waits for an answer could otherwise fill the memory of ferry serve.
    const { server, handle } = await udpServer({ mode: 'rules', rules: [{ match: 'any', reply: '{{message}}', delayMs: 60_000 }] });
    const client = dgram.createSocket('udp4');
    await new Promise<void>((r) => client.bind(0, '127.0.0.1', () => r()));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const datagram = Buffer.alloc(1000, 0x61);
    let sent = 0;
    // Sent in bursts the socket buffers take, until 6,000 have arrived.
    for (let burst = 0; burst < 60; burst++) {
      await Promise.all(Array.from({ length: 100 }, () => new Promise<void>((r) => client.send(datagram, server!.port, '127.0.0.1', () => r()))));
      sent += 100;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(sent).toBe(6000);
    await eventually(async () => timers() - before >= 4000);
    await new Promise((r) => setTimeout(r, 500)); // the rest of the datagrams arrive
    expect(timers() - before).toBeLessThanOrEqual(4096 + 10);
    const dropped = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.level === 'warning');
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped[0]!.summary).toMatch(/not answered: 4,096 delayed replies are waiting already/);
    // And at most 16 MB of them: 400 datagrams of 60,000 bytes would be 24 MB.
    const big = await udpServer({ mode: 'rules', rules: [{ match: 'any', reply: '{{message}}', delayMs: 60_000 }] });
    const bigBefore = timers();
    const large = Buffer.alloc(60_000, 0x62);
    for (let i = 0; i < 400; i++) {
      await new Promise<void>((r) => client.send(large, big.server!.port, '127.0.0.1', () => r()));
      if (i % 2 === 1) await new Promise((r) => setTimeout(r, 2));
    }
    await eventually(async () => (big.handle.traffic.recent() as MessageRecord[]).some((r) => r.level === 'warning'));
    expect(timers() - bigBefore).toBeLessThanOrEqual(Math.floor((16 * 1024 * 1024) / 60_000) + 10);
    const tooMuch = (big.handle.traffic.recent() as MessageRecord[]).find((r) => r.level === 'warning')!;
    expect(tooMuch.summary).toMatch(/not answered: 1[56]\.\d MB of delayed replies is waiting already/);
    client.close();
  });

  it('refuses TLS', async () => {
    const { failures } = await udpServer({}, { tls: { enabled: true } });
    expect(failures[0]!.message).toMatch(/servers\/dgram\.yaml:\d+:\d+: tls: a UDP server has no TLS/);
  });
});
