/** UDP requests against real peers on 127.0.0.1: echo, several datagrams, ICMP refusal, and bad input refused before sending. */
import dgram from 'node:dgram';
import { afterAll, describe, expect, it } from 'vitest';
import { requestKind, SendError, type ProtocolResult } from '../../src/protocols/index.js';
import { describeKindCases, requestFor, sendCase, sendWith, type KindCase, failure } from './kind-cases.js';
import { silentUdpPeer, udpEchoPeer } from './socket-peers.js';

const udp: KindCase = {
  module: requestKind('udp'),
  urlFor: (port) => `udp://127.0.0.1:${port}`,
  wrongScheme: 'tcp://127.0.0.1:1',
  // UDP has no connection: "refused" is the ICMP port unreachable a datagram to a closed port brings back.
  fields: { body: { type: 'text', text: 'ping' } },
  waitsForHandshake: false,
  silentPeer: silentUdpPeer,
};

describeKindCases(udp);

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function send(url: string, fields: Record<string, unknown>, settings: Record<string, unknown> = {}): Promise<ProtocolResult> {
  return sendCase({ ...udp, fields }, requestFor({ ...udp, fields }, url, { timeoutMs: 5000, ...settings }));
}

describe('udp', () => {
  it('echo: one datagram sent, each datagram back is one message', async () => {
    const peer = await udpEchoPeer((d) => [d, Buffer.from(`and ${d}`)]);
    closers.push(peer.close);
    const result = await send(`udp://127.0.0.1:${peer.port}`, { body: { type: 'text', text: 'hello' }, socket: { lineEnding: 'lf' } }, { stream: { maxEvents: 2 } });
    expect(peer.received.map(String)).toEqual(['hello\n']);
    expect(result.messages!.map((m) => [m.direction, m.text])).toEqual([['sent', 'hello\n'], ['received', 'hello\n'], ['received', 'and hello\n']]);
    expect(result.stream).toEqual({ events: 2, stoppedBy: 'maxEvents' });
    expect(result.outcome).toEqual({ status: 0, text: 'sent', ok: true });
    expect(Buffer.from(result.body).toString()).toBe('hello\n\nand hello\n');
  });

  it('hex both ways, and the time limit ends reading when no more datagrams come', async () => {
    const peer = await udpEchoPeer();
    closers.push(peer.close);
    const result = await send(`udp://localhost:${peer.port}`, { body: { type: 'text', text: '00 01 fe' }, socket: { encoding: 'hex' } }, { stream: { timeoutMs: 300 } });
    expect([...peer.received[0]!]).toEqual([0, 1, 0xfe]);
    expect(result.messages!.filter((m) => m.direction === 'received').map((m) => m.text)).toEqual(['00 01 fe']);
    expect(result.stream!.stoppedBy).toBe('timeout');
  });

  it('datagrams past maxResponseMb in all fail the request, said of the peer (it said "the response body is larger than…", with no address)', async () => {
    // 60,000-byte datagrams, one every 5 ms (a burst would overflow the socket's receive buffer and be dropped).
    const socket = dgram.createSocket('udp4');
    let timer: NodeJS.Timeout | undefined;
    socket.on('message', (_datagram, from) => {
      let sent = 0;
      timer = setInterval(() => (sent++ < 40 ? socket.send(Buffer.alloc(60_000, 0x61), from.port, from.address, () => {}) : clearInterval(timer)), 5);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const peer = { port: socket.address().port };
    const fields = { body: { type: 'text', text: 'flood' } };
    const error = await failure(sendWith(udp.module, requestFor({ ...udp, fields }, `udp://127.0.0.1:${peer.port}`, { timeoutMs: 5000, stream: { maxEvents: 0 } }), undefined, { maxResponseMb: 1 }));
    expect((error as SendError).kind).toBe('tooLarge');
    clearInterval(timer);
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    expect(error.message).toBe(`127.0.0.1:${peer.port} sent more than 1 MB (maxResponseMb) in all, so Ferry stopped reading; stop sooner with settings.stream (maxEvents, timeoutMs, event), or raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`);
  });

  it('ICMP port unreachable is reported as a refusal', async () => {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const port = socket.address().port;
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    const error = await failure(send(`udp://127.0.0.1:${port}`, { body: { type: 'text', text: 'x' } }));
    expect((error as SendError).kind).toBe('refused');
    expect(error.message).toContain('ICMP port unreachable');
  });

  it('broadcast: true sends to the loopback network\'s broadcast address, and takes answers from the hosts that heard it', async () => {
    // A host on the loopback network hears the broadcast on 127.255.255.255 and answers from its own address.
    const hears = dgram.createSocket('udp4');
    const answers = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => hears.bind(0, '127.255.255.255', resolve));
    await new Promise<void>((resolve) => answers.bind(0, '127.0.0.1', resolve));
    closers.push(async () => { hears.close(); answers.close(); });
    const heard: string[] = [];
    hears.on('message', (datagram, from) => {
      heard.push(String(datagram));
      answers.send(`here: ${datagram}`, from.port, from.address);
    });
    const result = await send(`udp://127.255.255.255:${hears.address().port}`, { body: { type: 'text', text: 'who is there?' }, socket: { broadcast: true } }, { stream: { maxEvents: 1 } });
    expect(heard).toEqual(['who is there?']);
    expect(result.messages!.map((m) => [m.direction, m.text])).toEqual([['sent', 'who is there?'], ['received', 'here: who is there?']]);
    expect(result.outcome.ok).toBe(true);
  });

  it('refused before sending: a broadcast address without broadcast: true, a datagram over 65,507 bytes, line framing', async () => {
    const peer = await udpEchoPeer();
    closers.push(peer.close);
    const broadcast = await failure(send(`udp://127.255.255.255:${peer.port}`, { body: { type: 'text', text: 'all' } }));
    expect((broadcast as SendError).kind).toBe('invalid');
    expect(broadcast.message).toContain('socket.broadcast');
    const big = await failure(send(`udp://127.0.0.1:${peer.port}`, { body: { type: 'text', text: 'x'.repeat(65_508) } }));
    expect(big.message).toContain('65508 bytes; UDP carries at most 65507');
    const framed = await failure(send(`udp://127.0.0.1:${peer.port}`, { body: { type: 'text', text: 'x' }, socket: { framing: 'line' } }));
    expect(framed.message).toContain('each UDP datagram is already one message');
    expect(peer.received).toEqual([]);
  });
});
