/**
 * Proxies written for the tests, over real sockets on 127.0.0.1: an HTTP proxy that forwards
 * absolute-form requests (`GET http://host/path`) and opens CONNECT tunnels, optionally asking for
 * Basic credentials (407); and a SOCKS5 proxy (RFC 1928, user/password per RFC 1929). Each
 * records what it was asked, so tests prove a request went through it.
 */
import http from 'node:http';
import net from 'node:net';
import { listenLoopback } from './listen.js';

export interface ProxySeen {
  /** `GET http://127.0.0.1:1234/path`, `CONNECT 127.0.0.1:1234` or `SOCKS 127.0.0.1:1234`. */
  line: string;
  authorization?: string;
}

export interface TestProxy {
  url: string;
  port: number;
  seen: ProxySeen[];
  /** The header lines of each absolute-form request, as they came (repeated names too); HTTP proxies only. */
  rawHeaders: string[][];
  close(): Promise<void>;
}

/** An HTTP proxy; with `credentials` (`user:password`) it answers 407 to anything else. */
export async function startHttpProxy(options: { credentials?: string } = {}): Promise<TestProxy> {
  const seen: ProxySeen[] = [];
  const rawHeaders: string[][] = [];
  const sockets = new Set<net.Socket>();
  const expected = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : undefined;
  const allowed = (authorization: string | undefined) => !expected || authorization === expected;

  const server = http.createServer((req, res) => {
    const authorization = req.headers['proxy-authorization'];
    seen.push({ line: `${req.method} ${req.url}`, authorization });
    rawHeaders.push(req.rawHeaders);
    if (!allowed(authorization)) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url!);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode!, { ...answer.headers, via: '1.1 test-proxy' });
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const authorization = req.headers['proxy-authorization'];
    seen.push({ line: `CONNECT ${req.url}`, authorization });
    if (!allowed(authorization)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = splitHostPort(req.url!);
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    track(sockets, upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: net.Socket) => track(sockets, socket));
  const listening = await listenLoopback(server, 'http');
  return {
    url: listening.url,
    port: listening.port,
    seen,
    rawHeaders,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await listening.close();
    },
  };
}

/** A SOCKS5 proxy (CONNECT only); with `credentials` it takes only user/password auth with them. */
export async function startSocks5Proxy(options: { credentials?: string } = {}): Promise<TestProxy> {
  const seen: ProxySeen[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    track(sockets, client);
    client.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' | 'done' = 'greeting';
    let authorization: string | undefined;
    client.on('data', function onData(chunk) {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (stage === 'greeting') {
          if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
          const methods = [...buffer.subarray(2, 2 + buffer[1]!)];
          buffer = buffer.subarray(2 + buffer[1]!);
          const wanted = options.credentials ? 0x02 : 0x00;
          if (!methods.includes(wanted)) return void client.end(Buffer.from([0x05, 0xff]));
          client.write(Buffer.from([0x05, wanted]));
          stage = options.credentials ? 'auth' : 'request';
        } else if (stage === 'auth') {
          // RFC 1929: VER ULEN UNAME PLEN PASSWD
          if (buffer.length < 2) return;
          const ulen = buffer[1]!;
          if (buffer.length < 3 + ulen) return;
          const plen = buffer[2 + ulen]!;
          if (buffer.length < 3 + ulen + plen) return;
          authorization = `${buffer.subarray(2, 2 + ulen).toString()}:${buffer.subarray(3 + ulen, 3 + ulen + plen).toString()}`;
          buffer = buffer.subarray(3 + ulen + plen);
          if (authorization !== options.credentials) {
            seen.push({ line: 'SOCKS auth refused', authorization });
            return void client.end(Buffer.from([0x01, 0x01]));
          }
          client.write(Buffer.from([0x01, 0x00]));
          stage = 'request';
        } else if (stage === 'request') {
          // VER CMD RSV ATYP DST.ADDR DST.PORT
          if (buffer.length < 5) return;
          const atyp = buffer[3]!;
          const addrLen = atyp === 0x01 ? 4 : atyp === 0x04 ? 16 : 1 + buffer[4]!;
          if (buffer.length < 4 + addrLen + 2) return;
          const addr = buffer.subarray(4, 4 + addrLen);
          const host = atyp === 0x01 ? [...addr].join('.') : atyp === 0x04 ? ipv6(addr) : addr.subarray(1).toString();
          const port = buffer.readUInt16BE(4 + addrLen);
          const rest = buffer.subarray(4 + addrLen + 2);
          stage = 'done';
          client.off('data', onData);
          seen.push({ line: `SOCKS ${host}:${port}`, authorization });
          const upstream = net.connect(port, host, () => {
            client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 127, 0, 0, 1, 0, 0]));
            if (rest.length) upstream.write(rest);
            upstream.pipe(client).pipe(upstream);
          });
          track(sockets, upstream);
          upstream.on('error', () => client.end(Buffer.from([0x05, 0x05, 0x00, 0x01, 0, 0, 0, 0, 0, 0])));
          return;
        } else return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `socks5://127.0.0.1:${port}`,
    port,
    seen,
    rawHeaders: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function track(sockets: Set<net.Socket>, socket: net.Socket): void {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => {});
}

function splitHostPort(target: string): [string, string] {
  const at = target.lastIndexOf(':');
  return [target.slice(0, at).replace(/^\[|\]$/g, ''), target.slice(at + 1)];
}

function ipv6(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(':');
}
