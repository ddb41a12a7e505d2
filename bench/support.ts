/** What the bench scripts share: their options, free loopback ports, waiting for a started server. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** `--name value` from the command line. */
export function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

/** A loopback port nothing listens on now (for servers that take their port from a file or a flag). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers (any status), polling every 100 ms, at most `limitS` seconds. */
export async function waitUntilAnswering(url: string, limitS: number): Promise<void> {
  for (let i = 0; i < limitS * 10; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${limitS} s`);
}

/** The peer the run benches send to: a small JSON answer on a free loopback port. */
export async function jsonEchoServer(): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer((req, res) => {
    const body = JSON.stringify({ ok: true, path: req.url });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
