/**
 * Real MCP servers for the tests, on 127.0.0.1 (port 0), built with the SDK: Streamable HTTP
 * (stateless: one server per POST; optionally over TLS with the tests' certificate) and the older
 * HTTP+SSE transport. Both serve test/fixtures/mcp/echo-server.mjs, as the stdio program does.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { testCertificate } from '../support/servers/index.js';

export interface McpPeer {
  url: string;
  close(): Promise<void>;
}

const fixture = '../fixtures/mcp/echo-server.mjs';
const buildServer = async (): Promise<McpServer> => ((await import(fixture)) as { buildServer(): McpServer }).buildServer();

/** `port`: 0 for any free one; a given port that is taken rejects (EADDRINUSE). */
async function listen(server: http.Server, scheme: string, path: string, port = 0): Promise<McpPeer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://127.0.0.1:${bound}${path}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export async function startStreamableHttp(options: { tls?: boolean; port?: number } = {}): Promise<McpPeer> {
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const server = await buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => void handle(req, res).catch(() => res.destroy());
  if (!options.tls) return listen(http.createServer(listener), 'http', '/mcp', options.port);
  const { key, cert } = await testCertificate();
  return listen(https.createServer({ key, cert }, listener), 'https', '/mcp', options.port);
}

/** Streamable HTTP with sessions (as most servers run it): `open` lists the sessions a client has not ended (DELETE). */
export async function startStatefulStreamableHttp(): Promise<McpPeer & { open: Map<string, StreamableHTTPServerTransport> }> {
  const open = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? open.get(id) : undefined;
    if (!transport && req.method === 'POST' && id === undefined) {
      const made = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void open.set(sid, made) });
      made.onclose = () => void (made.sessionId && open.delete(made.sessionId));
      await (await buildServer()).connect(made);
      transport = made;
    }
    if (!transport) return void res.writeHead(404).end();
    await transport.handleRequest(req, res);
  };
  const peer = await listen(http.createServer((req, res) => void handle(req, res).catch(() => res.destroy())), 'http', '/mcp');
  return { ...peer, open };
}

export async function startSse(options: { port?: number } = {}): Promise<McpPeer> {
  const transports = new Map<string, SSEServerTransport>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      void buildServer().then((mcp) => mcp.connect(transport));
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && transport) {
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  return listen(server, 'http', '/sse', options.port);
}
