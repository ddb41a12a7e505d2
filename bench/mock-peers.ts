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

/** A workspace at `ws` whose one mock server (`servers/users.yaml`) listens on `port`. */
export async function writeMockWorkspace(ws: string, port: number): Promise<void> {
  await fs.mkdir(path.join(ws, 'servers'), { recursive: true });
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: bench-mock\nname: Bench\n');
  await fs.writeFile(
    path.join(ws, 'servers', 'users.yaml'),
    `name: Users\nport: ${port}\nhttp:\n  routes:\n    - name: Get user\n      method: GET\n      path: /users/:id\n      headers:\n        - key: Content-Type\n          value: application/json; charset=utf-8\n      body: '${FERRY_BODY}'\n`,
  );
}
