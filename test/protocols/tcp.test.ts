/**
 * TCP and TLS requests against real peers on 127.0.0.1: servers written here for each framing,
 * partial reads and coalesced writes, half-close, TLS with SNI and verification, bad input
 * refused before anything is sent, and socat/ncat from Debian as second peers.
 */
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceSchema } from '../../src/model/index.js';
import { HttpAgents, requestKind, SendError, type ProtocolResult } from '../../src/protocols/index.js';
import { Deframer, frame } from '../../src/protocols/socket/framing.js';
import { PrepareError, prepareRequest } from '../../src/request/index.js';
import { describeKindCases, requestFor, sendCase, sendInheriting, type KindCase, failure } from './kind-cases.js';
import { hasProgram, onLines, startProgram, startTcpPeer, type TcpPeer } from './socket-peers.js';

const tcp: KindCase = {
  module: requestKind('tcp'),
  urlFor: (port, secure) => `${secure ? 'tls' : 'tcp'}://127.0.0.1:${port}`,
  wrongScheme: 'udp://127.0.0.1:1',
  fields: { body: { type: 'text', text: 'ping' } },
  startTls: async () => {
    const peer = await startTcpPeer((socket) => socket.end('pong'), true);
    return { url: `tls://127.0.0.1:${peer.port}`, close: () => peer.close() };
  },
  waitsForHandshake: false,
};

describeKindCases(tcp);

const peers: TcpPeer[] = [];
afterAll(async () => {
  for (const peer of peers) await peer.close();
});

async function peer(onConnection: (socket: net.Socket) => void, secure = false) {
  const started = await startTcpPeer(onConnection, secure);
  peers.push(started);
  return started;
}

function send(url: string, fields: Record<string, unknown>, settings: Record<string, unknown> = {}): Promise<ProtocolResult> {
  return sendCase({ ...tcp, fields }, requestFor({ ...tcp, fields }, url, { timeoutMs: 5000, ...settings }));
}

const received = (r: ProtocolResult) => r.messages!.filter((m) => m.direction === 'received').map((m) => m.text);

describe('tcp: framing', () => {
  it('raw: the reads as they come until the peer closes; the body is the bytes in order', async () => {
    const p = await peer((socket) => socket.once('data', (d) => socket.end(`you said ${d.toString()}`)));
    const result = await send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'hello' } });
    expect(result.outcome).toEqual({ status: 0, text: 'connected', ok: true });
    expect(Buffer.from(result.body).toString()).toBe('you said hello');
    expect(result.stream!.stoppedBy).toBe('closed');
    expect(result.messages![0]).toMatchObject({ direction: 'sent', text: 'hello' });
    expect(result.remoteAddress).toBe('127.0.0.1');
  });

  it('line: lineEnding is added to the message; replies split into lines (CR LF and LF), a last line without ending kept', async () => {
    const p = await peer((socket) => onLines(socket, (line) => socket.end(`one\r\ntwo\nthree:${line}`)));
    const result = await send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'hi' }, socket: { framing: 'line', lineEnding: 'crLf' } });
    expect(Buffer.concat(p.received.at(-1)!).toString()).toBe('hi\r\n');
    expect(received(result)).toEqual(['one', 'two', 'three:hi']);
    expect(Buffer.from(result.body).toString()).toBe('one\ntwo\nthree:hi');
    expect(result.stream).toEqual({ events: 3, stoppedBy: 'closed' });
  });

  it('line: settings.stream.maxEvents stops reading while the peer keeps the connection open', async () => {
    const p = await peer((socket) => onLines(socket, (line) => socket.write(`a ${line}\nb ${line}\nc ${line}\n`)));
    const result = await send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'x' }, socket: { framing: 'line', lineEnding: 'lf' } }, { stream: { maxEvents: 2 } });
    expect(received(result)).toEqual(['a x', 'b x']);
    expect(result.stream).toEqual({ events: 2, stoppedBy: 'maxEvents' });
  });

  it('line: settings.stream.event stops at the first message with exactly that text', async () => {
    const p = await peer((socket) => onLines(socket, () => socket.write('250-one\n250-two\nOK\nlater\n')));
    const result = await send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'EHLO' }, socket: { framing: 'line', lineEnding: 'lf' } }, { stream: { event: 'OK' } });
    expect(received(result)).toEqual(['250-one', '250-two', 'OK']);
    expect(result.stream!.stoppedBy).toBe('event');
  });

  it('raw: the stream time limit ends reading of a peer that stays silent, as a normal end', async () => {
    const p = await peer(() => {});
    const result = await send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'anyone?' } }, { stream: { timeoutMs: 200 } });
    expect(result.stream).toEqual({ events: 0, stoppedBy: 'timeout' });
    expect(result.outcome.ok).toBe(true);
  });

  for (const lengthBytes of [1, 2, 4] as const) {
    it(`lengthPrefixed (${lengthBytes} bytes): the message is sent with its prefix; a reply split over three segments is one message, two in one segment are two`, async () => {
      const options = { framing: 'lengthPrefixed' as const, lengthBytes };
      const p = await peer((socket) => {
        socket.setNoDelay(true);
        socket.once('data', async (data) => {
          const [asked] = new Deframer(options).push(data);
          const first = frame(Buffer.from(`echo:${asked}`), options);
          // One message in three writes, each flushed before the next…
          const thirds = [first.subarray(0, 1), first.subarray(1, 4), first.subarray(4)];
          for (const piece of thirds) await new Promise<void>((resolve) => socket.write(piece, () => setImmediate(resolve)));
          // …then two messages in one write.
          socket.end(Buffer.concat([frame(Buffer.from('second'), options), frame(Buffer.from('third'), options)]));
        });
      });
      const result = await send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'ping' }, socket: options });
      const sent = Buffer.concat(p.received.at(-1)!);
      expect(sent.readUIntBE(0, lengthBytes)).toBe(4);
      expect(sent.subarray(lengthBytes).toString()).toBe('ping');
      expect(received(result)).toEqual(['echo:ping', 'second', 'third']);
      expect(result.stream).toEqual({ events: 3, stoppedBy: 'closed' });
    });
  }

  it('the deframer cuts prefixed messages right whatever the reads: byte by byte and all at once', () => {
    const options = { framing: 'lengthPrefixed' as const, lengthBytes: 2 as const };
    const wire = Buffer.concat(['a', '', 'longer message'].map((t) => frame(Buffer.from(t), options)));
    const one = new Deframer(options);
    const byByte = [...wire].flatMap((byte) => one.push(Buffer.from([byte])).map(String));
    expect(byByte).toEqual(['a', '', 'longer message']);
    expect(new Deframer(options).push(wire).map(String)).toEqual(['a', '', 'longer message']);
    const lines = new Deframer({ framing: 'line', lengthBytes: 2 });
    expect([...lines.push(Buffer.from('a\r')), ...lines.push(Buffer.from('\nb\n\nc'))].map(String)).toEqual(['a', 'b', '']);
    expect(String(lines.end().last)).toBe('c');
  });

  it('a live connection\'s bound (maxResponseMb) holds a message of exactly the bound however the reads fall, its prefix or a CR before the LF not counted; a byte more is refused (it was refused when the prefix or CR tipped the bytes held over)', () => {
    const bound = 8;
    for (const options of [{ framing: 'line', lengthBytes: 2 }, { framing: 'lengthPrefixed', lengthBytes: 1 }, { framing: 'lengthPrefixed', lengthBytes: 4 }] as const) {
      const line = options.framing === 'line';
      const wire = (content: Buffer) => (line ? Buffer.concat([content, Buffer.from('\r\n')]) : frame(content, options));
      const exact = wire(Buffer.alloc(bound, 0x61));
      // Every cut into two reads, and byte by byte.
      for (let at = 0; at <= exact.length; at++) {
        const deframer = new Deframer(options, bound);
        expect([...deframer.push(exact.subarray(0, at)), ...deframer.push(exact.subarray(at))].map(String), `${options.framing} cut at ${at}`).toEqual(['a'.repeat(bound)]);
      }
      const byByte = new Deframer(options, bound);
      expect([...exact].flatMap((byte) => byByte.push(Buffer.from([byte]))).map(String)).toEqual(['a'.repeat(bound)]);
      const over = wire(Buffer.alloc(bound + 1, 0x61));
      expect(() => new Deframer(options, bound).push(over.subarray(0, over.length - 2)), options.framing).toThrow();
    }
  });

  it('the deframer gives the same messages however the stream is cut into reads (every framing)', () => {
    const message = (line: boolean) => fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(line ? bytes.map((b) => (b === 0x0a || b === 0x0d ? 0x41 : b)) : bytes));
    for (const options of [{ framing: 'line', lengthBytes: 2 }, { framing: 'lengthPrefixed', lengthBytes: 1 }, { framing: 'lengthPrefixed', lengthBytes: 2 }, { framing: 'lengthPrefixed', lengthBytes: 4 }] as const) {
      const line = options.framing === 'line';
      fc.assert(
        fc.property(fc.array(message(line), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 40 }), (messages, cuts) => {
          const wire = Buffer.concat(messages.map((m) => (line ? Buffer.concat([m, Buffer.from('\n')]) : frame(m, options))));
          const at = [...new Set(cuts.map((c) => c % (wire.length + 1)))].sort((a, b) => a - b);
          const deframer = new Deframer(options);
          const got: Buffer[] = [];
          let from = 0;
          for (const to of [...at, wire.length]) {
            got.push(...deframer.push(wire.subarray(from, to)));
            from = to;
          }
          expect(got.map((b) => b.toString('hex'))).toEqual(messages.map((m) => m.toString('hex')));
          expect(deframer.end()).toEqual({});
        }),
      );
    }
  });

  it('a peer closing in the middle of a prefixed message: the whole ones are kept, the cut-off bytes reported', async () => {
    const options = { framing: 'lengthPrefixed' as const, lengthBytes: 2 as const };
    const p = await peer((socket) => socket.end(Buffer.concat([frame(Buffer.from('whole'), options), Buffer.from([0, 9, 65, 66])])));
    const result = await send(`tcp://127.0.0.1:${p.port}`, { socket: options });
    expect(received(result)).toEqual(['whole']);
    expect(result.detail).toEqual({ cutOff: 4 });
  });

  it('hex encoding: body.text is byte pairs; replies are shown as byte pairs', async () => {
    const p = await peer((socket) => socket.once('data', (d) => socket.end(Buffer.concat([d, Buffer.from([0x00, 0xff])]))));
    const result = await send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'DE ad\nbe  ef' }, socket: { encoding: 'hex', lineEnding: 'lf' } });
    expect([...Buffer.concat(p.received.at(-1)!)]).toEqual([0xde, 0xad, 0xbe, 0xef]);
    expect(result.messages![0]!.text).toBe('de ad be ef');
    expect(Buffer.from(result.body).toString()).toBe('de ad be ef 00 ff');
  });

  it('bytes that are not UTF-8 are kept as base64 marked binary in text encoding', async () => {
    const p = await peer((socket) => socket.end(Buffer.from([0xff, 0xfe, 0x00])));
    const result = await send(`tcp://127.0.0.1:${p.port}`, {});
    expect(result.messages).toEqual([expect.objectContaining({ direction: 'received', text: '//4A', binary: true })]);
  });

  it('half-close: a peer that ends its side after answering ends reading, and nothing is lost', async () => {
    const p = await peer((socket) => {
      socket.write('part one,');
      socket.end(' part two');
    });
    const result = await send(`tcp://127.0.0.1:${p.port}`, {}, { stream: { timeoutMs: 5000 } });
    expect(Buffer.from(result.body).toString()).toBe('part one, part two');
    expect(result.stream!.stoppedBy).toBe('closed');
  });

  it('a reset before any reply fails with one line', async () => {
    const p = await peer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const error = await failure(send(`tcp://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'x' } }));
    expect(error).toBeInstanceOf(SendError);
    expect((error as SendError).kind).toBe('reset');
    expect(error.message).toContain(`127.0.0.1:${p.port}`);
  });

  it('maxResponseMb bounds what is read: past it the send fails and the connection is closed', async () => {
    const p = await peer((socket) => socket.end(Buffer.alloc(2 * 1024 * 1024, 0x61)));
    const prepared = await prepareRequest({ request: requestFor({ ...tcp, fields: {} }, `tcp://127.0.0.1:${p.port}`), folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: tcp.module });
    const error = await failure(tcp.module.send!(prepared, { agents: new HttpAgents(), maxResponseMb: 1, workspaceRoot: process.cwd(), allowFilesOutside: false }));
    expect((error as SendError).kind).toBe('tooLarge');
    // Said of the peer and its messages (it said "the response body is larger than…", with no address).
    expect(error.message).toBe(`127.0.0.1:${p.port} sent more than 1 MB (maxResponseMb) in all, so Ferry stopped reading; stop sooner with settings.stream (maxEvents, timeoutMs, event), or raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`);
  });
});

describe('tcp: TLS', () => {
  it('tls:// with a host name sends SNI; verifyTls off accepts the self-signed peer', async () => {
    const p = await peer((socket) => socket.once('data', (d) => socket.end(`tls:${d.toString()}`)), true);
    const result = await send(`tls://localhost:${p.port}`, { body: { type: 'text', text: 'secret' } }, { verifyTls: false });
    expect(Buffer.from(result.body).toString()).toBe('tls:secret');
    expect(p.servername.at(-1)).toBe('localhost');
    expect(result.timings.tlsMs).toBeGreaterThan(0);
  });

  it('TLS to a plaintext server says so and what to change, not an OpenSSL dump (tls://, and wss:// by the shared wording)', async () => {
    const p = await peer((socket) => socket.end('220 plain text service ready\r\n'));
    const error = await failure(send(`tls://127.0.0.1:${p.port}`, { body: { type: 'text', text: 'x' } }));
    const expected = `TLS error with 127.0.0.1:${p.port}: the server does not answer TLS (wrong version number); it may be a plaintext server: use the URL's scheme without TLS (http://, ws://, mqtt://, tcp://…) or check the port.`;
    expect(error.message).toBe(expected);
    const websocket: KindCase = { module: requestKind('websocket'), urlFor: () => '', wrongScheme: '', waitsForHandshake: true };
    const ws = await failure(sendCase(websocket, requestFor(websocket, `wss://127.0.0.1:${p.port}/`, { timeoutMs: 5000 })));
    expect(ws.message).toBe(expected);
  });

  it('settings.timeoutMs bounds the TLS handshake with a peer that never answers it', async () => {
    const p = await peer(() => {});
    const error = await failure(send(`tls://127.0.0.1:${p.port}`, {}, { timeoutMs: 300 }));
    expect((error as SendError).kind).toBe('timeout');
    // It says how far connecting got and what to change (it said only "no complete response by then").
    expect(error.message).toBe(`timed out after 300 ms (settings.timeoutMs); 127.0.0.1:${p.port} accepted the connection but had not finished the TLS handshake by then; it may be a plaintext server: use tcp://, or check the port.`);
  });
});

describe('tcp: refused before sending', () => {
  async function refusal(url: string, fields: Record<string, unknown>) {
    const p = await peer(() => {});
    const error = await failure(send(url.replace('PORT', String(p.port)), fields));
    expect(p.connections).toBe(0);
    return error;
  }

  it('bad hex', async () => {
    const error = await refusal('tcp://127.0.0.1:PORT', { body: { type: 'text', text: 'de ad x1' }, socket: { encoding: 'hex' } });
    expect(error).toBeInstanceOf(SendError);
    expect(error.message).toContain('"x1" is not a byte pair');
  });

  it('a message longer than the length prefix can say', async () => {
    const error = await refusal('tcp://127.0.0.1:PORT', { body: { type: 'text', text: 'x'.repeat(256) }, socket: { framing: 'lengthPrefixed', lengthBytes: 1 } });
    expect(error.message).toContain('256 bytes, more than a 1-byte length prefix can say (255)');
  });

  it('a port out of range, no port, a path', async () => {
    const out = await failure(send('tcp://127.0.0.1:70000', {}));
    expect(out).toBeInstanceOf(PrepareError);
    expect(out.message).toContain('port 70000');
    expect(out.message).toContain('1 to 65535');
    expect((await failure(send('tcp://127.0.0.1', {}))).message).toContain('has no port');
    expect((await failure(send('tcp://127.0.0.1:0', {}))).message).toContain('port 0 in "tcp://127.0.0.1:0" is out of range');
    expect((await failure(send('tcp://127.0.0.1:9/path', {}))).message).toContain('host:port only');
  });

  it('an auth set on the request itself is refused, saying a TCP request sends none (it was silently left out)', async () => {
    for (const [auth, name] of [
      [{ type: 'bearer', token: 't0ken' }, 'Bearer'],
      [{ type: 'basic', username: 'ann', password: 'pw' }, 'Basic'],
      [{ type: 'apiKey', key: 'X-Key', value: 'k', location: 'header' }, 'API key'],
      [{ type: 'digest', username: 'ann', password: 'pw' }, 'Digest'],
    ] as const) {
      const error = await refusal('tcp://127.0.0.1:PORT', { body: { type: 'text', text: 'ping' }, auth });
      expect(error, name).toBeInstanceOf(PrepareError);
      expect(error.message, name).toBe(`request "case": ${name} auth is not sent by TCP requests: they carry no credentials of their own. Set this request's auth to none (or inherit).`);
      expect(error.message).not.toMatch(/t0ken|pw\b/);
    }
  });

  it("an auth inherited from the workspace or a folder is not applied: no OAuth 2.0 token is fetched, no Digest refusal, and the message is sent", async () => {
    const tokenRequests: string[] = [];
    const tokenServer = http.createServer((req, res) => (tokenRequests.push(req.url ?? ''), res.writeHead(500).end()));
    await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
    try {
      const p = await peer((socket) => socket.on('data', () => socket.end('pong')));
      const tokenUrl = `http://127.0.0.1:${(tokenServer.address() as net.AddressInfo).port}/token`;
      const request = requestFor({ ...tcp, fields: { body: { type: 'text', text: 'ping' } } }, `tcp://127.0.0.1:${p.port}`, { timeoutMs: 5000 });
      const oauth2 = { type: 'oauth2', grantType: 'clientCredentials', tokenUrl, clientId: 'c', clientSecret: 's' };
      expect(received(await sendInheriting(tcp.module, request, oauth2))).toEqual(['pong']);
      expect(received(await sendInheriting(tcp.module, request, oauth2, { type: 'digest', username: 'a', password: 'b' }))).toEqual(['pong']);
      expect(tokenRequests).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => tokenServer.close(() => resolve()));
    }
  });

  it("sends no headers: the request's own rows and the workspace's are left out, so one that HTTP would refuse cannot fail it", async () => {
    const p = await peer((socket) => socket.on('data', () => socket.end('pong')));
    const request = requestFor({ ...tcp, fields: { body: { type: 'text', text: 'ping' }, headers: [{ key: 'X-Trace', value: 'a\nb', enabled: true }] } }, `tcp://127.0.0.1:${p.port}`, { timeoutMs: 5000 });
    const file = workspaceSchema.parse({ version: 1, headers: [{ key: 'Not a name', value: 'x', enabled: true }] });
    const prepared = await prepareRequest({ request, path: 'Raw.yaml', folders: [], workspace: { root: process.cwd(), file } }, { kind: tcp.module });
    // (The body's Content-Type stays in the prepared request, as the body's description; no row goes.)
    expect(prepared.headers.map((h) => h.name)).toEqual(['Content-Type']);
    expect(tcp.module.sendsHeaders).toBe(false);
    const context = { agents: new HttpAgents(), maxResponseMb: 50, workspaceRoot: process.cwd(), allowFilesOutside: false };
    try {
      expect(received(await tcp.module.send!(prepared, context))).toEqual(['pong']);
    } finally {
      await context.agents.close();
    }
  });

  it('a wrong scheme names the ones a TCP request takes', async () => {
    const error = await failure(send('http://127.0.0.1:80', {}));
    expect(error.message).toContain('a TCP request needs a tcp:// or tls:// URL, not http://');
  });
});

describe.runIf(hasProgram('socat'))('tcp: socat as a second peer', () => {
  it('line framing against socat running cat', async () => {
    const socat = await startProgram('socat', (port) => ['-d', '-d', `TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr`, 'EXEC:cat'], /listening on/);
    try {
      const result = await send(`tcp://127.0.0.1:${socat.port}`, { body: { type: 'text', text: 'over socat' }, socket: { framing: 'line', lineEnding: 'lf' } }, { stream: { maxEvents: 1 } });
      expect(received(result)).toEqual(['over socat']);
      expect(result.stream!.stoppedBy).toBe('maxEvents');
    } finally {
      await socat.close();
    }
  });
});

describe.runIf(hasProgram('ncat'))('tcp: ncat as a second peer', () => {
  it('length-prefixed bytes through ncat --exec cat, and TLS through ncat --ssl', async () => {
    const plain = await startProgram('ncat', (port) => ['-v', '-l', '127.0.0.1', String(port), '--exec', '/bin/cat'], /Listening on/);
    try {
      const result = await send(`tcp://127.0.0.1:${plain.port}`, { body: { type: 'text', text: '01 02 03' }, socket: { framing: 'lengthPrefixed', lengthBytes: 4, encoding: 'hex' } }, { stream: { maxEvents: 1 } });
      expect(received(result)).toEqual(['01 02 03']);
    } finally {
      await plain.close();
    }
    const secure = await startProgram('ncat', (port) => ['-v', '--ssl', '--keep-open', '-l', '127.0.0.1', String(port), '--exec', '/bin/cat'], /Listening on/);
    try {
      const refused = await failure(send(`tls://127.0.0.1:${secure.port}`, { body: { type: 'text', text: 'x' } }));
      expect((refused as SendError).kind).toBe('tls');
      const result = await send(`tls://127.0.0.1:${secure.port}`, { body: { type: 'text', text: 'over ncat tls' }, socket: { framing: 'line', lineEnding: 'lf' } }, { verifyTls: false, stream: { maxEvents: 1 } });
      expect(received(result)).toEqual(['over ncat tls']);
    } finally {
      await secure.close();
    }
  });
});
