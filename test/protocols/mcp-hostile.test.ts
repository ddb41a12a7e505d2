/**
 * MCP requests against hand-made servers that do what MCP servers should not, or what a client
 * must still handle: requests to the client (sampling, elicitation, roots), notification floods,
 * answers with an id nobody asked for, event streams cut or ended before the answer, answers that
 * are neither JSON nor an event stream. Each must end the call at once with
 * what happened, within the time limit and maxResponseMb. Real servers on 127.0.0.1 (port 0).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestSchema, workspaceSchema } from '../../src/model/index.js';
import { HttpAgents, requestKind, SendError, type ProtocolResult, type StreamMessage } from '../../src/protocols/index.js';
import { prepareRequest } from '../../src/request/index.js';
import { sendFailure, sendWith } from './kind-cases.js';
import { closedPort, nginxMissing, startNginx } from '../support/servers/index.js';

const mcpKind = requestKind('mcp');

interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

const INIT = { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } };
const sse = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const textResult = (id: Message['id'], text: string) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

// The first send loads the MCP client (call.js and the SDK, transformed for the tests) on first
// use: several seconds on a loaded machine. Loaded here, before any call's own time limit runs.
beforeAll(async () => {
  await import('../../src/protocols/mcp/call.js');
}, 60_000);

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function listening(server: net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    if (server instanceof http.Server) server.closeAllConnections();
    server.close();
  });
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
  });
}

/** What the client POSTed, and a wait for the client's answer to a request the server sent it. */
class Posted {
  readonly messages: Message[] = [];
  private waiting = new Map<Message['id'], (message: Message) => void>();
  add(message: Message): void {
    this.messages.push(message);
    if (message.method === undefined) this.waiting.get(message.id)?.(message);
  }
  reply(id: Message['id']): Promise<Message> {
    const had = this.messages.find((m) => m.id === id && m.method === undefined);
    return had ? Promise.resolve(had) : new Promise((resolve) => this.waiting.set(id, resolve));
  }
}

/**
 * Streamable HTTP by hand: initialize answered as JSON (with `headers`), notifications and the
 * client's answers accepted (202), the event stream GET refused (405), DELETE accepted; any other
 * request of the client's is handed to `call`.
 */
async function streamable(call: (message: Message, res: http.ServerResponse, posted: Posted) => void, headers: Record<string, string> = {}, get?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean) {
  const posted = new Posted();
  const server = http.createServer((req, res) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
    if (req.method === 'GET' && get?.(req, res)) return;
    if (req.method !== 'POST') return void res.writeHead(405).end();
    void readBody(req).then((body) => {
      const message = JSON.parse(body) as Message;
      posted.add(message);
      if (message.id === undefined || message.method === undefined) return void res.writeHead(202).end();
      if (message.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: INIT }));
      call(message, res, posted);
    });
  });
  const host = await listening(server);
  return { url: `http://${host}/mcp`, host, posted };
}

/**
 * HTTP+SSE by hand: GET /sse opens the stream and names /messages; what the client POSTs there is
 * accepted (202); initialize is answered on the stream, any other request handed to `call` with the stream.
 */
async function legacy(call: (message: Message, stream: http.ServerResponse) => void) {
  let stream: http.ServerResponse | undefined;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/sse') {
      stream = res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.write('event: endpoint\ndata: /messages\n\n');
    }
    if (req.method !== 'POST' || !stream) return void res.writeHead(404).end();
    void readBody(req).then((body) => {
      const message = JSON.parse(body) as Message;
      res.writeHead(202).end();
      if (message.id === undefined || message.method === undefined) return;
      if (message.method === 'initialize') return void stream!.write(sse({ jsonrpc: '2.0', id: message.id, result: INIT }));
      call(message, stream!);
    });
  });
  const host = await listening(server);
  return { url: `http://${host}/sse`, host };
}

/**
 * A call that "fails at once" is told from one that waited for its time limit by its words: the
 * limit's failure says so (kind timeout), never what these tests expect. No test times a call.
 */
function send(url: string, fields: Record<string, unknown> = {}, extra: { maxResponseMb?: number } = {}): Promise<ProtocolResult> {
  return sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', url, settings: { timeoutMs: 10000 }, mcp: { transport: 'streamableHttp', call: 'tool', name: 'go' }, ...fields }), undefined, extra);
}

/** A live session (the app's), as `connect` opens it; closed after the test. */
async function connect(url: string, transport: 'streamableHttp' | 'sse') {
  const request = requestSchema.parse({ name: 'm', kind: 'mcp', url, settings: { timeoutMs: 10000 }, mcp: { transport } });
  const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: mcpKind });
  const agents = new HttpAgents();
  const messages: StreamMessage[] = [];
  const live = await mcpKind.connect!(prepared, { agents, maxResponseMb: 50, workspaceRoot: process.cwd(), allowFilesOutside: false }, { onMessage: (m) => void messages.push(m) });
  closers.push(() => void live.close().then(() => agents.close()));
  return { live, messages };
}

/** Its SendError, said in one line. */
async function failure(promise: Promise<unknown>): Promise<SendError> {
  const error = await sendFailure(promise);
  expect(error.message).not.toContain('\n');
  return error;
}

const text = (result: ProtocolResult) => (JSON.parse(Buffer.from(result.body).toString('utf8')) as { content: Array<{ text: string }> }).content[0]!.text;

describe('MCP: a server that sends requests to the client', () => {
  for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
    it(`${method} during a call is answered at once (method not found: Ferry offers none of them), and the call goes on`, async () => {
      const peer = await streamable((message, res, posted) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(sse({ jsonrpc: '2.0', id: 'asks-1', method, params: method === 'roots/list' ? {} : { messages: [], maxTokens: 1, message: 'ok?', requestedSchema: { type: 'object', properties: {} } } }));
        void posted.reply('asks-1').then((reply) => res.end(sse(textResult(message.id, `client said ${reply.error?.code ?? 'a result'}`))));
      });
      const value = await send(peer.url);
      expect(text(value)).toBe('client said -32601');
    });
  }
});

describe('MCP: notifications during a call', () => {
  it('20,000 log notifications before the answer: the answer is read', async () => {
    const peer = await streamable((message, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const note = sse({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(100) } });
      res.write(note.repeat(20000));
      res.end(sse(textResult(message.id, 'after the flood')));
    });
    expect(text(await send(peer.url))).toBe('after the flood');
  });

  it('an endless flood with maxResponseMb 0 ends at the time limit', async () => {
    const peer = await streamable((_message, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const note = Buffer.from(sse({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(100) } }).repeat(100));
      const more = () => {
        while (!res.destroyed && res.write(note));
      };
      res.on('drain', more);
      more();
    });
    const error = await failure(send(peer.url, { settings: { timeoutMs: 1500 } }, { maxResponseMb: 0 }));
    expect(error.kind).toBe('timeout');
  });
});

describe('MCP: answers the call never gets', () => {
  it('a JSON answer to the call with an id the client never used fails the call at once, saying so (it waited to the time limit)', async () => {
    const peer = await streamable((_message, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(textResult(9999, 'for someone else'))));
    const error = await failure(send(peer.url));
    expect(error.message).toBe(`the tool call failed: the MCP server at ${peer.host} ended its answer to tools/call without answering it; it answered id 9999 instead, which Ferry did not send.`);
    expect(error.kind).toBe('protocol');
  });

  it('an event stream that ends without the answer (one with another id) fails the call at once (it waited to the time limit)', async () => {
    const peer = await streamable((_message, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sse(textResult('other', 'for someone else'))));
    const error = await failure(send(peer.url));
    expect(error.message).toBe(`the tool call failed: the MCP server at ${peer.host} ended its answer to tools/call without answering it; it answered id "other" instead, which Ferry did not send.`);
  });

  it('the connection dropped in the middle of the event stream fails the call at once (it waited to the time limit)', async () => {
    const peer = await streamable((message, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }));
      res.write(`event: message\ndata: ${JSON.stringify(textResult(message.id, 'cut')).slice(0, 20)}`, () => res.destroy());
    });
    const error = await failure(send(peer.url));
    expect(error.message).toBe(`the tool call failed: the connection to the MCP server at ${peer.host} broke before its answer to tools/call came (other side closed).`);
  });
});

describe('MCP: answers the call never gets, in a live session', () => {
  it('a call whose answer is cut fails at once; the session stays open and the next call is answered', async () => {
    const peer = await streamable((message, res) => {
      if ((message.params as { name?: string }).name === 'cut') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders(), setTimeout(() => res.destroy(), 20);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(textResult(message.id, 'answered')));
    });
    const { live } = await connect(peer.url, 'streamableHttp');
    await expect(live.call('callTool', { name: 'cut' })).rejects.toThrow(`callTool failed: the connection to the MCP server at ${peer.host} broke before its answer to tools/call came (other side closed).`);
    expect(await live.call('callTool', { name: 'go' })).toMatchObject({ content: [{ text: 'answered' }] });
    expect(live.isOpen).toBe(true);
  });

  it('HTTP+SSE: the stream ending fails the call waiting and ends the session, said as the server ending it', async () => {
    const peer = await legacy((_message, stream) => stream.end());
    const { live } = await connect(peer.url, 'sse');
    await expect(live.call('callTool', { name: 'go' })).rejects.toThrow(`callTool failed: the MCP server at ${peer.host} ended its event stream (HTTP+SSE) before answering tools/call.`);
    expect(await live.ended).toMatchObject({ by: 'peer' });
  });
});

describe('MCP: an answer the server resumes', () => {
  it('an event stream that gave an event id and ended is resumed by the SDK (GET with Last-Event-ID), not failed', async () => {
    const resumed: string[] = [];
    let callId: Message['id'];
    const peer = await streamable(
      (message, res) => {
        callId = message.id;
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: ev-1\nretry: 10\ndata: \n\n');
      },
      {},
      (req, res) => {
        const last = req.headers['last-event-id'];
        if (typeof last !== 'string') return false;
        resumed.push(last);
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: ev-2\n${sse(textResult(callId, 'resumed'))}`);
        return true;
      },
    );
    expect(text(await send(peer.url))).toBe('resumed');
    expect(resumed).toEqual(['ev-1']);
  });
});

describe('MCP over HTTP+SSE: answers the call never gets', () => {
  it('the stream dropped while the call waits fails the call at once (it waited to the time limit)', async () => {
    const peer = await legacy((_message, stream) => stream.destroy());
    const error = await failure(send(peer.url, { mcp: { transport: 'sse', call: 'tool', name: 'go' } }));
    expect(error.message).toBe(`the tool call failed: the connection to the MCP server at ${peer.host} broke before its answer to tools/call came: its event stream (HTTP+SSE) was cut (other side closed).`);
  });

  it('the stream ended while the call waits fails the call at once (it waited to the time limit)', async () => {
    const peer = await legacy((_message, stream) => stream.end());
    const error = await failure(send(peer.url, { mcp: { transport: 'sse', call: 'tool', name: 'go' } }));
    expect(error.message).toBe(`the tool call failed: the MCP server at ${peer.host} ended its event stream (HTTP+SSE) before answering tools/call.`);
  });

  it('an answer with an id the client never used is passed over; the call waits for its own', async () => {
    const peer = await legacy((message, stream) => {
      stream.write(sse(textResult(9999, 'for someone else')));
      setTimeout(() => stream.write(sse(textResult(message.id, 'mine'))), 100);
    });
    expect(text(await send(peer.url, { mcp: { transport: 'sse', call: 'tool', name: 'go' } }))).toBe('mine');
  });
});

describe('MCP: Streamable HTTP answers that are neither JSON nor an event stream', () => {
  const other = (host: string, what: string) => `the MCP server at ${host} answered tools/call with ${what}, neither JSON (application/json) nor an event stream (text/event-stream): `;
  for (const [label, headers, body, said] of [
    // The SDK said `Streamable HTTP error: Unexpected content type: text/html`.
    ['an HTML page', { 'content-type': 'text/html; charset=utf-8' }, `<html>\n<body>Log in ${'please '.repeat(50)}</body></html>`, (host: string) => `${other(host, 'text/html')}${`<html> <body>Log in ${'please '.repeat(50)}`.slice(0, 200)}…; check that the URL is the server's MCP endpoint.`],
    // `Unexpected content type: null`.
    ['no Content-Type', {}, 'hello', (host: string) => `${other(host, 'no Content-Type')}hello; check that the URL is the server's MCP endpoint.`],
    // `the tool call failed: Unexpected token '<', "<html>" is not valid JSON.`
    ['JSON that is not JSON', { 'content-type': 'application/json' }, '<html>', (host: string) => `the MCP server at ${host} answered tools/call with a body that is not JSON, though its Content-Type says application/json (Unexpected token '<', "<html>" is not valid JSON): <html>`],
  ] as const) {
    it(`${label}: the call fails at once, saying what came (it said the SDK's words only)`, async () => {
      const peer = await streamable((_message, res) => res.writeHead(200, headers).end(body));
      const error = await failure(send(peer.url));
      expect(error.message).toBe(said(peer.host));
      expect(error.kind).toBe('protocol');
    });
  }

  it('auto: an HTML page answering initialize is said, beside HTTP+SSE failing too', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>not here</p>'));
    const host = await listening(server);
    const error = await failure(send(`http://${host}/mcp`, { mcp: { transport: 'auto', call: 'tool', name: 'go' } }));
    expect(error.message).toContain(`did not initialize over Streamable HTTP (the MCP server at ${host} answered initialize with text/html, neither JSON (application/json) nor an event stream (text/event-stream): <p>not here</p>; check that the URL is the server's MCP endpoint) nor HTTP+SSE`);
  });
});

describe.skipIf(nginxMissing())('MCP behind nginx whose upstream is down (a 502 error page)', () => {
  it('initialize answered 502 is one line: the status and the page\'s first words (it was the SDK\'s message with the whole page, over many lines with CRs)', async () => {
    const nginx = await startNginx(`location / { proxy_pass http://127.0.0.1:${await closedPort()}; }`);
    closers.push(() => void nginx.close());
    const host = `127.0.0.1:${nginx.port}`;
    const page = '<html> <head><title>502 Bad Gateway</title></head> <body> <center><h1>502 Bad Gateway</h1></center> <hr><center>nginx/';
    const streamableOnly = await failure(send(`${nginx.url}/mcp`, { mcp: { transport: 'streamableHttp', call: 'tool', name: 'go' } }));
    expect(streamableOnly.message).toMatch(new RegExp(`^the MCP server at ${host} did not initialize: its POST was answered HTTP 502: ${escape(page)}[\\d.]+</center> </body> </html>\\.$`));
    const auto = await failure(send(`${nginx.url}/mcp`, { mcp: { transport: 'auto', call: 'tool', name: 'go' } }));
    expect(auto.message).toContain(`did not initialize over Streamable HTTP (its POST was answered HTTP 502: ${page}`);
    expect(auto.message).toMatch(/\) nor HTTP\+SSE: SSE error: Non-200 status code \(502\)\.$/);
    for (const error of [streamableOnly, auto]) expect(error.message).not.toMatch(/[\r\n]/);
  });
});

/** `text` as a regular expression matching it literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('MCP: a server that fails a call and then never answers the listing that names what it has', () => {
  /** tools/call answered with an error (or an isError result); tools/list never answered. */
  const silentList = (answer: (id: Message['id']) => unknown) =>
    streamable((message, res) => {
      if (message.method === 'tools/list') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(message.id)));
    });

  it("a call's error is said within the time limit, not 60 s later (the SDK's own limit on the listing)", async () => {
    const peer = await silentList((id) => ({ jsonrpc: '2.0', id, error: { code: -32602, message: 'no such tool' } }));
    const error = await failure(send(peer.url, { settings: { timeoutMs: 1500 } }));
    expect(error.message).toBe('the tool call failed: MCP error -32602: no such tool.');
  });

  it('an isError result is the answer within the time limit', async () => {
    const peer = await silentList((id) => ({ jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'broken' }] } }));
    const result = await send(peer.url, { settings: { timeoutMs: 1500 } });
    expect(result.outcome).toMatchObject({ ok: false, label: 'isError: broken' });
  });

  it('live: a call that fails is said within its time limit, and the session stays open', async () => {
    const peer = await silentList((id) => ({ jsonrpc: '2.0', id, error: { code: -32602, message: 'no such tool' } }));
    const request = requestSchema.parse({ name: 'm', kind: 'mcp', url: peer.url, settings: { timeoutMs: 1500 }, mcp: { transport: 'streamableHttp' } });
    const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: mcpKind });
    const agents = new HttpAgents();
    const live = await mcpKind.connect!(prepared, { agents, maxResponseMb: 50, workspaceRoot: process.cwd(), allowFilesOutside: false }, { onMessage: () => {} });
    closers.push(() => void live.close().then(() => agents.close()));
    await expect(live.call('callTool', { name: 'go' })).rejects.toThrow('callTool failed: MCP error -32602: no such tool.');
    expect(live.isOpen).toBe(true);
  });
});

describe('MCP: a session id HTTP does not allow in a header', () => {
  /**
   * A Streamable HTTP server written by hand over TCP (node:http refuses to write such a header):
   * initialize is answered with `Mcp-Session-Id: <sessionId>` sent as raw bytes.
   */
  async function sessionIdPeer(sessionId: string): Promise<string> {
    const server = net.createServer((socket) => {
      let pending = Buffer.alloc(0);
      socket.on('data', (data: Buffer) => {
        pending = Buffer.concat([pending, data]);
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(pending.subarray(0, end).toString('latin1'))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const message = JSON.parse(pending.subarray(end + 4, end + 4 + length).toString('utf8') || '{}') as Message;
        pending = pending.subarray(end + 4 + length);
        if (message.id === undefined) return void socket.write('HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n');
        const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: INIT });
        socket.write(Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: ${sessionId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, 'latin1'));
      });
    });
    return `http://${await listening(server)}/mcp`;
  }

  it('a control character in Mcp-Session-Id says the server wrote a bad header, not "check the URL\'s port"', async () => {
    for (const control of ['\x01', '\x7f']) {
      const url = await sessionIdPeer(`abc${control}def`);
      const host = new URL(url).host;
      const error = await failure(send(url));
      expect(error.kind).toBe('protocol');
      expect(error.message).toBe(
        `${host} answered with a response header holding a character HTTP does not allow in one, such as a control character (Invalid header value char, HPE_INVALID_HEADER_TOKEN); the server must send its header names and values as visible text. Fix the server: a session id or token it makes from raw random bytes is the usual cause.`,
      );
      expect(error.message).not.toContain('port');
      // The app's live session says the same.
      await expect(connect(url, 'streamableHttp')).rejects.toThrow(`${host} answered with a response header holding a character HTTP does not allow`);
    }
  });
});
