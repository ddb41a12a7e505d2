/** MCP requests against SDK-built servers on loopback: Streamable HTTP, HTTP+SSE, and the stdio fixture program. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSchema } from '../../src/model/index.js';
import { commandWords, requestKind, SendError, type ProgramPolicy, type ProgramSpec, type ProtocolResult } from '../../src/protocols/index.js';
import { awsV4Check, hawkCheck } from '../support/auth-checks.js';
import { PrepareError } from '../../src/request/index.js';
import { describeKindCases, sendFailure, sendInheriting, sendWith } from './kind-cases.js';
import { startSse, startStatefulStreamableHttp, startStreamableHttp, type McpPeer } from './mcp-peers.js';
import { BAD_PORTS, NO_BAD_PORT, onBadPort } from '../support/bad-port.js';

const mcpKind = requestKind('mcp');
/** The fixture program, the only one these tests start. */
export const STDIO_COMMAND = `"${process.execPath}" test/fixtures/mcp/stdio-server.mjs`;

function send(fields: Record<string, unknown>, programs?: ProgramPolicy): Promise<ProtocolResult> {
  return sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', settings: { timeoutMs: 10000 }, ...fields }), undefined, { programs });
}

const json = (result: ProtocolResult) => JSON.parse(Buffer.from(result.body).toString('utf8')) as Record<string, unknown>;

describeKindCases({
  module: mcpKind,
  urlFor: (port, secure) => `${secure ? 'https' : 'http'}://127.0.0.1:${port}/mcp`,
  wrongScheme: 'ws://127.0.0.1:1/mcp',
  fields: { mcp: { call: 'tool', name: 'add', arguments: '{"a":1,"b":2}' } },
  waitsForHandshake: true,
  startTls: () => startStreamableHttp({ tls: true }),
});

describe('MCP over HTTP', () => {
  let streamable: McpPeer;
  let sse: McpPeer;
  beforeAll(async () => {
    [streamable, sse] = await Promise.all([startStreamableHttp(), startSse()]);
  });
  afterAll(async () => {
    await Promise.all([streamable.close(), sse.close()]);
  });

  it('a tool with structured output; the initialize result in the detail; auth and headers sent', async () => {
    const result = await send({ url: streamable.url, mcp: { call: 'tool', name: 'add', arguments: '{"a":2,"b":{{b}}}'.replace('{{b}}', '3') } });
    expect(result.outcome).toEqual({ status: 0, text: 'OK', ok: true, label: 'OK', noCode: true });
    expect(json(result)).toMatchObject({ structuredContent: { sum: 5 }, content: [{ type: 'text', text: '5' }] });
    expect(result.detail).toMatchObject({ transport: 'streamableHttp', server: { name: 'ferry-test-mcp', version: '1.2.3' }, instructions: 'A test server.' });
    expect(result.detail?.capabilities).toHaveProperty('tools');
    const who = await send({ url: streamable.url, auth: { type: 'bearer', token: 'sekrit' }, mcp: { call: 'tool', name: 'whoami' } });
    const seen = JSON.parse((json(who).content as Array<{ text: string }>)[0]!.text) as { auth: string };
    expect(seen.auth).toBe('Bearer sekrit');
  });

  it('ends its Streamable HTTP session (DELETE) when the request is done, so a stateful server does not keep one per send', async () => {
    const stateful = await startStatefulStreamableHttp();
    try {
      for (let i = 0; i < 3; i++) expect((await send({ url: stateful.url, mcp: { call: 'tool', name: 'add', arguments: '{"a":1,"b":2}' } })).outcome.ok).toBe(true);
      expect(stateful.open.size).toBe(0);
    } finally {
      await stateful.close();
    }
  });

  it('a tool answering isError is an answer that is not ok', async () => {
    const result = await send({ url: streamable.url, mcp: { call: 'tool', name: 'fail', arguments: '{"why":"because"}' } });
    // Reports show the error's text and MCP's rule (HTTP's 400 rule named a status MCP does not have).
    expect(result.outcome).toEqual({ status: 1, text: 'isError', ok: false, label: 'isError: failed: because', rule: 'an MCP tool call without tests fails when its result is an error (isError: true)', noCode: true });
    expect(json(result)).toMatchObject({ isError: true, content: [{ text: 'failed: because' }] });
  });

  it('resources, a template filled from the arguments, and prompts with arguments', async () => {
    const plain = await send({ url: streamable.url, mcp: { call: 'resource', name: 'ferry://docs/readme' } });
    expect(json(plain)).toMatchObject({ contents: [{ uri: 'ferry://docs/readme', text: 'read me' }] });
    const templated = await send({ url: streamable.url, mcp: { call: 'resource', name: 'ferry://users/{id}', arguments: '{"id":42}' } });
    expect(json(templated)).toMatchObject({ contents: [{ uri: 'ferry://users/42', text: 'user 42' }] });
    const prompt = await send({ url: streamable.url, mcp: { call: 'prompt', name: 'greet', arguments: '{"name":"Ann","tone":"warm"}' } });
    expect(json(prompt)).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ann in a warm tone' } }] });
  });

  it('HTTP+SSE, chosen or reached by auto after Streamable HTTP is refused', async () => {
    const chosen = await send({ url: sse.url, mcp: { transport: 'sse', call: 'tool', name: 'add', arguments: '{"a":1,"b":1}' } });
    expect(json(chosen)).toMatchObject({ structuredContent: { sum: 2 } });
    const auto = await send({ url: sse.url, mcp: { call: 'prompt', name: 'greet', arguments: '{"name":"Bo"}' } });
    expect(auto.detail?.transport).toBe('sse');
    expect(json(auto)).toMatchObject({ messages: [{ content: { text: 'Say hello to Bo' } }] });
  });

  it('http:// to a TLS MCP server says to use https:// (it said only that the connection was closed)', async () => {
    const secure = await startStreamableHttp({ tls: true });
    try {
      const error = await sendFailure(send({ url: secure.url.replace('https:', 'http:'), mcp: { call: 'tool', name: 'add' } }));
      expect((error as SendError).kind).toBe('reset');
      expect(error.message).toMatch(new RegExp(`^the MCP server at ${new URL(secure.url).host.replace(/\./g, '\\.')} closed the connection during initialize \\([A-Z_]+\\); if it is a TLS server, use https://\\.$`));
    } finally {
      await secure.close();
    }
  });

  it('bad input is one line: a tool that does not exist (the ones that do listed), arguments that are not JSON, a time limit', async () => {
    const missing = await sendFailure(send({ url: streamable.url, mcp: { call: 'tool', name: 'nope' } }));
    expect(missing.message).toBe('the MCP server has no tool "nope"; it has: add, fail, whoami, slow.');
    const prompt = await sendFailure(send({ url: streamable.url, mcp: { call: 'prompt', name: 'nope' } }));
    expect(prompt.message).toContain('has no prompt "nope"; it has: greet');
    const args = await sendFailure(send({ url: streamable.url, mcp: { call: 'tool', name: 'add', arguments: '{a:1}' } }));
    expect(args.message).toContain('mcp.arguments is not valid JSON');
    const slow = await sendFailure(send({ url: streamable.url, settings: { timeoutMs: 400 }, mcp: { call: 'tool', name: 'slow' } }));
    expect(slow.kind).toBe('timeout');
    // It says what was still awaited, and from which server (it said only "no complete response by then").
    expect(slow.message).toBe(`timed out after 400 ms (settings.timeoutMs); the MCP server at ${new URL(streamable.url).host} had not answered the tool call "slow" by then. Raise the time limit, or check why the server is slow.`);
    // The SDK repeats the JSON-RPC code's prefix of a server's error; it is said once.
    const resource = await sendFailure(send({ url: streamable.url, mcp: { call: 'resource', name: 'ferry://docs/nope' } }));
    expect(resource.message).toBe('the resource call failed: MCP error -32602: Resource ferry://docs/nope not found.');
    for (const error of [missing, args, slow, resource]) expect(error.message).not.toContain('\n');
  });
});

describe('MCP over HTTP on a port the Fetch standard calls "bad"', () => {
  it("an answer compressed because the request's own Accept-Encoding asked for it is decoded, as fetch decoded it", async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(String(req.headers['accept-encoding']));
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return void res.writeHead(202).end();
        const result = message.method === 'initialize' ? { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'gz', version: '1' } } : { content: [{ type: 'text', text: 'squeezed' }] };
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ jsonrpc: '2.0', id: message.id, result })));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const result = await send({ url, headers: [{ key: 'Accept-Encoding', value: 'gzip' }], mcp: { transport: 'streamableHttp', call: 'tool', name: 'x' } });
      expect(json(result)).toMatchObject({ content: [{ text: 'squeezed' }] });
      expect(seen[0]).toBe('gzip');
    } finally {
      server.close();
    }
  });

  for (const transport of ['streamableHttp', 'sse', 'auto'] as const) {
    it(`${transport === 'auto' ? 'auto falling back to HTTP+SSE' : transport}: a tool call answers (it failed with "fetch failed: bad port")`, async (context) => {
      const peer = await onBadPort((port) => (transport === 'streamableHttp' ? startStreamableHttp({ port }) : startSse({ port })));
      if (!peer) return context.skip(NO_BAD_PORT);
      try {
        expect(BAD_PORTS).toContain(Number(new URL(peer.url).port));
        const result = await send({ url: peer.url, mcp: { transport, call: 'tool', name: 'add', arguments: '{"a":4,"b":5}' } });
        expect(json(result)).toMatchObject({ structuredContent: { sum: 9 } });
        expect(result.detail?.transport).toBe(transport === 'streamableHttp' ? 'streamableHttp' : 'sse');
      } finally {
        await peer.close();
      }
    });
  }
});

describe('MCP: a server answering what MCP does not say', () => {
  /** A Streamable HTTP server by hand: initialize answered, notifications accepted, any other call answered with `result`. */
  async function answering(result: unknown): Promise<{ url: string; close(): void }> {
    const server = http.createServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return void res.writeHead(202).end();
        const answer = message.method === 'initialize' ? { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'odd', version: '1' } } : result;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, close: () => server.close() };
  }

  it('a tool result of the wrong shape is named by its fields, not as "the tool call failed: [" (the first line of the SDK\'s JSON list of problems)', async () => {
    const peer = await answering({ content: 'not a list' });
    try {
      const error = await sendFailure(send({ url: peer.url, mcp: { transport: 'streamableHttp', call: 'tool', name: 'echo' } }));
      expect(error.message).toMatch(/^the tool call failed: the server's answer is not an MCP result: content: .*expected array.*\.$/i);
      expect(error.message).not.toContain('\n');
    } finally {
      peer.close();
    }
  });
});

describe('MCP: answers past maxResponseMb', () => {
  const words = (host: string) => `the MCP server at ${host} sent an answer larger than 1 MB (maxResponseMb), so Ferry stopped reading it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`;
  const INIT = { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'flood', version: '1' } };

  /** Writes `head`, then `chunk` for as long as the client reads; counts what went out. */
  function flood(res: http.ServerResponse, head: string, chunk: string, sent: { bytes: number }): void {
    res.write(head);
    const bytes = Buffer.from(chunk);
    const more = () => {
      while (!res.destroyed && res.write(bytes)) sent.bytes += bytes.length;
    };
    res.on('drain', more);
    more();
  }

  /**
   * A hand-made MCP server: initialize answered; the call answered by `call` (Streamable HTTP), or,
   * for HTTP+SSE, an event stream naming its endpoint and then flooding.
   */
  async function hostile(call: (res: http.ServerResponse, id: number, sent: { bytes: number }) => void): Promise<{ url: string; host: string; sent: { bytes: number }; close(): void }> {
    const sent = { bytes: 0 };
    const server = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // The endpoint, then one event that never ends.
        return flood(res, 'event: endpoint\ndata: /messages\n\ndata: ', 'x'.repeat(64 * 1024), sent);
      }
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string };
        if (req.url === '/messages') return void res.writeHead(202).end();
        if (message.id === undefined) return void res.writeHead(202).end();
        if (message.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: INIT }));
        call(res, message.id, sent);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url: `http://${host}/mcp`, host, sent, close: () => { server.closeAllConnections(); server.close(); } };
  }

  // Cut at the bound, not read to the time limit: the failure's words say which (the limit's are its own).
  const sendBounded = (fields: Record<string, unknown>) => sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', settings: { timeoutMs: 10000 }, ...fields }), undefined, { maxResponseMb: 1 });

  it('Streamable HTTP: a JSON answer past the bound fails the call naming the setting (it was read whole)', async () => {
    const peer = await hostile((res, id) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'x'.repeat(2 * 1024 * 1024) }] } })));
    try {
      const error = await sendFailure(sendBounded({ url: peer.url, mcp: { transport: 'auto', call: 'tool', name: 'big' } }));
      expect(error.message).toBe(words(peer.host));
      expect(error.kind).toBe('tooLarge');
    } finally {
      peer.close();
    }
  });

  it('Streamable HTTP: an event stream answering the call without end is cut at the bound, at once (it was read until the time limit)', async () => {
    const peer = await hostile((res, _id, sent) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      flood(res, 'event: message\ndata: ', 'x'.repeat(64 * 1024), sent);
    });
    try {
      const error = await sendFailure(sendBounded({ url: peer.url, mcp: { transport: 'streamableHttp', call: 'tool', name: 'big' } }));
      expect(error.message).toBe(words(peer.host));
      expect(peer.sent.bytes).toBeLessThan(8 * 1024 * 1024);
    } finally {
      peer.close();
    }
  });

  it('HTTP+SSE: an event stream flooding after naming its endpoint is cut at the bound', async () => {
    const peer = await hostile(() => {});
    try {
      const error = await sendFailure(sendBounded({ url: peer.url.replace('/mcp', '/sse'), mcp: { transport: 'sse', call: 'tool', name: 'big' } }));
      expect(error.message).toBe(words(peer.host));
      expect(peer.sent.bytes).toBeLessThan(8 * 1024 * 1024);
    } finally {
      peer.close();
    }
  });
});

/** An allow-list in memory: exactly the programs given. */
function allowing(...programs: ProgramSpec[]): ProgramPolicy & { asked: ProgramSpec[] } {
  const asked: ProgramSpec[] = [];
  const same = (a: ProgramSpec, b: ProgramSpec) => JSON.stringify([a.command, a.cwd, Object.entries(a.env).sort()]) === JSON.stringify([b.command, b.cwd, Object.entries(b.env).sort()]);
  return { asked, allow: async (p) => (asked.push(p), programs.some((q) => same(p, q))) };
}

describe('MCP over HTTP, signed', () => {
  // A gate in front of an MCP server that checks each request's signature over what it received:
  // method, path and query, headers, the body (Hawk's payload hash, AWS's payload hash) and the
  // freshness of its nonce and time, recomputed by each scheme's specification (auth-checks.ts), not
  // with the library Ferry signs with. A Hawk nonce seen before is refused, as Hawk servers do.
  const AWS = { accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'eu-west-1', service: 'mcp' };
  const HAWK = { type: 'hawk', authId: 'id', authKey: 'hawk-key', algorithm: 'sha256', includePayloadHash: true };
  const peers: McpPeer[] = [];
  const gates: http.Server[] = [];
  const verdicts: string[] = [];
  const nonces = new Set<string>();

  function verdict(req: http.IncomingMessage, body: Buffer, port: number): string {
    const received = { method: req.method ?? '', target: req.url ?? '', host: req.headers.host ?? '', headers: req.headers, body };
    const auth = String(req.headers.authorization ?? '');
    if (auth.startsWith('Hawk ')) {
      const { ok, hashOk, attributes } = hawkCheck(received, port, { key: 'hawk-key', algorithm: 'sha256' });
      // A body goes with its payload hash (includePayloadHash); a request without one has none to hash.
      const hashFits = body.length > 0 ? hashOk === true : hashOk !== false;
      const fresh = !nonces.has(attributes.nonce!) && Math.abs(Date.now() / 1000 - Number(attributes.ts)) < 60;
      nonces.add(attributes.nonce!);
      return !ok ? 'bad mac' : !hashFits ? 'bad payload hash' : !fresh ? 'nonce seen before or stale ts' : 'ok';
    }
    const { ok, why } = awsV4Check(received, AWS.secretKey);
    return ok ? 'ok' : why.split('\n')[0]!;
  }

  async function gated(peer: McpPeer): Promise<string> {
    peers.push(peer);
    const target = new URL(peer.url);
    const gate = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const why = verdict(req, body, (gate.address() as AddressInfo).port);
        verdicts.push(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname} ${why}`);
        if (why !== 'ok') return void res.writeHead(401).end(`bad signature: ${why}`);
        const forward = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.destroy());
        forward.end(body);
      });
    });
    gates.push(gate);
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(gate.address() as AddressInfo).port}${target.pathname}`;
  }

  afterAll(async () => {
    for (const gate of gates) {
      gate.closeAllConnections();
      await new Promise<void>((resolve) => gate.close(() => resolve()));
    }
    await Promise.all(peers.map((peer) => peer.close()));
  });

  it("signs each POST of a Streamable HTTP session for its own body, nonce and time (Hawk with the payload hash): initialize, notifications/initialized, tools/call", async () => {
    const url = await gated(await startStreamableHttp());
    verdicts.length = 0;
    const result = await send({ url: `${url}?tenant=a`, auth: HAWK, mcp: { call: 'tool', name: 'add', arguments: '{"a":1,"b":2}' } });
    expect(result.outcome.ok).toBe(true);
    const posts = verdicts.filter((v) => v.startsWith('POST '));
    expect(posts.length).toBeGreaterThanOrEqual(3);
    // The SDK's optional event stream (GET) is signed too; this stateless server answers it 405.
    expect(verdicts.filter((v) => !v.endsWith(' ok'))).toEqual([]);
  });

  it('signs each request of a session by AWS Signature v4 over its own body, headers and date, the session-ending DELETE too', async () => {
    const stateful = await startStatefulStreamableHttp();
    const url = await gated(stateful);
    verdicts.length = 0;
    const result = await send({ url, auth: { type: 'awsv4', ...AWS }, mcp: { call: 'tool', name: 'add', arguments: '{"a":2,"b":3}' } });
    expect(result.outcome.ok).toBe(true);
    expect(json(result)).toMatchObject({ structuredContent: { sum: 5 } });
    expect(verdicts.filter((v) => !v.endsWith(' ok'))).toEqual([]);
    expect(new Set(verdicts.map((v) => v.split(' ')[0]))).toEqual(new Set(['POST', 'GET', 'DELETE']));
    expect(stateful.open.size).toBe(0);
  });

  it('signs HTTP+SSE for its event stream (GET) and each POST to the endpoint the server names, with its own path and query', async () => {
    const url = await gated(await startSse());
    verdicts.length = 0;
    const result = await send({ url, auth: HAWK, mcp: { transport: 'sse', call: 'tool', name: 'add', arguments: '{"a":1,"b":1}' } });
    expect(result.outcome.ok).toBe(true);
    expect(verdicts.filter((v) => !v.endsWith(' ok'))).toEqual([]);
    expect(verdicts).toContain('GET /sse ok');
    expect(verdicts).toContain('POST /messages ok');
  });
});

describe('MCP over stdio', () => {
  const spec: ProgramSpec = { command: STDIO_COMMAND, cwd: process.cwd(), env: { FERRY_TEST_GREETING: 'hi' } };
  const fields = { url: STDIO_COMMAND, mcp: { call: 'tool', name: 'whoami', env: [{ key: 'FERRY_TEST_GREETING', value: 'hi' }] } };

  it('splits command lines like a shell, without one', () => {
    expect(commandWords(`"/usr/bin/my node" a\\ b 'c d' "e\\"f"`)).toEqual(['/usr/bin/my node', 'a b', 'c d', 'e"f']);
  });

  it('a program that is not allowed is not started: one line naming the command and how to allow it', async () => {
    const none = await sendFailure(send(fields));
    expect(none.message).toContain(STDIO_COMMAND);
    expect(none.message).toContain('--allow-programs');
    const policy = allowing({ ...spec, env: { FERRY_TEST_GREETING: 'other' } });
    const changedEnv = await sendFailure(send(fields, policy));
    expect(changedEnv.message).toContain('not allowed');
    expect(policy.asked[0]).toEqual(spec);
  });

  it('an auth set on the request itself is refused before starting the program (a program gets no HTTP headers; it was silently left out); one inherited is left out', async () => {
    const policy = allowing(spec);
    const own = await sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', settings: { timeoutMs: 10000 }, ...fields, auth: { type: 'bearer', token: 'sekrit' } }), undefined, { programs: policy }).then(() => undefined, (e: unknown) => e as Error);
    expect(own).toBeInstanceOf(PrepareError);
    expect(own!.message).toBe(`request "m": Bearer auth is not sent by an MCP request that starts a program (a command instead of a URL): a program gets no HTTP headers. Give it the credential in its environment or command line, and set this request's auth to none (or inherit).`);
    expect(policy.asked).toEqual([]);
    const inherited = await sendInheriting(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', settings: { timeoutMs: 10000 }, ...fields }), { type: 'bearer', token: 'sekrit' }, undefined, { programs: allowing(spec) });
    expect(inherited.outcome.ok).toBe(true);
  });

  it('an allowed program is started with its folder and env, answers, and its stderr is kept', async () => {
    const result = await send(fields, allowing(spec));
    expect(result.outcome.ok).toBe(true);
    const seen = JSON.parse((json(result).content as Array<{ text: string }>)[0]!.text) as { greeting: string; cwd: string };
    expect(seen).toMatchObject({ greeting: 'hi', cwd: process.cwd() });
    expect(result.detail).toMatchObject({ transport: 'stdio', server: { name: 'ferry-test-mcp' } });
    expect(String(result.detail?.stderr)).toContain('ferry test MCP server on stdio');
  });

  it("an error the server answered is said in its words alone, not with its stderr's last line (the fixture's banner) as if that were the cause", async () => {
    const error = await sendFailure(send({ ...fields, mcp: { ...fields.mcp, call: 'resource', name: 'ferry://nope' } }, allowing(spec)));
    expect(error.message).toBe('the resource call failed: MCP error -32602: Resource ferry://nope not found.');
  });

  it('cwd is a folder relative to the workspace folder (2.8): the program starts there, and that folder is what is allowed', async () => {
    const command = `"${process.execPath}" fixtures/mcp/stdio-server.mjs`;
    const inTest: ProgramSpec = { command, cwd: path.join(process.cwd(), 'test'), env: { FERRY_TEST_GREETING: 'hi' } };
    const result = await send({ ...fields, url: command, mcp: { ...fields.mcp, cwd: 'test' } }, allowing(inTest));
    const seen = JSON.parse((json(result).content as Array<{ text: string }>)[0]!.text) as { cwd: string };
    expect(seen.cwd).toBe(path.join(process.cwd(), 'test'));
    // Allowed with the workspace folder, the same command in test/ is not allowed.
    const policy = allowing({ ...inTest, cwd: process.cwd() });
    expect((await sendFailure(send({ ...fields, url: command, mcp: { ...fields.mcp, cwd: 'test' } }, policy))).message).toContain('not allowed');
    expect(policy.asked[0]).toEqual(inTest);
  });

  it('a program that writes something other than MCP to stdout (a banner) and then never answers is said to have done so, not only to be slow', async () => {
    const banner = { command: `"${process.execPath}" -e "console.log('Server listening on stdio'); setTimeout(() => {}, 10000)"`, cwd: process.cwd(), env: {} };
    const error = await sendFailure(send({ url: banner.command, settings: { timeoutMs: 1500 }, mcp: { transport: 'stdio', call: 'tool', name: 'x' } }, allowing(banner)));
    expect(error.message).toMatch(/did not initialize: the program wrote something other than MCP messages to its standard output \(Unexpected token 'S', "Server lis.* is not valid JSON\); an MCP server over stdio writes only JSON-RPC messages there, its logs go to stderr\.$/);
  });

  it('a program that never answers initialize fails at the time limit, saying so and naming the program (it said only "no complete response by then")', async () => {
    const silent = { command: `"${process.execPath}" -e "setInterval(() => {}, 1000)"`, cwd: process.cwd(), env: {} };
    const error = await sendFailure(send({ url: silent.command, settings: { timeoutMs: 800 }, mcp: { transport: 'stdio', call: 'tool', name: 'x' } }, allowing(silent)));
    expect((error as SendError).kind).toBe('timeout');
    expect(error.message).toBe(`timed out after 800 ms (settings.timeoutMs); the MCP server "${silent.command}" had not finished initialize by then. Raise the time limit, or check why the server is slow.`);
  });

  it('a command that does not exist fails with one line', async () => {
    const missing = { command: 'ferry-no-such-program-xyz --flag', cwd: process.cwd(), env: {} };
    const error = await sendFailure(send({ url: missing.command, mcp: { transport: 'stdio', call: 'tool', name: 'x' } }, allowing(missing)));
    expect(error.message).toBe('could not start the program "ferry-no-such-program-xyz --flag": the command was not found; check its name, or give its full path (it is looked up on this computer\'s PATH, without a shell).');
  });

  it('a start folder (mcp.cwd) that is not there, or is a symbolic link, is named as such (it read as "the command was not found")', async () => {
    const missing = { command: STDIO_COMMAND, cwd: path.resolve('no-such-dir-xyz'), env: {} };
    const error = await sendFailure(send({ url: missing.command, mcp: { transport: 'stdio', call: 'tool', name: 'x', cwd: 'no-such-dir-xyz' } }, allowing(missing)));
    expect(error.message).toBe(`could not start the program "${STDIO_COMMAND}": its start folder no-such-dir-xyz (mcp.cwd) does not exist; create it, or fix mcp.cwd (a folder relative to the workspace folder).`);
    const temp = mkdtempSync(path.join(os.tmpdir(), 'ferry-mcp-cwd-'));
    const link = path.join(process.cwd(), '.vitest-temp', `cwd-link-${process.pid}`);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(temp, link);
    try {
      const linked = { command: STDIO_COMMAND, cwd: link, env: {} };
      const viaLink = await sendFailure(send({ url: linked.command, mcp: { transport: 'stdio', call: 'tool', name: 'x', cwd: path.relative(process.cwd(), link) } }, allowing(linked)));
      expect(viaLink.message).toContain(`(mcp.cwd) is a symbolic link, which Ferry does not follow; create it, or fix mcp.cwd`);
    } finally {
      rmSync(link, { force: true });
      rmSync(temp, { recursive: true, force: true });
    }
  });
});

describe('MCP over stdio: hand-made programs', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ferry-mcp-flood-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A real program in a temporary folder: answers initialize, then runs `onCall` (with `id`, the
   * call's id) for the tool call; it writes its pid to a file.
   */
  function handMadeProgram(name: string, onCall: string): ProgramSpec & { pidFile: string } {
    const file = path.join(dir, `${name}.mjs`);
    const pidFile = path.join(dir, `${name}.pid`);
    writeFileSync(file, `
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
const INIT = { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'hand-made', version: '1' } };
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') return void process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: INIT }) + '\\n');
  if (message.method !== 'tools/call') return;
  const id = message.id;
  ${onCall}
});
`);
    return { command: `"${process.execPath}" ${file}`, cwd: process.cwd(), env: {}, pidFile };
  }

  /** Answers the call by writing `head` and `chunk` for as long as its output is read. */
  const floodingProgram = (name: string, head: string, chunk: string) =>
    handMadeProgram(name, `
  process.stdout.write(${JSON.stringify(head)}.replace('ID', String(id)));
  const chunk = Buffer.from(${JSON.stringify(chunk)});
  const more = () => { while (process.stdout.write(chunk)); };
  process.stdout.on('drain', more);
  more();`);

  const words = (command: string) => `the MCP server "${command}" sent more than 1 MB (maxResponseMb) on its standard output, so Ferry stopped reading it and stopped the program; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`;

  async function stopped(pidFile: string): Promise<boolean> {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  // Cut at the bound, not read to the time limit: the failure's words say which (the limit's are its own).
  const sendBounded = (program: ProgramSpec) =>
    sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', url: program.command, settings: { timeoutMs: 15000 }, mcp: { transport: 'stdio', call: 'tool', name: 'big' } }), undefined, { maxResponseMb: 1, programs: allowing(program) });

  it('one endless line (an answer without its newline) is cut at the bound at once and the program stopped (the SDK buffered 10 MB whatever the setting, then said "Connection closed")', async () => {
    const program = floodingProgram('endless-line', '{"jsonrpc":"2.0","id":ID,"result":{"content":[{"type":"text","text":"', 'x'.repeat(64 * 1024));
    const error = await sendFailure(sendBounded(program));
    expect(error.message).toBe(words(program.command));
    expect(error.kind).toBe('tooLarge');
    expect(await stopped(program.pidFile)).toBe(true);
  });

  it('a program that exits or is killed before answering is said to have done so, with its exit code or signal and whether a message was cut (it was "MCP error -32000: Connection closed")', async () => {
    const cases: Array<[string, string, string]> = [
      ['exits', `process.stderr.write('boom: no database\\n'); process.exit(3);`, 'the tool call failed: the program exited with code 3 before answering (its stderr: boom: no database).'],
      ['killed', `process.kill(process.pid, 'SIGKILL');`, 'the tool call failed: the program was killed by SIGKILL before answering.'],
      ['cut', `process.stdout.write('{"jsonrpc":"2.0","id":' + id + ',"result":{"content":[{"type":"te', () => process.exit(0));`, 'the tool call failed: the program exited with code 0 in the middle of a message before answering.'],
    ];
    for (const [name, onCall, words] of cases) {
      const program = handMadeProgram(name, onCall);
      const error = await sendFailure(sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', url: program.command, settings: { timeoutMs: 10000 }, mcp: { transport: 'stdio', call: 'tool', name: 'x' } }), undefined, { programs: allowing(program) }));
      expect(error.message).toBe(words);
      expect(error.kind).toBe('protocol');
    }
  });

  it('a program that closes its standard output but keeps running fails at once, and is stopped (it ran to the time limit, forever with none)', async () => {
    const program = handMadeProgram('closes-stdout', `process.stdout.end(); setInterval(() => {}, 1000);`);
    const error = await sendFailure(sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', url: program.command, settings: { timeoutMs: 0 }, mcp: { transport: 'stdio', call: 'tool', name: 'x' } }), undefined, { programs: allowing(program) }));
    expect(error.message).toBe(`the MCP server "${program.command}" closed its standard output but kept running, so no answer could come; Ferry stopped it.`);
    expect(await stopped(program.pidFile)).toBe(true);
  });

  it('endless output of whole lines (notifications that never end) is cut at the bound too (it ran to the time limit)', async () => {
    const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'y'.repeat(1000) } })}\n`;
    const program = floodingProgram('endless-lines', '', line.repeat(64));
    const error = await sendFailure(sendBounded(program));
    expect(error.message).toBe(words(program.command));
    expect(await stopped(program.pidFile)).toBe(true);
  });
});
