/**
 * Real GraphQL subscription servers on 127.0.0.1 for the tests, over one schema: `graphql-ws`'s
 * server (`useServer` over a `ws` WebSocketServer), `graphql-sse`'s handler on node:http, and a
 * minimal `subscriptions-transport-ws` server written here over `ws` (executing with `graphql`'s
 * own `subscribe`). Each records what it saw: upgrade headers, connectionParams, completed operations.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { testCertificate } from '../support/servers/index.js';

export interface Seen {
  /** Headers of each upgrade or SSE request. */
  headers: http.IncomingHttpHeaders[];
  /** connectionParams of each connection_init. */
  params: unknown[];
  /** Subscriptions whose event source was ended (by the client's complete/stop, or at its end). */
  ended: number;
  /** Close codes of connections the client closed (WebSocket servers). */
  closeCodes: number[];
  /** POST bodies seen by plain HTTP (queries and mutations). */
  posts: string[];
}

export interface GraphqlPeer {
  url: string;
  seen: Seen;
  close(): Promise<void>;
}

// `graphql` as Node loads it (its CommonJS build), the one instance the servers' libraries use; the
// test runner would otherwise load its ES module build, and graphql refuses a schema from another instance.
const { GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema: Schema, GraphQLString, parse, subscribe, validate, graphql } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The schema every peer serves: `count` publishes N events, `boom`'s resolver fails, `whoami` echoes the context. */
export function makeSchema(seen: Seen): GraphQLSchema {
  return new Schema({
    query: new GraphQLObjectType({ name: 'Query', fields: { hello: { type: GraphQLString, resolve: () => 'world' } } }),
    mutation: new GraphQLObjectType({
      name: 'Mutation',
      fields: { shout: { type: GraphQLString, args: { text: { type: new GraphQLNonNull(GraphQLString) } }, resolve: (_, args: { text: string }) => args.text.toUpperCase() } },
    }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        count: {
          type: GraphQLInt,
          args: { to: { type: new GraphQLNonNull(GraphQLInt) }, delayMs: { type: GraphQLInt } },
          subscribe: async function* (_: unknown, args: { to: number; delayMs?: number }) {
            try {
              for (let i = 1; i <= Math.min(args.to, 10_000); i++) {
                if (args.delayMs) await sleep(args.delayMs);
                yield { count: i };
              }
            } finally {
              seen.ended++;
            }
          },
        },
        boom: {
          type: GraphQLInt,
          subscribe: async function* () {
            yield { boom: 1 };
          },
          resolve: () => {
            throw new Error('boom resolver failed');
          },
        },
        big: {
          type: GraphQLString,
          args: { kb: { type: new GraphQLNonNull(GraphQLInt) } },
          subscribe: async function* (_: unknown, args: { kb: number }) {
            yield { big: 'b'.repeat(Math.min(args.kb, 8192) * 1024) };
          },
        },
        whoami: {
          type: GraphQLString,
          subscribe: async function* (_: unknown, __: unknown, context: unknown) {
            yield { whoami: JSON.stringify(context) };
          },
        },
      },
    }),
  });
}

function newSeen(): Seen {
  return { headers: [], params: [], ended: 0, closeCodes: [], posts: [] };
}

/** node:http, or node:https with the self-signed test certificate (for 127.0.0.1). */
async function createServer(secure: boolean, handler: http.RequestListener): Promise<http.Server> {
  return secure ? https.createServer(await testCertificate(), handler) : http.createServer(handler);
}

async function listen(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

async function stop(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Answers plain POSTs (queries and mutations) with graphql's own execution, recording the body. */
async function answerPost(req: http.IncomingMessage, res: http.ServerResponse, seen: Seen, schema: GraphQLSchema): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  seen.posts.push(body);
  const { query, variables, operationName } = JSON.parse(body) as { query: string; variables?: Record<string, unknown>; operationName?: string | null };
  const result = await graphql({ schema, source: query, variableValues: variables, operationName });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
}

/** `graphql-ws`'s server at /graphql (its upgrade refused with 401 when `X-Refuse` is sent); connectionParams `{"token": "deny"}` are refused (close 4403). */
export async function graphqlWsPeer(secure = false): Promise<GraphqlPeer> {
  const seen = newSeen();
  const schema = makeSchema(seen);
  const server = await createServer(secure, (req, res) => void answerPost(req, res, seen, schema));
  // An upgrade with `X-Refuse` is answered 401: a server that checks auth on the upgrade.
  const wss = new WebSocketServer({ server, path: '/graphql', verifyClient: (info, done) => (info.req.headers['x-refuse'] ? done(false, 401, 'Unauthorized') : done(true)) });
  wss.on('connection', (socket: WebSocket, req) => {
    seen.headers.push(req.headers);
    socket.on('close', (code) => seen.closeCodes.push(code));
  });
  useServer(
    {
      schema,
      onConnect: (ctx) => {
        seen.params.push(ctx.connectionParams);
        return (ctx.connectionParams as { token?: string } | undefined)?.token !== 'deny';
      },
      context: (ctx) => ({ params: ctx.connectionParams ?? null, authorization: ctx.extra.request.headers.authorization ?? null }),
    },
    wss,
  );
  const port = await listen(server);
  return { url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}/graphql`, seen, close: async () => { for (const c of wss.clients) c.terminate(); wss.close(); await stop(server); } };
}

/** `graphql-sse`'s handler at /graphql/stream (POSTs elsewhere are plain GraphQL); /private wants `Authorization: Bearer sse-secret`. `port`: 0 for any free one. */
export async function graphqlSsePeer(secure = false, port = 0): Promise<GraphqlPeer> {
  const seen = newSeen();
  const schema = makeSchema(seen);
  const handler = createHandler({ schema, context: (req) => ({ authorization: req.raw.headers.authorization ?? null }) });
  const server = await createServer(secure, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/huge') {
      // An event that never ends: 3 MB of one data line, in 64 KB writes.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: next\ndata: {"data":{"x":"');
      let sent = 0;
      const pump = () => {
        while (sent < 3 * 1024 * 1024 && res.write('a'.repeat(64 * 1024))) sent += 64 * 1024;
        if (sent < 3 * 1024 * 1024 && !res.destroyed) res.once('drain', () => { sent += 64 * 1024; pump(); });
      };
      pump();
      return;
    }
    if (path === '/graphql/stream' || path === '/private') {
      seen.headers.push(req.headers);
      if (path === '/private' && req.headers.authorization !== 'Bearer sse-secret') {
        res.writeHead(401, { 'content-type': 'text/plain' }).end('missing or wrong token');
        return;
      }
      void handler(req, res);
      return;
    }
    void answerPost(req, res, seen, schema);
  });
  const bound = await listen(server, port);
  return { url: `${secure ? 'https' : 'http'}://127.0.0.1:${bound}/graphql/stream`, seen, close: () => stop(server) };
}

/**
 * A minimal `subscriptions-transport-ws` server (subprotocol `graphql-ws`) at /graphql:
 * `connection_init` → `connection_ack` (or `connection_error` for `{"token": "deny"}`) and a `ka`;
 * `start` → `data`… `complete`, or `error` for a query that does not validate; `stop` ends the source.
 */
export async function legacyPeer(): Promise<GraphqlPeer> {
  const seen = newSeen();
  const schema = makeSchema(seen);
  const server = http.createServer((req, res) => void answerPost(req, res, seen, schema));
  const wss = new WebSocketServer({ server, path: '/graphql', handleProtocols: (protocols) => (protocols.has('graphql-ws') ? 'graphql-ws' : false) });
  wss.on('connection', (socket: WebSocket, req) => {
    seen.headers.push(req.headers);
    socket.on('close', (code) => seen.closeCodes.push(code));
    const running = new Map<string, AsyncGenerator<ExecutionResult>>();
    let params: unknown;
    const send = (message: object) => socket.send(JSON.stringify(message));
    socket.on('message', async (data) => {
      const message = JSON.parse(data.toString()) as { type: string; id?: string; payload?: Record<string, unknown> };
      if (message.type === 'connection_init') {
        params = message.payload;
        seen.params.push(params);
        if ((params as { token?: string } | undefined)?.token === 'deny') {
          send({ type: 'connection_error', payload: { message: 'token denied by the legacy server' } });
          socket.close(1011);
          return;
        }
        send({ type: 'connection_ack' });
        send({ type: 'ka' });
      } else if (message.type === 'start' && message.id) {
        const { query, variables, operationName } = message.payload as { query: string; variables?: Record<string, unknown>; operationName?: string };
        const document = parse(query);
        const errors = validate(schema, document);
        if (errors.length) {
          send({ id: message.id, type: 'error', payload: errors.map((e) => ({ message: e.message })) });
          return;
        }
        const result = await subscribe({ schema, document, variableValues: variables, operationName, contextValue: { params, authorization: req.headers.authorization ?? null } });
        if (!(Symbol.asyncIterator in result)) {
          send({ id: message.id, type: 'data', payload: result });
          send({ id: message.id, type: 'complete' });
          return;
        }
        running.set(message.id, result);
        for await (const event of result) if (socket.readyState === socket.OPEN) send({ id: message.id, type: 'data', payload: event });
        if (running.delete(message.id) && socket.readyState === socket.OPEN) send({ id: message.id, type: 'complete' });
      } else if (message.type === 'stop' && message.id) {
        const source = running.get(message.id);
        running.delete(message.id);
        await source?.return(undefined);
      } else if (message.type === 'connection_terminate') {
        socket.close(1000);
      }
    });
    socket.on('close', () => {
      for (const source of running.values()) void source.return(undefined);
      running.clear();
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/graphql`, seen, close: async () => { for (const c of wss.clients) c.terminate(); wss.close(); await stop(server); } };
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  const port = await listen(server);
  await stop(server);
  return port;
}
