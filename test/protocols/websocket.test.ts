/** WebSocket requests against a real `ws` server on 127.0.0.1 (plain and TLS with the self-signed test certificate). */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { SendError } from '../../src/protocols/index.js';
import { requestKind } from '../../src/protocols/index.js';
import { describeKindCases, sendWith, type RunningPeer } from './kind-cases.js';
import { closedPort, nginxMissing, startNginx, testCertificate } from '../support/servers/index.js';
import { hawkCheck, oauth1Check, type Received } from '../support/auth-checks.js';
import { requestSchema, workspaceSchema } from '../../src/model/index.js';
import { prepareRequest } from '../../src/request/index.js';
import { binaryBodyFile, failure, received, sendRequest } from './streaming-send.js';
import { floodPings, rawPeer } from './raw-websocket-peer.js';

interface Upgrade {
  url: string;
  headers: http.IncomingHttpHeaders;
  protocol: string;
}

/** A `ws` server whose routes (by path) say what it does once a client connects. */
async function wsPeer(secure = false): Promise<RunningPeer & { port: number; upgrades: Upgrade[]; received: string[] }> {
  const server = secure ? https.createServer(await testCertificate()) : http.createServer();
  const upgrades: Upgrade[] = [];
  const got: string[] = [];
  const wss = new WebSocketServer({
    server,
    handleProtocols: (protocols, req) => (req.url === '/no-protocol' ? false : protocols.has('chat.v2') ? 'chat.v2' : false),
    verifyClient: (info, done) => (info.req.url === '/private' && info.req.headers.authorization !== 'Bearer open-sesame' ? done(false, 401, 'Unauthorized') : done(true)),
  });
  wss.on('connection', (socket: WebSocket, req) => {
    upgrades.push({ url: req.url ?? '', headers: req.headers, protocol: socket.protocol });
    socket.on('message', (data, isBinary) => {
      got.push(isBinary ? `binary:${(data as Buffer).toString('hex')}` : data.toString());
      if (req.url === '/echo') socket.send(data, { binary: isBinary });
    });
    const path = req.url ?? '/';
    if (path === '/greet' || path === '/private') socket.send('hello');
    if (path === '/five') for (let i = 1; i <= 5; i++) socket.send(`tick ${i}`);
    if (path === '/three-then-close') {
      socket.send('one');
      socket.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
      socket.send('three', () => socket.close(4001, 'done here'));
    }
    if (path === '/flood') {
      const count = 100_000;
      let i = 0;
      const pump = () => {
        while (i < count && socket.bufferedAmount < 1 << 20) socket.send(`m${i++}`);
        if (i < count && socket.readyState === socket.OPEN) setImmediate(pump);
        else if (i === count) socket.close(1000, 'all sent');
      };
      pump();
    }
    if (path === '/cut-handshake') socket.terminate();
  });
  // Upgrades on this path are dropped before the 101: a server that closes during the handshake.
  server.prependListener('upgrade', (req, socket) => {
    if (req.url === '/drop') socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `${secure ? 'wss' : 'ws'}://127.0.0.1:${port}/three-then-close`,
    upgrades,
    received: got,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

describeKindCases({
  module: requestKind('websocket'),
  urlFor: (port, secure) => `${secure ? 'wss' : 'ws'}://127.0.0.1:${port}/`,
  wrongScheme: 'http://127.0.0.1:1/',
  startTls: () => wsPeer(true),
  waitsForHandshake: true,
});

describe('websocket requests', () => {
  let peer: Awaited<ReturnType<typeof wsPeer>>;
  const base = () => `ws://127.0.0.1:${peer.port}`;
  beforeAll(async () => {
    peer = await wsPeer();
  });
  afterAll(() => peer.close());

  it('sends the body once connected and reads text and binary frames until the server closes, with its close code', async () => {
    const result = await sendRequest('websocket', { url: `${base()}/three-then-close`, body: { type: 'text', text: 'hi {{nobody}}' } });
    expect(result.outcome).toEqual({ status: 101, text: 'Switching Protocols', ok: true });
    expect(result.stream).toEqual({ events: 3, stoppedBy: 'closed', closedWith: 'close code 4001 "done here"' });
    expect(result.messages![0]).toMatchObject({ direction: 'sent', text: 'hi {{nobody}}' });
    expect(received(result).map((m) => [m.text, m.binary ?? false])).toEqual([['one', false], ['3q2+7w==', true], ['three', false]]);
    expect(result.detail).toMatchObject({ closeCode: 4001, closeReason: 'done here' });
    expect(Buffer.from(result.body).toString()).toBe('one\n3q2+7w==\nthree');
    // Reading ended at the server's close frame; the body sent before it reaches the server all the same.
    await expect.poll(() => peer.received).toContain('hi {{nobody}}');
  });

  it('a JSON body goes as a text frame; a binary body (body.type binary, a file) as a binary frame', async () => {
    const result = await sendRequest('websocket', { url: `${base()}/echo`, body: { type: 'json', text: '{"a":1}' }, settings: { stream: { maxEvents: 1 } } });
    expect(received(result)[0]!.text).toBe('{"a":1}');
    expect(result.stream!.stoppedBy).toBe('maxEvents');
    expect(peer.received.at(-1)).toBe('{"a":1}');
    const body = await binaryBodyFile(Uint8Array.from([0x00, 0xff, 0x10, 0x80]));
    try {
      const binary = await sendRequest('websocket', { url: `${base()}/echo`, body: { type: 'binary', file: body.file }, settings: { stream: { maxEvents: 1 } } });
      expect(peer.received.at(-1)).toBe('binary:00ff1080');
      expect(binary.messages![0]).toMatchObject({ direction: 'sent', text: 'AP8QgA==', binary: true });
      expect(received(binary)[0]).toMatchObject({ text: 'AP8QgA==', binary: true });
    } finally {
      await body.remove();
    }
  });

  it('stops at maxEvents and at the time limit; stream.event does not apply', async () => {
    const two = await sendRequest('websocket', { url: `${base()}/five`, settings: { stream: { maxEvents: 2, event: 'tick 1' } } });
    expect(two.stream).toEqual({ events: 2, stoppedBy: 'maxEvents' });
    const quiet = await sendRequest('websocket', { url: `${base()}/greet`, settings: { stream: { timeoutMs: 200 } } });
    expect(quiet.stream).toEqual({ events: 1, stoppedBy: 'timeout' });
  });

  it('puts the request headers, auth and subprotocols on the upgrade, and the server sees them', async () => {
    const result = await sendRequest('websocket', {
      url: `${base()}/private`,
      headers: [{ key: 'X-Trace', value: 'abc' }, { key: 'Sec-WebSocket-Protocol', value: 'chat.v1, chat.v2' }],
      auth: { type: 'bearer', token: 'open-sesame' },
      settings: { stream: { maxEvents: 1 } },
    });
    expect(received(result)[0]!.text).toBe('hello');
    expect(result.detail).toMatchObject({ protocol: 'chat.v2' });
    expect(result.headers.find(([name]) => name.toLowerCase() === 'sec-websocket-protocol')?.[1]).toBe('chat.v2');
    const seen = peer.upgrades.at(-1)!;
    expect(seen.headers['x-trace']).toBe('abc');
    expect(seen.headers.authorization).toBe('Bearer open-sesame');
    expect(seen.protocol).toBe('chat.v2');
  });

  it('a header value beyond Latin-1 fails with one line naming the header and the character (ws threw, read as a bug in Ferry); Latin-1 is sent as its bytes', async () => {
    const error = await failure(sendRequest('websocket', { url: `${base()}/greet`, headers: [{ key: 'X-Who', value: 'Zoë ☃' }] }));
    expect(error.message).toBe('request "stream": the value of header X-Who has "☃" at character 5, which an HTTP header cannot carry (its values are Latin-1 text without control characters); percent-encode the value, or check the variables it uses.');
    const control = await failure(sendRequest('websocket', { url: `${base()}/greet`, headers: [{ key: 'X-Who', value: 'a\u0007b' }] }));
    expect(control.message).toContain('header X-Who has U+0007 at character 2');
    const before = peer.upgrades.length;
    await sendRequest('websocket', { url: `${base()}/greet`, headers: [{ key: 'X-Who', value: 'Zoë\tx' }], settings: { stream: { maxEvents: 1 } } });
    expect(peer.upgrades.length).toBe(before + 1);
    expect(peer.upgrades.at(-1)!.headers['x-who']).toBe('Zo\u00eb\tx');
  });

  it('signs the upgrade as the GET it is (Hawk crashed the run on the empty method; OAuth 1.0 signed "")', async () => {
    const upgrade = (): Received => {
      const seen = peer.upgrades.at(-1)!;
      return { method: 'GET', target: seen.url, host: String(seen.headers.host), headers: seen.headers, body: Buffer.alloc(0) };
    };
    await sendRequest('websocket', { url: `${base()}/greet`, auth: { type: 'hawk', authId: 'dh37fgj492je', authKey: 'werxhqb98rpaxn39848xrunpaw3489ruxnpa98w4rxn' }, settings: { stream: { maxEvents: 1 } } });
    expect(hawkCheck(upgrade(), peer.port, { key: 'werxhqb98rpaxn39848xrunpaw3489ruxnpa98w4rxn', algorithm: 'sha256' }).ok).toBe(true);
    // ws:// without a port is port 80, which Hawk signs (its library took 443 for any scheme but http:).
    const prepared = await prepareRequest({ request: requestSchema.parse({ name: 'w', kind: 'websocket', url: 'ws://127.0.0.1/live', auth: { type: 'hawk', authId: 'id', authKey: 'key' } }), folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: requestKind('websocket') });
    const headers = Object.fromEntries(prepared.headers.map((h) => [h.name.toLowerCase(), h.value]));
    expect(hawkCheck({ method: 'GET', target: '/live', host: '127.0.0.1', headers, body: Buffer.alloc(0) }, 80, { key: 'key', algorithm: 'sha256' }).ok).toBe(true);
    await sendRequest('websocket', { url: `${base()}/greet`, auth: { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', token: 't', tokenSecret: 'ts' }, settings: { stream: { maxEvents: 1 } } });
    expect(oauth1Check(upgrade(), { consumerSecret: 'cs', tokenSecret: 'ts' }).ok).toBe(true);
  });

  it('refuses Digest and NTLM before connecting, rather than opening without credentials', async () => {
    const before = peer.upgrades.length;
    for (const auth of [{ type: 'digest', username: 'a', password: 'b' }, { type: 'ntlm', username: 'DOM\\a', password: 'b' }]) {
      const error = await failure(sendRequest('websocket', { url: `${base()}/greet`, auth }));
      expect(error.message).toMatch(/(Digest|NTLM) auth answers the server's challenge on HTTP and SSE requests only, not on a WebSocket request; use Basic, Bearer or an API key, or a header\.$/);
    }
    expect(peer.upgrades.length).toBe(before);
  });

  it('a refused upgrade, a refused subprotocol and a dropped handshake each fail with one line', async () => {
    const unauthorized = await failure(sendRequest('websocket', { url: `${base()}/private` }));
    expect(unauthorized).toBeInstanceOf(SendError);
    expect(unauthorized.message).toMatch(/answered HTTP 401 Unauthorized instead of opening the WebSocket/);
    const protocol = await failure(sendRequest('websocket', { url: `${base()}/no-protocol`, headers: [{ key: 'Sec-WebSocket-Protocol', value: 'chat.v1' }] }));
    expect(protocol.message).toMatch(/subprotocol/);
    expect((protocol as SendError).kind).toBe('protocol');
    const dropped = await failure(sendRequest('websocket', { url: `${base()}/drop` }));
    expect(dropped.message).toMatch(/closed the connection during the WebSocket handshake/);
    for (const error of [unauthorized, protocol, dropped]) expect(error.message).not.toContain('\n');
  });

  it.skipIf(nginxMissing())("nginx's 502 for a server behind it that is down says to check that server, not the path and auth (it said so for every status)", async () => {
    const nginx = await startNginx(`location / { proxy_pass http://127.0.0.1:${await closedPort()}; proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"; }`);
    try {
      const down = await failure(sendRequest('websocket', { url: `ws://127.0.0.1:${nginx.port}/chat` }));
      expect(down.message).toBe(`127.0.0.1:${nginx.port} answered HTTP 502 Bad Gateway instead of opening the WebSocket (no 101 upgrade); a proxy in front of the server (such as nginx) answers 502 when the server behind it is down or does not answer: check that it runs, and the proxy's upstream.`);
    } finally {
      await nginx.close();
    }
    const unauthorized = await failure(sendRequest('websocket', { url: `${base()}/private` }));
    expect(unauthorized.message).toMatch(/answered HTTP 401 Unauthorized instead of opening the WebSocket \(no 101 upgrade\); check the URL's path, the auth and the headers\.$/);
  });

  it('ws:// to a TLS server: the dropped handshake says to use wss://', async () => {
    const secure = https.createServer(await testCertificate());
    new WebSocketServer({ server: secure });
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    const port = (secure.address() as AddressInfo).port;
    try {
      const error = await failure(sendRequest('websocket', { url: `ws://127.0.0.1:${port}/` }));
      expect(error.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} closed the connection during the WebSocket handshake \\([^)]+\\); if it is a TLS server, use wss://\\.$`));
    } finally {
      secure.close();
    }
  });

  it('cancelling an open stream closes it at once', async () => {
    const controller = new AbortController();
    const sending = sendRequest('websocket', { url: `${base()}/greet`, settings: { stream: { timeoutMs: 30000 } } }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    const error = await failure(sending);
    expect(error.message).toContain('cancelled');
  });

  it('100,000 small messages with maxEvents 0 and a time limit: all counted, only the first 1,000 kept', async () => {
    const result = await sendRequest('websocket', { url: `${base()}/flood`, settings: { stream: { maxEvents: 0, timeoutMs: 60000 } } });
    expect(result.stream).toEqual({ events: 100_000, stoppedBy: 'closed', closedWith: 'close code 1000 "all sent"' });
    expect(result.messages).toHaveLength(1000);
    expect(result.messages!.at(-1)!.text).toBe('m999');
    expect(result.body.length).toBeLessThan(1000 * 6);
    expect(result.bodySize).toBeGreaterThan(400_000); // every message's bytes counted
  }, 90_000);
});

describe('hand-made WebSocket peers', () => {
  const pingFlood = () => rawPeer(floodPings);

  it('a server answering with a subprotocol that was not offered, or with none, is named with what it chose and what was offered (it said "did not accept the offered subprotocol" when none was offered)', async () => {
    const cases: Array<[string | undefined, string[], (host: string) => string]> = [
      ['chat.v9', [], (host) => `${host} chose the subprotocol "chat.v9" (Sec-WebSocket-Protocol) though the request offered none, so Ferry closed the connection; offer it with a Sec-WebSocket-Protocol header.`],
      ['chat.v9', ['chat.v1', 'chat.v2'], (host) => `${host} chose the subprotocol "chat.v9" (Sec-WebSocket-Protocol), which is not one the request offered (chat.v1, chat.v2), so Ferry closed the connection; check the Sec-WebSocket-Protocol header.`],
      [undefined, ['chat.v1'], (host) => `${host} did not accept the offered subprotocol (chat.v1): its answer names none (Sec-WebSocket-Protocol), so Ferry closed the connection; check the Sec-WebSocket-Protocol header, or leave it out.`],
    ];
    for (const [chosen, offered, words] of cases) {
      const peer = await rawPeer(() => {}, chosen ? { protocol: chosen } : {});
      try {
        const error = await failure(sendRequest('websocket', { url: peer.url, headers: offered.length ? [{ key: 'Sec-WebSocket-Protocol', value: offered.join(', ') }] : [] }));
        expect(error.message).toBe(words(peer.host));
        expect((error as SendError).kind).toBe('protocol');
      } finally {
        peer.close();
      }
    }
  });

  it("a close frame ends reading at once, though the server keeps the connection open (ws waited 30 s for it to go)", async () => {
    // ws's own wait for the connection to go was 30 s: under this test's 10 s timeout, a read that waits for it fails the test.
    // A text frame "hi", then a close frame 1000 "bye"; the TCP connection stays.
    const peer = await rawPeer((socket) => socket.write(Buffer.from([0x81, 2, 0x68, 0x69, 0x88, 5, 0x03, 0xe8, 0x62, 0x79, 0x65])));
    try {
      const result = await sendRequest('websocket', { url: peer.url, settings: { stream: { timeoutMs: 0 } } });
      expect(result.stream).toEqual({ events: 1, stoppedBy: 'closed', closedWith: 'close code 1000 "bye"' });
      expect(result.detail).toMatchObject({ closeCode: 1000, closeReason: 'bye' });
    } finally {
      peer.close();
    }
  }, 10_000);

  it('is cut once 60 pongs wait unsent, as ws clients do, and the request fails naming the flood (it passed as closed 1006)', async () => {
    const peer = await pingFlood();
    try {
      const request = requestSchema.parse({ name: 'pings', kind: 'websocket', url: peer.url, settings: { timeoutMs: 5000, stream: { timeoutMs: 8000 } } });
      const error = await failure(sendWith(requestKind('websocket'), request, undefined, { maxResponseMb: 1 }));
      expect(error.message).toBe(`${peer.host} flooded the connection with WebSocket pings without reading Ferry's pongs (60 pongs waiting to be sent), so Ferry closed the connection; the server must read what it is sent.`);
      expect((error as SendError).kind).toBe('protocol');
      expect(peer.sent.bytes).toBeLessThan(16 * 1024 * 1024);
    } finally {
      peer.close();
    }
  });
});

describe('a signed WebSocket upgrade that is redirected', () => {
  // Two `ws` servers recording every upgrade they get: "a" redirects /old to its own /new and /away
  // to b's /new. Signatures are checked by Hawk's specification (auth-checks.ts).
  const seen: Array<Received & { server: string }> = [];
  const peers: Array<{ server: http.Server; wss: WebSocketServer; port: number }> = [];
  const portOf = (name: 'a' | 'b') => peers[name === 'a' ? 0 : 1]!.port;
  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const server = http.createServer();
      const wss = new WebSocketServer({
        server,
        verifyClient: (info, done) => {
          const req = info.req;
          seen.push({ server: name, method: req.method ?? '', target: req.url ?? '', host: String(req.headers.host), headers: req.headers, body: Buffer.alloc(0) });
          if (req.url === '/old') done(false, 307, 'Temporary Redirect', { Location: '/new?v=2' });
          else if (req.url === '/away') done(false, 307, 'Temporary Redirect', { Location: `ws://127.0.0.1:${portOf('b')}/new` });
          else done(true);
        },
      });
      wss.on('connection', (socket: WebSocket) => socket.send('hi'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      peers.push({ server, wss, port: (server.address() as AddressInfo).port });
    }
  });
  afterAll(async () => {
    for (const { server, wss } of peers) {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('signs the upgrade again for each redirect within the origin, for its own path and query (Hawk), as the HTTP client signs each hop', async () => {
    seen.length = 0;
    const result = await sendRequest('websocket', { url: `ws://127.0.0.1:${portOf('a')}/old`, auth: { type: 'hawk', authId: 'id', authKey: 'k' }, settings: { stream: { maxEvents: 1 } } });
    expect(received(result).map((m) => m.text)).toEqual(['hi']);
    expect(seen.map((r) => `${r.server} ${r.target}`)).toEqual(['a /old', 'a /new?v=2']);
    const checks = seen.map((r) => hawkCheck(r, portOf('a'), { key: 'k', algorithm: 'sha256' }));
    expect(checks.map((c) => c.ok)).toEqual([true, true]);
    expect(checks[0]!.attributes.nonce).not.toBe(checks[1]!.attributes.nonce);
  });

  it('drops Authorization, the signing headers and an API key header on a redirect to another origin, as the HTTP client does', async () => {
    seen.length = 0;
    await sendRequest('websocket', { url: `ws://127.0.0.1:${portOf('a')}/away`, auth: { type: 'awsv4', accessKey: 'AKID', secretKey: 'secret', region: 'us-east-1', service: 'execute-api', sessionToken: 'tok' }, settings: { stream: { maxEvents: 1 } } });
    await sendRequest('websocket', { url: `ws://127.0.0.1:${portOf('a')}/away`, auth: { type: 'apiKey', key: 'X-Api-Key', value: 'sekrit', location: 'header' }, settings: { stream: { maxEvents: 1 } } });
    expect(seen.map((r) => `${r.server} ${r.target}`)).toEqual(['a /away', 'b /new', 'a /away', 'b /new']);
    expect(seen[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(seen[2]!.headers['x-api-key']).toBe('sekrit');
    for (const name of ['authorization', 'x-amz-date', 'x-amz-security-token', 'x-api-key']) {
      expect(seen[1]!.headers[name], name).toBeUndefined();
      expect(seen[3]!.headers[name], name).toBeUndefined();
    }
  });
});
