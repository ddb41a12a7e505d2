/** The OAuth 2.0 "get token" tests' peers: the test bench's token server and a resource server that records the Authorization it gets. */
import http from 'node:http';
import { listenLoopback } from '../support/servers/listen.js';

export { startAuthServer, type AuthServer } from '../support/servers/oauth.js';

export interface ResourceServer {
  url: string;
  /** The Authorization header of each request, in order. */
  seen: string[];
  /** Method and path of each request, in order. */
  paths: string[];
  close(): Promise<void>;
}

export async function startResourceServer(): Promise<ResourceServer> {
  const seen: string[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    paths.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  });
  const listening = await listenLoopback(server, 'http');
  return { url: listening.url, seen, paths, close: listening.close };
}
