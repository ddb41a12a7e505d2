/**
 * GraphQL subscriptions (issue 25) against real servers on 127.0.0.1: `graphql-ws`'s server, the
 * `graphql-sse` handler and a minimal `subscriptions-transport-ws` server (graphql-peers.ts).
 * Auth and connectionParams as the server saw them, each stop reason, resolver errors, refusals,
 * and queries and mutations still POSTed unchanged.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { ProtocolResult } from '../../src/protocols/index.js';
import { SendError } from '../../src/protocols/index.js';
import { closedPort, graphqlSsePeer, graphqlWsPeer, legacyPeer, type GraphqlPeer } from './graphql-peers.js';
import { failure, received, sendRequest } from './streaming-send.js';
import { sendWith } from './kind-cases.js';
import { floodPings, frame, rawPeer } from './raw-websocket-peer.js';
import { requestSchema } from '../../src/model/index.js';
import { requestKind } from '../../src/protocols/index.js';
import { awsV4Check, hawkCheck, type Received } from '../support/auth-checks.js';
import { BAD_PORTS, NO_BAD_PORT, onBadPort } from '../support/bad-port.js';

let wsPeer: GraphqlPeer;
let ssePeer: GraphqlPeer;
let oldPeer: GraphqlPeer;

beforeAll(async () => {
  [wsPeer, ssePeer, oldPeer] = await Promise.all([graphqlWsPeer(), graphqlSsePeer(), legacyPeer()]);
});
afterAll(async () => {
  await Promise.all([wsPeer, ssePeer, oldPeer].map((p) => p?.close()));
});

type Transport = 'websocket' | 'websocketLegacy' | 'sse';
const peerOf = (transport: Transport) => (transport === 'websocket' ? wsPeer : transport === 'sse' ? ssePeer : oldPeer);

function subscription(transport: Transport, graphql: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<ProtocolResult> {
  return sendRequest('http', {
    method: 'POST',
    url: peerOf(transport).url,
    body: { type: 'graphql', graphql: { transport, ...graphql } },
    ...extra,
  });
}

const payloads = (result: ProtocolResult) => received(result).map((m) => JSON.parse(m.text) as { data?: Record<string, unknown>; errors?: { message: string }[] });

/** Waits (bounded) until `check` holds: servers record a client's complete and close just after the send returns. */
async function eventually(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.each(['websocket', 'websocketLegacy', 'sse'] as const)('GraphQL subscription over %s', (transport) => {
  it('reads every event until the server completes the subscription', async () => {
    const result = await subscription(transport, { query: 'subscription Count($to: Int!) { count(to: $to) }', variables: '{"to": 3}', operationName: 'Count' });
    expect(result.stream).toEqual({ events: 3, stoppedBy: 'complete' });
    expect(payloads(result).map((p) => p.data?.count)).toEqual([1, 2, 3]);
    expect(received(result).every((m) => m.event === 'next')).toBe(true);
    const sent = result.messages!.filter((m) => m.direction === 'sent');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.text)).toEqual({ query: 'subscription Count($to: Int!) { count(to: $to) }', variables: { to: 3 }, operationName: 'Count' });
    expect(Buffer.from(result.body).toString()).toBe(received(result).map((m) => m.text).join('\n'));
    expect(result.outcome.ok).toBe(true);
    expect(result.outcome.status).toBe(transport === 'sse' ? 200 : 101);
    expect(result.detail?.transport).toBe({ websocket: 'graphql-transport-ws', websocketLegacy: 'subscriptions-transport-ws', sse: 'graphql-sse' }[transport]);
  });

  it('stops at maxEvents, completes the subscription and closes the connection cleanly', async () => {
    const peer = peerOf(transport);
    const endedBefore = peer.seen.ended;
    const closesBefore = peer.seen.closeCodes.length;
    const result = await subscription(transport, { query: 'subscription { count(to: 1000, delayMs: 20) }' }, { settings: { stream: { maxEvents: 2, timeoutMs: 10_000 } } });
    expect(result.stream).toEqual({ events: 2, stoppedBy: 'maxEvents' });
    expect(payloads(result).map((p) => p.data?.count)).toEqual([1, 2]);
    // The server's event source was ended by the client's complete / stop (or the SSE request's end).
    await eventually(() => peer.seen.ended > endedBefore);
    expect(peer.seen.ended).toBe(endedBefore + 1);
    if (transport !== 'sse') {
      await eventually(() => peer.seen.closeCodes.length > closesBefore);
      expect(peer.seen.closeCodes.slice(closesBefore)).toEqual([1000]);
    }
  });

  it('stops at the time limit', async () => {
    const result = await subscription(transport, { query: 'subscription { count(to: 1000, delayMs: 100) }' }, { settings: { stream: { maxEvents: 0, timeoutMs: 450 } } });
    expect(result.stream?.stoppedBy).toBe('timeout');
    expect(result.stream!.events).toBeGreaterThanOrEqual(1);
    expect(result.stream!.events).toBeLessThan(10);
  });

  it('shows the resolver error of an event in the result', async () => {
    const result = await subscription(transport, { query: 'subscription { boom }' });
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'complete' });
    const [event] = payloads(result);
    expect(event!.data).toEqual({ boom: null });
    expect(event!.errors?.[0]?.message).toBe('boom resolver failed');
  });

  it('ends with error when the server refuses the operation, and the result fails', async () => {
    const result = await subscription(transport, { query: 'subscription { noSuchField }' });
    expect(result.stream?.stoppedBy).toBe('error');
    const last = received(result).at(-1)!;
    expect(last.event).toBe('error');
    expect(last.text).toContain('Cannot query field \\"noSuchField\\" on type \\"Subscription\\"');
    expect(result.outcome.ok).toBe(false);
  });

  it('sends the request headers and auth on the connection, and connectionParams on connection_init', async () => {
    const peer = peerOf(transport);
    const result = await subscription(
      transport,
      { query: 'subscription { whoami }', connectionParams: '{"token": "{{token}}", "n": 1}' },
      {
        headers: [{ key: 'X-Trace', value: 'abc' }],
        auth: { type: 'bearer', token: 'sub-secret' },
      },
    );
    const context = JSON.parse(payloads(result)[0]!.data!.whoami as string) as { params?: unknown; authorization: string };
    expect(context.authorization).toBe('Bearer sub-secret');
    const headers = peer.seen.headers.at(-1)!;
    expect(headers['x-trace']).toBe('abc');
    expect(headers.authorization).toBe('Bearer sub-secret');
    if (transport === 'sse') {
      expect(headers['content-type']).toBe('application/json; charset=utf-8'); // the client's own, not doubled
    } else {
      // {{token}} is undefined in this test: it stays as written (spec 8.2).
      expect(context.params).toEqual({ token: '{{token}}', n: 1 });
      expect(peer.seen.params.at(-1)).toEqual({ token: '{{token}}', n: 1 });
      expect(headers['sec-websocket-protocol']).toBe(transport === 'websocket' ? 'graphql-transport-ws' : 'graphql-ws');
      expect(headers['content-type']).toBeUndefined();
    }
  });

  it('fails with one line when nothing listens', async () => {
    const port = await closedPort();
    const error = await failure(subscription(transport, { query: 'subscription { count(to: 1) }', subscriptionUrl: `${transport === 'sse' ? 'http' : 'ws'}://127.0.0.1:${port}/graphql` }));
    expect(error).toBeInstanceOf(SendError);
    expect(error.message).toMatch(new RegExp(`connection refused by 127\\.0\\.0\\.1:${port}`));
  });
});

describe('GraphQL subscription refusals and bad input', () => {
  it('shows the server\'s reason when connection_init is refused', async () => {
    const modern = await failure(subscription('websocket', { query: 'subscription { count(to: 1) }', connectionParams: '{"token": "deny"}' }));
    expect(modern.message).toMatch(/refused the connection_init \(close 4403 "Forbidden"\); check body\.graphql\.connectionParams/);
    const legacy = await failure(subscription('websocketLegacy', { query: 'subscription { count(to: 1) }', connectionParams: '{"token": "deny"}' }));
    expect(legacy.message).toMatch(/refused the connection_init: token denied by the legacy server\./);
  });

  it('names the other protocol when the server refuses the subprotocol', async () => {
    const toLegacy = await failure(sendRequest('http', { method: 'POST', url: oldPeer.url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport: 'websocket' } } }));
    expect(toLegacy.message).toMatch(/did not accept the GraphQL subprotocol graphql-transport-ws: .*set body\.graphql\.transport to websocketLegacy/);
    const toModern = await failure(sendRequest('http', { method: 'POST', url: wsPeer.url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport: 'websocketLegacy' } } }));
    expect(toModern.message).toMatch(/did not accept the GraphQL subprotocol graphql-ws/);
  });

  it('fails a WebSocket subscription whose upgrade is refused, with the status', async () => {
    for (const transport of ['websocket', 'websocketLegacy'] as const) {
      const error = await failure(sendRequest('http', { method: 'POST', url: wsPeer.url, headers: [{ key: 'X-Refuse', value: 'yes' }], body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport } } }));
      expect(error.message).toMatch(/^127\.0\.0\.1:\d+ answered HTTP 401 instead of opening the subscription's WebSocket \(no 101 upgrade\); check the URL/);
    }
  });

  it('fails an SSE subscription the server refuses with its status and words', async () => {
    const url = ssePeer.url.replace('/graphql/stream', '/private');
    const refused = await failure(sendRequest('http', { method: 'POST', url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport: 'sse' } } }));
    expect(refused.message).toMatch(/answered HTTP 401 Unauthorized instead of an event stream \(missing or wrong token\)/);
    const allowed = await sendRequest('http', { method: 'POST', url, auth: { type: 'bearer', token: 'sse-secret' }, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 2) }', transport: 'sse' } } });
    expect(allowed.stream).toEqual({ events: 2, stoppedBy: 'complete' });
  });

  it('an SSE subscription reaches a server on 6666 or 10080 (its POST goes through the HTTP client, not undici\'s fetch, which refuses the Fetch standard\'s bad ports)', async (context) => {
    const far = await onBadPort((port) => graphqlSsePeer(false, port));
    if (!far) return context.skip(NO_BAD_PORT);
    try {
      expect(BAD_PORTS).toContain(Number(new URL(far.url).port));
      const result = await sendRequest('http', { method: 'POST', url: far.url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 2) }', transport: 'sse' } } });
      expect(result.stream).toEqual({ events: 2, stoppedBy: 'complete' });
    } finally {
      await far.close();
    }
  });

  it('refuses connectionParams that are not a JSON object', async () => {
    for (const [text, why] of [['{bad', /connectionParams is not valid JSON/], ['[1]', /must be a JSON object, not an array/], ['"x"', /not a string/]] as const) {
      const error = await failure(subscription('websocket', { query: 'subscription { count(to: 1) }', connectionParams: text }));
      expect((error as SendError).kind).toBe('invalid');
      expect(error.message).toMatch(why);
    }
  });

  it('gives the line and column of a query that does not parse', async () => {
    const error = await failure(subscription('websocket', { query: 'subscription {\n  count(to: 1\n}' }));
    expect(error.message).toMatch(/^the GraphQL query does not parse at line 3, column 1: Syntax Error: Expected Name, found "}"\. Fix body\.graphql\.query\.$/);
  });

  it('bounds the wait for connection_ack by settings.timeoutMs, and cancels at once', async () => {
    // A server that takes either subprotocol and then never answers connection_init.
    const server = http.createServer();
    const wss = new WebSocketServer({ server, handleProtocols: (protocols) => [...protocols][0] ?? false });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      for (const transport of ['websocket', 'websocketLegacy'] as const) {
        const error = await failure(subscription(transport, { query: 'subscription { count(to: 1) }', subscriptionUrl: url }, { settings: { timeoutMs: 300 } }));
        expect(error.message).toMatch(/timed out after 300 ms \(settings\.timeoutMs\)/);
      }
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const cancelled = await failure(sendRequest('http', { method: 'POST', url: wsPeer.url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', subscriptionUrl: url } }, settings: { timeoutMs: 0 } }, controller.signal));
      expect(cancelled.message).toBe('the request was cancelled.');
    } finally {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('stops an SSE event stream past maxResponseMb instead of buffering it', async () => {
    const request = requestSchema.parse({
      name: 'huge', method: 'POST', url: ssePeer.url.replace('/graphql/stream', '/huge'),
      body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport: 'sse' } },
      settings: { timeoutMs: 5000, stream: { timeoutMs: 10_000 } },
    });
    const error = await failure(sendWith(requestKind('http'), request, undefined, { maxResponseMb: 1 }));
    expect(error.message).toMatch(/larger than 1 MB \(maxResponseMb\)/);
  });

  it('fails a WebSocket subscription whose message passes maxResponseMb', async () => {
    for (const transport of ['websocket', 'websocketLegacy'] as const) {
      const request = requestSchema.parse({
        name: 'big', method: 'POST', url: peerOf(transport).url,
        body: { type: 'graphql', graphql: { query: 'subscription { big(kb: 1500) }', transport } },
        settings: { timeoutMs: 5000 },
      });
      const error = await failure(sendWith(requestKind('http'), request, undefined, { maxResponseMb: 1 }));
      expect(error.message).toMatch(/sent a WebSocket message larger than 1 MB \(maxResponseMb\)/);
    }
  });

  it('names a server flooding pings without reading the pongs, as a WebSocket request does (it was closed 1006, or "closed before the subscription started")', async () => {
    for (const transport of ['websocket', 'websocketLegacy'] as const) {
      // The connection acknowledged, then pings without end.
      const peer = await rawPeer((socket, sent) => {
        socket.write(frame(0x1, '{"type":"connection_ack"}'));
        floodPings(socket, sent);
      }, { protocol: 'offered' });
      try {
        const request = requestSchema.parse({ name: 'pings', method: 'POST', url: peer.url.replace('ws:', 'http:'), body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport } }, settings: { timeoutMs: 5000, stream: { timeoutMs: 8000 } } });
        const error = await failure(sendWith(requestKind('http'), request, undefined, { maxResponseMb: 1 }));
        expect(error.message).toBe(`${peer.host} flooded the connection with WebSocket pings without reading Ferry's pongs (60 pongs waiting to be sent), so Ferry closed the connection; the server must read what it is sent.`);
      } finally {
        peer.close();
      }
    }
  });

  it('a server closing the connection (1000) during the subscription ends it as closed (graphql-ws connected and subscribed again, in a loop, until the time limit)', async () => {
    let upgrades = 0;
    const peer = await rawPeer((socket) => {
      upgrades++;
      socket.write(frame(0x1, '{"type":"connection_ack"}'));
      setTimeout(() => socket.end(frame(0x8, Buffer.concat([Buffer.from([0x03, 0xe8]), Buffer.from('bye')]))), 100);
    }, { protocol: 'offered' });
    try {
      const result = await sendWith(requestKind('http'), requestSchema.parse({ name: 'bye', method: 'POST', url: peer.url.replace('ws:', 'http:'), body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport: 'websocket' } }, settings: { timeoutMs: 5000, stream: { timeoutMs: 3000 } } }));
      expect(result.stream).toMatchObject({ events: 0, stoppedBy: 'closed', closedWith: 'close code 1000 "bye"' });
      expect(upgrades).toBe(1);
    } finally {
      peer.close();
    }
  });

  it('a close frame ends the subscription at once, though the server keeps the connection open (ws waited 30 s for it to go)', async () => {
    // ws's own wait for the connection to go was 30 s: under this test's 10 s timeout, a read that waits for it fails the test.
    for (const transport of ['websocket', 'websocketLegacy'] as const) {
      // The connection acknowledged, then a close frame 1000 "bye"; the TCP connection stays.
      const peer = await rawPeer((socket) => {
        socket.write(frame(0x1, '{"type":"connection_ack"}'));
        setTimeout(() => socket.write(frame(0x8, Buffer.concat([Buffer.from([0x03, 0xe8]), Buffer.from('bye')]))), 100);
      }, { protocol: 'offered' });
      try {
        const result = await sendWith(requestKind('http'), requestSchema.parse({ name: 'held', method: 'POST', url: peer.url.replace('ws:', 'http:'), body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport } }, settings: { timeoutMs: 0, stream: { timeoutMs: 0 } } }));
        expect(result.stream).toMatchObject({ events: 0, stoppedBy: 'closed', closedWith: 'close code 1000 "bye"' });
      } finally {
        peer.close();
      }
    }
  }, 70_000);

  it('a frame breaking the WebSocket protocol (invalid UTF-8 in a text frame) fails at once, though the server keeps the connection (it waited a second for a polite close)', async () => {
    for (const transport of ['websocket', 'websocketLegacy'] as const) {
      const peer = await rawPeer((socket) => {
        socket.write(frame(0x1, '{"type":"connection_ack"}'));
        setTimeout(() => socket.write(frame(0x1, Buffer.from([0x7b, 0xff, 0xfe]))), 50);
      }, { protocol: 'offered' });
      try {
        const started = Date.now();
        const error = await failure(sendWith(requestKind('http'), requestSchema.parse({ name: 'utf8', method: 'POST', url: peer.url.replace('ws:', 'http:'), body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport } }, settings: { timeoutMs: 5000 } })));
        expect(error.message).toBe(`${peer.host} broke the WebSocket protocol: Invalid WebSocket frame: invalid UTF-8 sequence (WS_ERR_INVALID_UTF8).`);
        expect(Date.now() - started).toBeLessThan(700);
      } finally {
        peer.close();
      }
    }
  }, 10_000);

  it('a server never answering the upgrade fails at the time limit, not a second after it', async () => {
    const silent = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      for (const transport of ['websocket', 'websocketLegacy'] as const) {
        const started = Date.now();
        const error = await failure(sendWith(requestKind('http'), requestSchema.parse({ name: 'silent', method: 'POST', url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', transport } }, settings: { timeoutMs: 1000 } })));
        expect(error.message).toBe('timed out after 1000 ms (settings.timeoutMs); no complete response by then.');
        expect(Date.now() - started).toBeLessThan(1700);
      }
    } finally {
      silent.close();
    }
  });

  it('keeps the first 1,000 of a long stream and counts them all', async () => {
    const result = await subscription('websocket', { query: 'subscription { count(to: 1500) }' }, { settings: { stream: { maxEvents: 0, timeoutMs: 20_000 } } });
    expect(result.stream).toEqual({ events: 1500, stoppedBy: 'complete' });
    expect(received(result)).toHaveLength(999); // the first kept message is the sent subscribe
  });

  it('refuses a subscriptionUrl of the wrong scheme', async () => {
    const error = await failure(subscription('sse', { query: 'subscription { count(to: 1) }', subscriptionUrl: 'ws://127.0.0.1:1/x' }));
    expect(error.message).toMatch(/over SSE needs an http:\/\/ or https:\/\/ URL, not ws:\/\//);
  });

  it('uses the request URL with http turned into ws when subscriptionUrl is empty, and picks the named operation', async () => {
    const result = await sendRequest('http', {
      method: 'POST',
      url: wsPeer.url,
      body: { type: 'graphql', graphql: { query: 'query Q { hello }\nsubscription S { count(to: 1) }', operationName: 'S' } },
    });
    expect(result.url).toBe(wsPeer.url.replace('http:', 'ws:'));
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'complete' });
  });
});

describe('GraphQL subscriptions over TLS', () => {
  it('verify the self-signed certificate unless verifyTls is off (wss:// and https://)', async () => {
    const [secureWs, secureSse] = await Promise.all([graphqlWsPeer(true), graphqlSsePeer(true)]);
    try {
      for (const [peer, transport] of [[secureWs, 'websocket'], [secureSse, 'sse']] as const) {
        const body = { type: 'graphql', graphql: { query: 'subscription { count(to: 2) }', transport } };
        const refused = await failure(sendRequest('http', { method: 'POST', url: peer.url, body }));
        expect(refused.message).toMatch(/TLS error with 127\.0\.0\.1:\d+: .*To send anyway, turn off TLS verification/);
        const allowed = await sendRequest('http', { method: 'POST', url: peer.url, body, settings: { verifyTls: false } });
        expect(allowed.stream).toEqual({ events: 2, stoppedBy: 'complete' });
        if (transport === 'websocket') expect(allowed.url).toMatch(/^wss:\/\//);
      }
    } finally {
      await Promise.all([secureWs.close(), secureSse.close()]);
    }
  });
});

describe('queries and mutations', () => {
  it('are still POSTed unchanged', async () => {
    const before = wsPeer.seen.posts.length;
    const query = await sendRequest('http', { method: 'POST', url: wsPeer.url, body: { type: 'graphql', graphql: { query: 'query Q { hello }\nsubscription S { count(to: 1) }', operationName: 'Q', transport: 'websocket' } } });
    expect(query.outcome.status).toBe(200);
    expect(JSON.parse(Buffer.from(query.body).toString())).toEqual({ data: { hello: 'world' } });
    expect(query.stream).toBeUndefined();
    const mutation = await sendRequest('http', { method: 'POST', url: wsPeer.url, body: { type: 'graphql', graphql: { query: 'mutation($t: String!) { shout(text: $t) }', variables: '{"t": "hey"}' } } });
    expect(JSON.parse(Buffer.from(mutation.body).toString())).toEqual({ data: { shout: 'HEY' } });
    expect(wsPeer.seen.posts.slice(before)).toEqual([
      JSON.stringify({ query: 'query Q { hello }\nsubscription S { count(to: 1) }', variables: {}, operationName: 'Q' }),
      JSON.stringify({ query: 'mutation($t: String!) { shout(text: $t) }', variables: { t: 'hey' }, operationName: null }),
    ]);
  });

  it('a query that does not parse and chooses no transport is POSTed for the server to judge', async () => {
    const result = await sendRequest('http', { method: 'POST', url: wsPeer.url, body: { type: 'graphql', graphql: { query: '{ hello' } } });
    expect(result.outcome.status).toBe(200);
    expect(JSON.parse(Buffer.from(result.body).toString()).errors[0].message).toMatch(/Syntax Error/);
  });
});

describe.each(['websocket', 'websocketLegacy'] as const)('a signed GraphQL subscription over %s', (transport) => {
  // The server checks the upgrade it gets (a GET of the subscription URL, no body) by each scheme's
  // specification (auth-checks.ts), not with the library Ferry signs with.
  const upgrade = (headers: http.IncomingHttpHeaders): Received => ({ method: 'GET', target: '/graphql', host: String(headers.host), headers, body: Buffer.alloc(0) });

  it('signs the WebSocket upgrade as the GET of the subscription URL it is, not as the POST (Hawk with the payload hash)', async () => {
    const peer = peerOf(transport);
    peer.seen.headers.length = 0;
    const result = await subscription(transport, { query: 'subscription { count(to: 1) }' }, { auth: { type: 'hawk', authId: 'id', authKey: 'k', includePayloadHash: true } });
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'complete' });
    expect(peer.seen.headers).toHaveLength(1);
    expect(hawkCheck(upgrade(peer.seen.headers[0]!), Number(new URL(peer.url).port), { key: 'k', algorithm: 'sha256' })).toMatchObject({ ok: true, hashOk: true });
  });

  it('signs the upgrade by AWS Signature v4 over GET, its path and no body', async () => {
    const peer = peerOf(transport);
    peer.seen.headers.length = 0;
    const result = await subscription(transport, { query: 'subscription { count(to: 1) }' }, { auth: { type: 'awsv4', accessKey: 'AKID', secretKey: 'secret', region: 'us-east-1', service: 'appsync' } });
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'complete' });
    expect(awsV4Check(upgrade(peer.seen.headers[0]!), 'secret')).toEqual({ ok: true, why: '' });
  });
});

describe('a signed GraphQL subscription over SSE across redirects (as the HTTP client sends one)', () => {
  type Seen = Received & { server: 'a' | 'b' };
  const seen: Seen[] = [];
  const servers: http.Server[] = [];
  const ports: number[] = [];
  const answer = (name: 'a' | 'b') => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ server: name, method: req.method!, target: req.url!, host: req.headers.host!, headers: req.headers, body: Buffer.concat(chunks) });
      const path = req.url!.split('?')[0];
      if (path === '/old') res.writeHead(307, { location: '/new?v=2' }).end();
      else if (path === '/away') res.writeHead(307, { location: `http://127.0.0.1:${ports[1]}/new` }).end();
      else if (path === '/digest' && !req.headers.authorization) res.writeHead(401, { 'www-authenticate': 'Digest realm="r", nonce="n1", qop="auth"' }).end();
      else res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: next\ndata: {"data":{"n":1}}\n\nevent: complete\ndata: \n\n');
    });
  };
  beforeAll(async () => {
    for (const name of ['a', 'b'] as const) {
      const server = http.createServer(answer(name));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const subscribe = (path: string, auth: Record<string, unknown>) => {
    seen.length = 0;
    return sendRequest('http', { method: 'POST', url: `http://127.0.0.1:${ports[0]}${path}`, auth, body: { type: 'graphql', graphql: { query: 'subscription { n }', transport: 'sse' } } });
  };

  it('signs each same-origin hop for its URL and the body the subscription POSTs (Hawk with the payload hash)', async () => {
    const result = await subscribe('/old', { type: 'hawk', authId: 'id', authKey: 'k', includePayloadHash: true });
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'complete' });
    expect(seen.map((r) => `${r.method} ${r.target}`)).toEqual(['POST /old', 'POST /new?v=2']);
    expect(seen.map((r) => hawkCheck(r, ports[0]!, { key: 'k', algorithm: 'sha256' }))).toMatchObject([{ ok: true, hashOk: true }, { ok: true, hashOk: true }]);
  });

  it('drops the Authorization and the other signing headers on a redirect to another origin (AWS Signature V4)', async () => {
    const result = await subscribe('/away', { type: 'awsv4', accessKey: 'AKID', secretKey: 'secret', region: 'us-east-1', service: 'execute-api', sessionToken: 'tok' });
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'complete' });
    expect(seen.map((r) => `${r.server} ${r.target}`)).toEqual(['a /away', 'b /new']);
    expect(seen[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    for (const name of ['authorization', 'x-amz-date', 'x-amz-content-sha256', 'x-amz-security-token']) expect(seen[1]!.headers[name], name).toBeUndefined();
  });
  it('answers a Digest challenge to the POST, as the HTTP client does for any request', async () => {
    const result = await subscribe('/digest', { type: 'digest', username: 'u', password: 'p' });
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'complete' });
    expect(seen.map((r) => r.headers.authorization === undefined)).toEqual([true, false]);
    expect(String(seen[1]!.headers.authorization)).toMatch(/^Digest username="u", realm="r", nonce="n1", uri="\/digest"/);
  });
});

describe('a live GraphQL subscription over SSE', () => {
  it('stays open as events arrive and closes cleanly when the user closes it', async () => {
    const { prepareRequest } = await import('../../src/request/index.js');
    const { workspaceSchema } = await import('../../src/model/index.js');
    const request = requestSchema.parse({ name: 'live', kind: 'http', method: 'POST', url: ssePeer.url, body: { type: 'graphql', graphql: { query: 'subscription { count(to: 50, delayMs: 40) }', transport: 'sse' } }, settings: { timeoutMs: 5000 } });
    const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } });
    const { HttpAgents } = await import('../../src/protocols/http/http.js');
    const agents = new HttpAgents();
    const messages: string[] = [];
    try {
      const live = await requestKind('http').connect!(prepared, { agents, maxResponseMb: 50, workspaceRoot: process.cwd(), allowFilesOutside: false }, { onMessage: (m) => messages.push(`${m.direction} ${m.text}`) });
      await eventually(() => messages.filter((m) => m.startsWith('received')).length >= 2);
      expect(live.isOpen).toBe(true);
      await live.close();
      const end = await live.ended;
      expect(end.by).toBe('client');
      const count = messages.length;
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(messages.length).toBe(count);
      expect(messages.filter((m) => m.startsWith('received'))[0]).toBe('received {"data":{"count":1}}');
    } finally {
      await agents.close();
    }
  });
});
