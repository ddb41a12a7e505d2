/**
 * The mock benches' two servers: a bare Node `http` server and `ferry serve` of a workspace with
 * one route, answering `GET /users/:id` with the same bytes (a templated JSON body with the id and
 * a random UUID). Shared by bench/mock.ts and bench/mock-perf.ts.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const FERRY_BODY = '{"id":"{{request.params.id}}","requestId":"{{$uuid}}","name":"Ada Lovelace","roles":["admin","editor"]}';

/** `node -e BARE_SERVER PORT` */
export const BARE_SERVER = `
const http = require('node:http');
const { randomUUID } = require('node:crypto');
http.createServer((req, res) => {
  const m = /^\\/users\\/([^/?]+)\\/?(?:\\?|$)/.exec(req.url);
  if (!m || (req.method !== 'GET' && req.method !== 'HEAD')) { res.writeHead(404); res.end(); return; }
  const body = '{"id":"' + decodeURIComponent(m[1]) + '","requestId":"' + randomUUID() + '","name":"Ada Lovelace","roles":["admin","editor"]}';
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1');
`;

/**
 * The bench's one mock server as Ferry's model has it after reading `servers/users.yaml` (what
 * `writeMockWorkspace` writes), for the benches that build the mock from `dist/` themselves.
 */
export function mockServerModel(port: number) {
  const route = {
    name: 'Get user', method: 'GET', path: '/users/:id', enabled: true, status: 200, delayMs: 0, fault: 'none', faultPercent: 100,
    headers: [{ key: 'Content-Type', value: 'application/json; charset=utf-8', enabled: true }],
    body: FERRY_BODY, matchQuery: [], matchHeaders: [], matchBody: '',
  };
  return { name: 'Users', port, http: { routes: [route], fallback: 'notFound', cors: false } };
}

/**
 * `node --input-type=module -e MOCK_PART_SERVER ROOT PORT PART`: Ferry's mock of `mockServerModel`
 * from ROOT's `dist/`, in a process that loads only the modules the request path needs, wired as
 * `ferry serve` wires it (src/cli/serve.ts, src/servers/listener.ts). PART is `mock` (the handler
 * and its traffic log; no traffic line, no Host check) or `path` (the whole request path: the Host
 * check, the handler, its traffic line printed to standard output). Against `ferry serve` it tells
 * what the rest of the program costs; against each other, what the traffic line and Host check cost.
 */
export const MOCK_PART_SERVER = `
import http from 'node:http';
import path from 'node:path';
const [root, port, part] = process.argv.slice(1);
const load = (file) => import(path.join(root, 'dist', file));
const { httpMockKind } = await load('servers/kinds/http-mock/http-mock.js');
const { TrafficLog } = await load('servers/traffic.js');
const { buildVariableScope } = await load('template/index.js');
const { loopbackNamesOnly } = await load('servers/listener.js');
const traffic = new TrafficLog(1000, 0);
if (part === 'path') {
  const { TrafficPrinter } = await load('cli/traffic-printer.js');
  const { fdPrinter } = await load('cli/line-printer.js');
  const { paint } = await load('cli/output.js');
  traffic.subscribe(new TrafficPrinter(fdPrinter(1), paint(false), { json: false }).print);
}
const mock = httpMockKind.create({ id: 'users', file: 'servers/users.yaml', traffic });
mock.configure({ server: SERVER_MODEL, variables: buildVariableScope({}) });
const handle = (req, res) => mock.handle(req, res);
http.createServer({ keepAliveTimeout: 5000 }, part === 'path' ? loopbackNamesOnly(handle) : handle).listen(Number(port), '127.0.0.1');
`.replace('SERVER_MODEL', JSON.stringify(mockServerModel(0)));

/** A workspace at `ws` whose one mock server (`servers/users.yaml`) listens on `port`. */
export async function writeMockWorkspace(ws: string, port: number): Promise<void> {
  await fs.mkdir(path.join(ws, 'servers'), { recursive: true });
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: bench-mock\nname: Bench\n');
  await fs.writeFile(
    path.join(ws, 'servers', 'users.yaml'),
    `name: Users\nport: ${port}\nhttp:\n  routes:\n    - name: Get user\n      method: GET\n      path: /users/:id\n      headers:\n        - key: Content-Type\n          value: application/json; charset=utf-8\n      body: '${FERRY_BODY}'\n`,
  );
}
