/**
 * The MCP server (spec 2.11 `mcp`) on the shared HTTP listener: Streamable HTTP on `path`
 * (default `/mcp`), and the older HTTP+SSE transport (`GET /sse`, then `POST /messages`) for
 * clients that still use it. Each session has its own SDK server (`session.ts`) answering from
 * the current settings. `cors` lets browser clients on other origins in.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type AnyRequest, type AnyResponse, answerable, plainTextHeaders } from '../../http-types.js';
import { epochMsOf } from '../../traffic.js';
import type { TrafficRecord } from '../../types.js';
import { ServerError } from '../../errors.js';
import { readBody } from '../http-mock/read-body.js';
import type { HttpKindInstance, KindContext, KindSettings, ServerKindModule } from '../kind.js';
import { compileCatalog } from './catalog.js';
import { type CallNote, createSession, type RequestId, type SessionState } from './session.js';
import { PendingTimers } from '../pending-timers.js';
import { MAX_UNREAD_STREAM_BYTES } from '../messages/not-reading.js';
import { kindSection } from '../../../model/index.js';

/** The most a JSON-RPC message may be. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const SSE_PATH = '/sse';
const MESSAGES_PATH = '/messages';

/**
 * Refuses a `path` no client reaches: without a leading / no request path equals it (and the URL
 * printed ran it into the port), and /sse or /messages took the older transport's place.
 */
function checkPath(path: string, file: string): void {
  if (!path.startsWith('/')) throw new ServerError(`${file}: mcp.path: ${JSON.stringify(path)} does not start with /; write it as a URL path, such as /mcp.`);
  if (path === SSE_PATH || path === MESSAGES_PATH) {
    throw new ServerError(`${file}: mcp.path: ${path} is where the older HTTP+SSE transport is served (GET ${SSE_PATH}, POST ${MESSAGES_PATH}); choose another path, such as /mcp.`);
  }
}

export type McpRecord = TrafficRecord<CallNote>;

/**
 * `sessionIdleMs`: a Streamable HTTP session with no request for this long and no GET stream open
 * is closed: its client left without ending it (the SDK client's close() sends no DELETE). A
 * field, not a constant, so tests can shorten it.
 */
export const MCP_TIMINGS = { sessionIdleMs: 30 * 60_000 };
/**
 * `sessions`: Streamable HTTP sessions kept at once. Each holds an SDK server; clients that leave
 * without DELETE are common, so an initialize past this closes the least recently used session
 * with no GET stream open (its client gets 404 and initializes again, as MCP asks).
 */
export const MCP_LIMITS = { sessions: 1000 };

/** Closes a session when it has been idle for MCP_TIMINGS.sessionIdleMs with no GET stream open. */
class IdleSession {
  #streams = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(close: () => void) {
    this.#timer = setTimeout(() => (this.#streams > 0 ? this.#timer.refresh() : close()), MCP_TIMINGS.sessionIdleMs);
    this.#timer.unref();
  }

  /** A request of the session: the idle time starts again; a GET stream holds the session open until it closes. */
  request(req: IncomingMessage, res: ServerResponse): void {
    this.#timer.refresh();
    if (req.method !== 'GET') return;
    this.#streams++;
    res.once('close', () => {
      this.#streams--;
      this.#timer.refresh();
    });
  }

  /** A GET stream is open: its client still listens. */
  get listening(): boolean {
    return this.#streams > 0;
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}

interface Open {
  close(): Promise<void>;
}

class McpKind implements HttpKindInstance {
  #state: SessionState | undefined;
  #path = '/mcp';
  #cors = false;
  readonly #streamable = new Map<string, { transport: StreamableHTTPServerTransport; idle: IdleSession }>();
  readonly #legacy = new Map<string, SSEServerTransport>();
  readonly #open = new Set<Open>();
  readonly #timers = new PendingTimers();
  /** The open sessions' SDK servers, told when an edit changes a list. */
  readonly #sessions = new Set<Server>();
  /** The tools, resources and prompts as the file had them, to tell which an edit changed. */
  #lists = { tools: '', resources: '', prompts: '' };

  constructor(private readonly context: KindContext) {}

  configure({ server, variables }: KindSettings): void {
    const section = kindSection(server, 'mcp');
    checkPath(section.path, this.context.file);
    const lists = { tools: JSON.stringify(section.tools), resources: JSON.stringify(section.resources), prompts: JSON.stringify(section.prompts) };
    const changed = this.#state === undefined ? [] : (['tools', 'resources', 'prompts'] as const).filter((list) => lists[list] !== this.#lists[list]);
    this.#lists = lists;
    this.#state = {
      name: section.serverName?.trim() || server.name,
      version: section.version,
      instructions: section.instructions,
      catalog: compileCatalog(section, this.context.file),
      variables,
    };
    this.#path = section.path;
    this.#cors = section.cors;
    // Clients keep the lists they read: a changed one is announced (notifications/…/list_changed)
    // so they read it again, as SDK servers do when their tools change.
    for (const session of this.#sessions) {
      for (const list of changed) {
        const told = list === 'tools' ? session.sendToolListChanged() : list === 'resources' ? session.sendResourceListChanged() : session.sendPromptListChanged();
        void told.catch(() => {}); // a session whose client has gone
      }
    }
  }

  openStreams(): number {
    return this.#streamable.size + this.#legacy.size;
  }

  /** The Streamable HTTP endpoint (`path`, `/mcp` by default), where MCP clients are pointed. */
  clientUrl(bound: string): string {
    return `${bound}${this.#path}`;
  }

  close(): void {
    this.#timers.clear();
    for (const open of this.#open) void open.close().catch(() => {});
    for (const { idle } of this.#streamable.values()) idle.stop();
    this.#open.clear();
    this.#sessions.clear();
    this.#streamable.clear();
    this.#legacy.clear();
  }

  handle(req: AnyRequest, res: AnyResponse): void {
    void this.#route(req as IncomingMessage, answerable(res) as ServerResponse).catch((error: unknown) => {
      const out = answerable(res);
      if (out.headersSent) return void out.end();
      this.#plain(out as ServerResponse, 500, `The MCP server failed: ${(error as Error).message}\n`);
    });
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (this.#cors) {
      // Names as written, as the HTTP mock writes its CORS headers (the SDK's own headers are its own).
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id, mcp-protocol-version');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
          'Access-Control-Allow-Headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
          'Access-Control-Max-Age': '600',
        });
        return void res.end();
      }
    }
    if (url.pathname === this.#path) return this.#streamableRequest(req, res);
    if (url.pathname === SSE_PATH && req.method === 'GET') return this.#openLegacy(res);
    if (url.pathname === MESSAGES_PATH && req.method === 'POST') {
      const transport = this.#legacy.get(url.searchParams.get('sessionId') ?? '');
      if (transport === undefined) return this.#plain(res, 404, 'No such MCP session: open one with GET /sse first.\n');
      // Not JSON, or too big: answered (400, 413) and done. Handed on undefined, the SDK read the
      // body again itself: the rest of a refused one, which it ran when that was a whole message.
      const body = await this.#json(req, res);
      if (body === undefined) return;
      return transport.handlePostMessage(req, res, body);
    }
    this.#plain(res, 404, `This is an MCP server: Streamable HTTP on ${this.#path}, HTTP+SSE on ${SSE_PATH}.\n`);
  }

  async #streamableRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? this.#streamable.get(id) : undefined;
    if (existing !== undefined) {
      // Most recently used last: the first is the one an initialize past MCP_LIMITS closes.
      this.#streamable.delete(id as string);
      this.#streamable.set(id as string, existing);
      existing.idle.request(req, res);
      const body = req.method === 'POST' ? await this.#json(req, res) : undefined;
      if (req.method === 'POST' && body === undefined) return;
      return existing.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return this.#plain(res, typeof id === 'string' ? 404 : 400, typeof id === 'string' ? 'No such MCP session; initialize a new one.\n' : 'Send an initialize request first (POST).\n');
    const body = await this.#json(req, res);
    if (body === undefined) return;
    if (!isInitializeRequest(body)) return this.#plain(res, typeof id === 'string' ? 404 : 400, typeof id === 'string' ? 'No such MCP session; initialize a new one.\n' : 'No session: the first request must be initialize.\n');
    if (this.#streamable.size >= MCP_LIMITS.sessions) {
      const idle = [...this.#streamable.values()].find((session) => !session.idle.listening);
      if (idle === undefined) return this.#plain(res, 503, `This MCP server keeps ${MCP_LIMITS.sessions} sessions at most, and every one has a client listening; end one (DELETE) and try again.\n`);
      await idle.transport.close().catch(() => {});
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.#streamable.set(sessionId, { transport, idle: new IdleSession(() => void transport.close().catch(() => {})) });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) {
        this.#streamable.get(transport.sessionId)?.idle.stop();
        this.#streamable.delete(transport.sessionId);
      }
      this.#open.delete(transport);
    };
    this.#open.add(transport);
    await this.#connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async #openLegacy(res: ServerResponse): Promise<void> {
    const start = performance.now();
    const transport = new SSEServerTransport(MESSAGES_PATH, res);
    this.#legacy.set(transport.sessionId, transport);
    this.#open.add(transport);
    res.once('close', () => {
      this.#legacy.delete(transport.sessionId);
      this.#open.delete(transport);
    });
    await this.#connect(transport);
    // Answers go out on the stream, not on the POST: a client that posts and never reads it
    // would have them all kept in memory. Its POSTs after the close get 404. What waited before
    // an answer is judged, not the answer: a result may render to 32 MB (spec 8.1), and a 9 MB
    // one closed the stream of a client that reads, blamed for not reading.
    const send = transport.send.bind(transport);
    transport.send = async (message: JSONRPCMessage) => {
      const waiting = res.writableLength;
      await send(message);
      if (waiting <= MAX_UNREAD_STREAM_BYTES || res.destroyed) return;
      this.context.traffic.add(streamClosedRecord(this.context.id, start, `GET ${SSE_PATH} closed: more than ${MAX_UNREAD_STREAM_BYTES / 1024 / 1024} MB of answers waited unsent: the client does not read its event stream`));
      res.destroy();
    };
  }

  /**
   * A session on the transport. A call's record is written when its answer is sent, with the
   * bytes of the JSON-RPC request and answer (as JSON text, which is how the SDK sends them); a
   * call whose answer is never sent (the client left) is written when the transport closes.
   */
  async #connect(transport: Transport): Promise<void> {
    const bytesIn = new Map<RequestId, number>();
    const answered = new Map<RequestId, CallNote>();
    const write = (note: CallNote, id: RequestId, bytesOut: number) => {
      this.context.traffic.add(callRecord(this.context.id, note, bytesIn.get(id) ?? 0, bytesOut));
      bytesIn.delete(id);
    };
    const session = createSession(
      () => this.#state!,
      (note, id) => answered.set(id, note),
      (ms) => new Promise((resolve) => {
        this.#timers.later(ms, resolve);
      }),
    );
    await session.connect(transport);
    this.#sessions.add(session);
    const onmessage = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      if ('method' in message && 'id' in message) bytesIn.set(message.id, jsonBytes(message));
      onmessage(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const id = 'id' in message && !('method' in message) ? message.id : undefined;
      const note = id !== undefined && id !== null ? answered.get(id) : undefined;
      if (note !== undefined) {
        answered.delete(id!);
        write(note, id!, jsonBytes(message));
      }
      return send(message, options);
    };
    const onclose = transport.onclose;
    transport.onclose = () => {
      this.#sessions.delete(session);
      for (const [id, note] of answered) write(note, id, 0);
      answered.clear();
      bytesIn.clear();
      onclose?.();
    };
  }

  /** The request's JSON body, or undefined after answering 400/413 when it is not JSON. */
  async #json(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    let bytes: Buffer;
    try {
      bytes = await readBody(req, MAX_BODY_BYTES);
    } catch {
      this.#plain(res, 413, `An MCP message is at most ${MAX_BODY_BYTES / 1024 / 1024} MB.\n`);
      return undefined;
    }
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null }));
      return undefined;
    }
  }

  #plain(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, plainTextHeaders(text));
    res.end(text);
  }
}

function jsonBytes(message: JSONRPCMessage): number {
  return Buffer.byteLength(JSON.stringify(message));
}

/** `tools/call get_weather → ok`. */
function callRecord(server: string, note: CallNote, bytesIn: number, bytesOut: number): McpRecord {
  return {
    kind: 'mcp',
    server,
    time: epochMsOf(note.startedAt),
    direction: 'exchange',
    summary: `${note.method}${note.target !== '' ? ` ${note.target}` : ''} → ${note.outcome}`,
    level: note.outcome === 'ok' ? 'info' : 'warning',
    durationMs: performance.now() - note.startedAt,
    bytesIn,
    bytesOut,
    detail: note,
  };
}

/** A legacy event stream the server closed, and why. */
function streamClosedRecord(server: string, start: number, summary: string): McpRecord {
  return {
    kind: 'mcp',
    server,
    time: epochMsOf(start),
    direction: 'exchange',
    summary,
    level: 'warning',
    durationMs: performance.now() - start,
    bytesIn: 0,
    bytesOut: 0,
    detail: { method: `GET ${SSE_PATH}`, target: '', outcome: 'error', startedAt: start },
  };
}

export const mcpKind: ServerKindModule = {
  kind: 'mcp',
  transport: 'sharedHttp',
  create: (context) => new McpKind(context),
};
