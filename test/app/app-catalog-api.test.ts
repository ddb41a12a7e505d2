/**
 * The app's pickers against real peers on 127.0.0.1 (issue 26): a gRPC server's methods by
 * reflection and from proto files (with skeletons, a recursive type bounded), an MCP server's
 * tools, resources and prompts over Streamable HTTP and stdio (a program not allowed is asked
 * about first), a GraphQL schema by introspection kept per URL; and their refusals.
 */
import { promises as fs } from 'node:fs';
import dgram from 'node:dgram';
import http from 'node:http';
import dnsPacket from 'dns-packet';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { buildSchema, graphql } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { KindView } from '../../src/app/shared/api.js';
import { requestSchema } from '../../src/model/index.js';
import type { KindCatalog } from '../../src/protocols/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { startGrpcPeer, type GrpcPeer } from '../protocols/grpc-peer.js';
import { startStreamableHttp, type McpPeer } from '../protocols/mcp-peers.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { ferry } from '../support/cli.js';

let ws: TempWorkspace | undefined;
let app: AppServer | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await app?.close();
  for (const close of closers.splice(0)) await close();
  await ws?.cleanup();
  app = undefined;
  ws = undefined;
});

async function openApp(files: Record<string, unknown> = {}) {
  ws = await makeWorkspace(files);
  process.env.FERRY_DATA_DIR = ws.dataDir;
  app = await startAppServer({ workspace: await openWorkspace(ws.root) });
  const login = await fetch(app.url, { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const port = app.port;
  return async <T = Record<string, unknown>>(url: string, body: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T };
  };
}

const RECURSIVE_PROTO = `syntax = "proto3";
package tree;
enum Color { RED = 0; GREEN = 1; }
message Node {
  string name = 1;
  repeated Node children = 2;
  Node parent = 3;
  map<string, Node> index = 4;
  oneof pick { string a = 5; int32 b = 6; }
  Color color = 7;
  uint64 size = 8;
  bytes raw = 9;
}
service Tree {
  rpc Walk (Node) returns (Node);
  rpc Grow (stream Node) returns (stream Node);
}
`;

describe('gRPC methods in the picker', () => {
  let peer: GrpcPeer;

  it('lists every method by reflection with a skeleton of its request; the applied pick sends', async () => {
    peer = await startGrpcPeer();
    closers.push(() => peer.close());
    const call = await openApp();
    const request = { name: 'g', kind: 'grpc', url: peer.url, method: '' };
    const listed = await call<KindCatalog>('/api/describe', { path: 'G.yaml', request });
    expect(listed.status).toBe(200);
    expect(listed.body.source).toBe('reflection');
    const names = listed.body.entries.map((e) => `${e.name} ${e.note}`);
    expect(names).toEqual(expect.arrayContaining(['ferry.test.Echo/Say unary', 'ferry.test.Echo/Count server streaming', 'ferry.test.Echo/Collect client streaming', 'ferry.test.Echo/Chat bidirectional streaming']));
    expect(names.some((n) => n.startsWith('grpc.reflection'))).toBe(false);
    const say = listed.body.entries.find((e) => e.name === 'ferry.test.Echo/Say')!;
    expect(say.group).toBe('ferry.test.Echo');
    expect(JSON.parse(say.apply.bodyText!)).toEqual({ text: '', big: '0', mood: 'MOOD_UNSPECIFIED', inner: { level: 0 }, tags: [''], failWith: false, labels: {} });
    const collect = listed.body.entries.find((e) => e.name === 'ferry.test.Echo/Collect')!;
    expect(Array.isArray(JSON.parse(collect.apply.bodyText!))).toBe(true);

    // The pick applied as the page applies it, then sent through the normal send.
    const filled = JSON.stringify({ ...JSON.parse(say.apply.bodyText!), text: 'picker' });
    const sent = await call<{ result: { status: number; statusText: string }; response: { bodyBase64: string } }>('/api/send', { path: 'G.yaml', request: { ...request, method: say.apply.method, body: { type: 'text', text: filled } } });
    expect(sent.status).toBe(200);
    expect(JSON.parse(Buffer.from(sent.body.response.bodyBase64, 'base64').toString('utf8'))).toMatchObject({ text: 'hello picker' });
  });

  it('a hand-written file without method: the picker lists its methods; a send (the app\'s, ferry run\'s) is refused at preparation naming the field, with an example', async () => {
    peer = await startGrpcPeer();
    closers.push(() => peer.close());
    // No `method`: the format's default, HTTP's GET, is what the request holds.
    const call = await openApp({ 'requests/G.yaml': `name: g\nkind: grpc\nurl: ${peer.url}\n` });
    const listed = await call<KindCatalog>('/api/describe', { path: 'G.yaml' });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.entries.map((e) => e.name)).toContain('ferry.test.Echo/Say');
    const refusal = 'requests/G.yaml: method: "GET" is HTTP\'s method, which a request without method gets; for a gRPC request, method is the call to make, package.Service/Method. Set it, such as method: helloworld.Greeter/SayHello.';
    const sent = await call<{ result: { error?: string } }>('/api/send', { path: 'G.yaml' });
    expect(sent.body.result.error, JSON.stringify(sent.body)).toBe(refusal);
    const run = await ferry(['-w', ws!.root, 'run', 'G']);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(refusal);
  });

  it('a file with an empty method, as the app makes a new gRPC request: the picker lists its methods; a send is refused naming the field, with an example', async () => {
    peer = await startGrpcPeer();
    closers.push(() => peer.close());
    const call = await openApp({ 'requests/E.yaml': `name: e\nkind: grpc\nurl: ${peer.url}\nmethod: ""\n`, 'requests/S.yaml': `name: s\nkind: grpc\nurl: ${peer.url}\nmethod: "  "\n` });
    const listed = await call<KindCatalog>('/api/describe', { path: 'E.yaml' });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.entries.map((e) => e.name)).toContain('ferry.test.Echo/Say');
    const refusal = (file: string) => `requests/${file}: method is empty; for a gRPC request, method is the call to make, package.Service/Method. Set it, such as method: helloworld.Greeter/SayHello.`;
    // The page's Send carries the editor's request, unsaved edits included.
    const sent = await call<{ result: { error?: string } }>('/api/send', { path: 'E.yaml', request: { name: 'e', kind: 'grpc', url: peer.url, method: '' } });
    expect(sent.body.result.error, JSON.stringify(sent.body)).toBe(refusal('E.yaml'));
    for (const file of ['E.yaml', 'S.yaml']) {
      const run = await ferry(['-w', ws!.root, 'run', file.replace('.yaml', '')]);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain(refusal(file));
    }
  });

  it('lists from proto files: a recursive type gives a finite skeleton; maps, oneofs, enums, longs and bytes have their values', async () => {
    const call = await openApp({ 'protos/tree.proto': RECURSIVE_PROTO });
    // No server: proto files are enough to list.
    const listed = await call<KindCatalog>('/api/describe', { path: 'T.yaml', request: { name: 't', kind: 'grpc', url: 'grpc://127.0.0.1:1', method: '', grpc: { protoFiles: ['protos/tree.proto'] } } });
    expect(listed.status).toBe(200);
    expect(listed.body.source).toBe('proto files');
    const walk = listed.body.entries.find((e) => e.name === 'tree.Tree/Walk')!;
    expect(JSON.parse(walk.apply.bodyText!)).toEqual({ name: '', children: [{}], parent: {}, index: {}, a: '', b: 0, color: 'RED', size: '0', raw: '' });
    expect(listed.body.entries.find((e) => e.name === 'tree.Tree/Grow')!.note).toBe('bidirectional streaming');
  });

  it('refuses in one line: no server, a proto file that does not compile, a kind without a list', async () => {
    const call = await openApp({ 'protos/bad.proto': 'syntax = "proto3";\nmessage {' });
    const down = await call<{ error: string }>('/api/describe', { path: 'G.yaml', request: { name: 'g', kind: 'grpc', url: 'grpc://127.0.0.1:1', method: '' } });
    expect(down.status).toBe(400);
    expect(down.body.error).toMatch(/127\.0\.0\.1:1/);
    expect(down.body.error.split('\n')).toHaveLength(1);
    const broken = await call<{ error: string }>('/api/describe', { path: 'G.yaml', request: { name: 'g', kind: 'grpc', url: 'grpc://127.0.0.1:1', method: '', grpc: { protoFiles: ['protos/bad.proto'] } } });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/do not compile.*bad\.proto/);
    const plain = await call<{ error: string }>('/api/describe', { path: 'H.yaml', request: { name: 'h', url: 'http://127.0.0.1:1/' } });
    expect(plain.status).toBe(400);
    expect(plain.body.error).toMatch(/has no list of methods or tools/);
    const missing = await call<{ error: string }>('/api/describe', { path: 'Nope.yaml' });
    expect(missing.status).toBe(400);
  });
});

describe('MCP tools, resources and prompts', () => {
  it('lists them over Streamable HTTP with each tool\'s input schema; the applied pick with its form\'s value calls the tool', async () => {
    const peer: McpPeer = await startStreamableHttp();
    closers.push(() => peer.close());
    const call = await openApp();
    const request = { name: 'm', kind: 'mcp', url: peer.url };
    const listed = await call<KindCatalog>('/api/describe', { path: 'M.yaml', request });
    expect(listed.status).toBe(200);
    expect(listed.body.source).toBe('the MCP server "ferry-test-mcp" 1.2.3');
    const add = listed.body.entries.find((e) => e.group === 'Tools' && e.name === 'add')!;
    expect(add.form?.option).toBe('arguments');
    expect(add.form?.schema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(listed.body.entries.filter((e) => e.group === 'Resources').map((e) => e.name)).toEqual(['ferry://docs/readme', 'ferry://users/{id}']);
    const greet = listed.body.entries.find((e) => e.group === 'Prompts')!;
    expect(greet.form?.schema).toMatchObject({ properties: { name: { type: 'string' }, tone: { type: 'string' } }, required: ['name'] });

    const sent = await call<{ result: { status: number } ; response: { bodyBase64: string } }>('/api/send', { path: 'M.yaml', request: { ...request, mcp: { ...add.apply.options, arguments: JSON.stringify({ a: 2, b: 3 }) } } });
    expect(sent.status).toBe(200);
    expect(JSON.parse(Buffer.from(sent.body.response.bodyBase64, 'base64').toString('utf8'))).toMatchObject({ structuredContent: { sum: 5 } });
  });

  it('a program not allowed on this computer is not started: the app is asked (409), and once allowed it lists', async () => {
    const call = await openApp();
    const command = `"${process.execPath}" "${path.resolve('test/fixtures/mcp/stdio-server.mjs')}"`;
    const request = { name: 'p', kind: 'mcp', url: command, settings: { timeoutMs: 10000 } };
    // A send and a live connection are refused too, with the app's way to allow it (the CLI's
    // --allow-programs or `ferry programs allow` is not something the app's user can use from here).
    const sent = await call<{ result: { error?: string } }>('/api/send', { path: 'P.yaml', request });
    expect(sent.body.result.error).toMatch(/is not allowed to start on this computer; to allow it, use List methods and tools below the request and answer Allow and start/);
    expect(sent.body.result.error).not.toMatch(/--allow-programs/);
    const connecting = await call<{ error: string }>('/api/connections', { path: 'P.yaml', request });
    expect(connecting.status).toBe(400);
    expect(connecting.body.error).toMatch(/use List methods and tools below the request and answer Allow and start/);
    const refused = await call<{ error: string; programToken: string; program: { command: string; envNames: string[] } }>('/api/describe', { path: 'P.yaml', request });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/is not allowed to start on this computer/);
    expect(refused.body.program.command).toBe(command);
    expect(await call('/api/programs/allow', { programToken: 'not-a-token' })).toMatchObject({ status: 404 });
    const allowed = await call('/api/programs/allow', { programToken: refused.body.programToken });
    expect(allowed.status).toBe(200);
    const listed = await call<KindCatalog>('/api/describe', { path: 'P.yaml', request });
    expect(listed.status).toBe(200);
    expect(listed.body.entries.map((e) => e.name)).toContain('add');
    // The allow-list is this computer's, as `ferry programs` keeps it.
    const files = await fs.readdir(path.join(ws!.dataDir), { recursive: true });
    expect(files.some((f) => String(f).endsWith('programs.json'))).toBe(true);
  });
});

describe('GraphQL schema by introspection', () => {
  it('is read once per URL and again on refresh; a server without GraphQL is refused in one line', async () => {
    const schema = buildSchema('type Query { "A user by id" user(id: ID!): User }\ntype User { id: ID! name: String }');
    let asked = 0;
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', async () => {
        if (req.url === '/plain') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not graphql</html>');
        asked++;
        const { query, variables, operationName } = JSON.parse(text) as { query: string; variables?: Record<string, unknown>; operationName?: string };
        const result = await graphql({ schema, source: query, variableValues: variables, operationName });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    const call = await openApp();
    const request = { name: 'q', url, method: 'POST', body: { type: 'graphql', graphql: { query: '{ user(id: 1) { name } }' } } };
    const first = await call<{ url: string; introspection: { __schema: { queryType: { name: string }; types: Array<{ name: string }> } } }>('/api/graphql/schema', { path: 'Q.yaml', request });
    expect(first.status).toBe(200);
    expect(first.body.introspection.__schema.queryType.name).toBe('Query');
    expect(first.body.introspection.__schema.types.map((t) => t.name)).toContain('User');
    await call('/api/graphql/schema', { path: 'Q.yaml', request });
    expect(asked).toBe(1);
    await call('/api/graphql/schema', { path: 'Q.yaml', request, refresh: true });
    expect(asked).toBe(2);
    const plain = await call<{ error: string }>('/api/graphql/schema', { path: 'Q.yaml', request: { ...request, url: url.replace('/graphql', '/plain') } });
    expect(plain.status).toBe(400);
    expect(plain.body.error).toMatch(/did not answer the introspection query with JSON/);
    // A server that never answers: one sentence, ending in one period (the reason's own was doubled).
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      silent.close(() => resolve());
    }));
    const silentPort = (silent.address() as AddressInfo).port;
    const late = await call<{ error: string }>('/api/graphql/schema', { path: 'Q.yaml', request: { ...request, url: `http://127.0.0.1:${silentPort}/graphql`, settings: { timeoutMs: 300 } } });
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(new RegExp(`^The schema of http://127\\.0\\.0\\.1:${silentPort}/graphql could not be read: timed out after 300 ms.+[^.]\\.$`));
  });
});

describe('DNS in the app', () => {
  it('offers record types in the method box, and the answer carries its records for the Details table', async () => {
    // A real DNS server on UDP: answers MX for mail.ferry.test.
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      const query = dnsPacket.decode(msg);
      const answer = dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.RECURSION_DESIRED, questions: query.questions, answers: [{ type: 'MX', name: 'mail.ferry.test', ttl: 60, data: { preference: 10, exchange: 'mx.ferry.test' } }] });
      socket.send(answer, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => socket.close(() => resolve())));
    const call = await openApp();
    const res = await fetch(`http://127.0.0.1:${app!.port}/api/kinds`, { headers: { cookie: (await fetch(app!.url, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]! } });
    const kinds = (await res.json()) as Record<string, KindView>;
    expect(kinds.dns!.methodChoices).toEqual(expect.arrayContaining(['A', 'AAAA', 'MX', 'TXT']));
    expect(Object.keys(kinds).filter((k) => kinds[k]!.methodChoices)).toEqual(['dns']);
    // Every kind is there with its option section's fields as the format declares them (spec 2.8).
    expect(Object.keys(kinds)).toEqual(expect.arrayContaining(['http', 'websocket', 'socketio', 'sse', 'grpc', 'tcp', 'udp', 'dns', 'mqtt', 'mcp']));
    for (const view of Object.values(kinds).filter((k) => k.options)) {
      expect(view.fields!.map((f) => f.name)).toEqual(Object.keys(requestSchema.shape[view.options as 'mqtt'].unwrap().shape));
    }
    expect(kinds.tcp).toMatchObject({ method: 'none', options: 'socket', schemes: ['tcp', 'tls'], sendsAuth: 'none' });
    // What auth each kind sends comes from the kind table (the Auth tab says it): only where not every type.
    expect(Object.fromEntries(Object.entries(kinds).filter(([, k]) => k.sendsAuth).map(([name, k]) => [name, k.sendsAuth]))).toEqual({ tcp: 'none', udp: 'none', dns: 'none', mqtt: 'basic' });
    expect(Object.keys(kinds).filter((k) => kinds[k]!.sendsHeaders === false).sort()).toEqual(['dns', 'mqtt', 'tcp', 'udp']);
    expect(kinds.grpc).toMatchObject({ method: 'text', options: 'grpc', fields: [{ name: 'protoFiles', type: 'texts' }, { name: 'importPaths', type: 'texts' }] });
    expect(kinds.mqtt!.fields).toContainEqual({ name: 'keepAliveSecs', type: 'number', integer: true, min: 0, max: 65535, default: 30 });
    expect(kinds.mqtt!.fields).toContainEqual({ name: 'subscriptions', type: 'rows', fields: [{ name: 'topic', type: 'text', default: '' }, { name: 'qos', type: 'number', integer: true, min: 0, max: 2, default: 0 }, { name: 'enabled', type: 'flag', default: true }] });
    expect(kinds.tcp!.fields).toContainEqual({ name: 'lengthBytes', type: 'choice', choices: [1, 2, 4], default: 2 });
    expect(kinds.http).toEqual({ noun: 'an HTTP request', url: 'url', schemes: ['http', 'https'], method: 'http' });
    // The settings' sections (2.7) for the Settings tab: an event name is optional (no default to write).
    const settings = (await (await fetch(`http://127.0.0.1:${app!.port}/api/kinds/settings`, { headers: { cookie: (await fetch(app!.url, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]! } })).json()) as Record<string, unknown[]>;
    expect(settings.stream).toEqual([{ name: 'event', type: 'text' }, { name: 'maxEvents', type: 'number', integer: true, min: 0, default: 100 }, { name: 'timeoutMs', type: 'number', integer: true, min: 0, max: 2_147_483_647, default: 10000 }]);
    expect(settings.repeat!.map((f) => (f as { name: string }).name)).toEqual(['condition', 'intervalMs', 'timeoutMs']);
    const sent = await call<{ result: { statusText: string; detail: { records: { answer: Array<{ name: string; type: string; ttl: number; data: unknown }>; authority: unknown[] } } } }>('/api/send', {
      path: 'D.yaml',
      request: { name: 'd', kind: 'dns', url: 'mail.ferry.test', method: 'MX', dns: { server: `127.0.0.1:${(socket.address()).port}` }, settings: { timeoutMs: 5000 } },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.result.statusText).toBe('NOERROR');
    expect(sent.body.result.detail.records.answer).toEqual([{ name: 'mail.ferry.test', type: 'MX', class: 'IN', ttl: 60, data: { preference: 10, exchange: 'mx.ferry.test' } }]);
    expect(sent.body.result.detail.records.authority).toEqual([]);
  });
});
