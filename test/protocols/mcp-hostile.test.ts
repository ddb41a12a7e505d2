/**
 * MCP requests against hand-made servers that do what MCP servers should not, or what a client
 * must still handle: requests to the client (sampling, elicitation, roots), notification floods.
 * Each must end the call at once with what happened, within the time limit and maxResponseMb.
 * Real servers on 127.0.0.1 (port 0).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestSchema } from '../../src/model/index.js';
import { requestKind, SendError, type ProtocolResult } from '../../src/protocols/index.js';
import { sendWith } from './kind-cases.js';

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
async function streamable(call: (message: Message, res: http.ServerResponse, posted: Posted) => void, headers: Record<string, string> = {}) {
  const posted = new Posted();
  const server = http.createServer((req, res) => {
    if (req.method === 'DELETE') return void res.writeHead(200).end();
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

function send(url: string, fields: Record<string, unknown> = {}, extra: { maxResponseMb?: number } = {}): Promise<ProtocolResult> {
  return sendWith(mcpKind, requestSchema.parse({ name: 'm', kind: 'mcp', url, settings: { timeoutMs: 10000 }, mcp: { transport: 'streamableHttp', call: 'tool', name: 'go' }, ...fields }), undefined, extra);
}

async function failure(promise: Promise<unknown>): Promise<SendError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SendError);
  expect((error as SendError).message).not.toContain('\n');
  return error as SendError;
}

const text = (result: ProtocolResult) => (JSON.parse(Buffer.from(result.body).toString('utf8')) as { content: Array<{ text: string }> }).content[0]!.text;

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe('MCP: a server that sends requests to the client', () => {
  for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
    it(`${method} during a call is answered at once (method not found: Ferry offers none of them), and the call goes on`, async () => {
      const peer = await streamable((message, res, posted) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(sse({ jsonrpc: '2.0', id: 'asks-1', method, params: method === 'roots/list' ? {} : { messages: [], maxTokens: 1, message: 'ok?', requestedSchema: { type: 'object', properties: {} } } }));
        void posted.reply('asks-1').then((reply) => res.end(sse(textResult(message.id, `client said ${reply.error?.code ?? 'a result'}`))));
      });
      const { value, ms } = await timed(send(peer.url));
      expect(text(value)).toBe('client said -32601');
      expect(ms).toBeLessThan(3000);
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
    const { value: error, ms } = await timed(failure(send(peer.url, { settings: { timeoutMs: 1500 } }, { maxResponseMb: 0 })));
    expect(error.kind).toBe('timeout');
    expect(ms).toBeLessThan(4000);
  });
});
