/**
 * The real local peers the HTTP tests talk to: HTTP/1.1, HTTP/2 cleartext, and HTTP/2 (with
 * HTTP/1.1 fallback) over TLS with a self-signed certificate. Every server records each request
 * it got, raw body bytes included, and answers routes for redirects, slowness, encodings,
 * cookies and Digest auth.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import http2 from 'node:http2';
import zlib from 'node:zlib';
import selfsigned from 'selfsigned';
import { listenLoopback, requestLog } from './listen.js';
import { freePort } from './ports.js';

export interface Seen {
  method: string;
  url: string;
  httpVersion: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  body: Buffer;
}

export interface Peer {
  url: string;
  port: number;
  seen: Seen[];
  connections: number;
  /** The first request from index `from` on that passes `test`, now or when it arrives. */
  waitForRequest(test: (seen: Seen) => boolean, from?: number): Promise<Seen>;
  close(): Promise<void>;
}

/** A zstd frame holding `data` as one raw block (Node 20 has no zstd encoder). */
export function zstdRawFrame(data: Buffer): Buffer {
  if (data.length > 255) throw new Error('keep test zstd bodies under 256 bytes');
  const header = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, data.length]);
  const blockHeader = 1 | (data.length << 3);
  const block = Buffer.from([blockHeader & 0xff, (blockHeader >> 8) & 0xff, (blockHeader >> 16) & 0xff]);
  return Buffer.concat([header, block, data]);
}

const DIGEST_REALM = 'ferry-test';
const DIGEST_NONCE = 'dcd98b7102dd2f0e8b11d0f600bfb0c093';

function digestOk(header: string | undefined, method: string, user: string, pass: string): boolean {
  if (!header?.startsWith('Digest ')) return false;
  const params: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) params[m[1]!] = m[2] ?? m[3] ?? '';
  const algorithm = params.algorithm ?? 'MD5';
  const H = (s: string) => createHash(algorithm === 'SHA-256' ? 'sha256' : 'md5').update(s).digest('hex');
  const ha1 = H(`${user}:${DIGEST_REALM}:${pass}`);
  const ha2 = H(`${method}:${params.uri}`);
  const expected = H(`${ha1}:${DIGEST_NONCE}:${params.nc}:${params.cnonce}:${params.qop}:${ha2}`);
  return params.username === user && params.response === expected && params.nonce === DIGEST_NONCE;
}

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;

function handler(record: (entry: Seen) => void) {
  return (req: Req, res: Res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry: Seen = { method: req.method ?? '', url: req.url ?? '', httpVersion: req.httpVersion, headers: req.headers, rawHeaders: req.rawHeaders, body };
      record(entry);
      route(entry, res);
    });
  };
}

function route(req: Seen, res: Res): void {
  const url = new URL(req.url, 'http://x');
  const p = url.pathname;
  const send = (status: number, headers: Record<string, string | string[]>, body: string | Buffer = '') => {
    res.writeHead(status, headers);
    res.end(body);
  };
  if (p.startsWith('/redirect/')) {
    const n = Number(p.split('/')[2]);
    const code = Number(url.searchParams.get('code') ?? 302);
    return send(code, { location: n > 1 ? `/redirect/${n - 1}?code=${code}` : '/echo' });
  }
  if (p === '/slow') {
    setTimeout(() => send(200, {}, 'late'), Number(url.searchParams.get('ms') ?? 2000)).unref();
    return;
  }
  if (p === '/status') return send(Number(url.searchParams.get('code') ?? 200), { 'content-type': 'text/plain' }, 'status');
  if (p === '/encoded') {
    const text = Buffer.from('decoded body ✓');
    const coding = url.searchParams.get('coding') ?? 'gzip';
    const encoded =
      coding === 'gzip' ? zlib.gzipSync(text) : coding === 'deflate' ? zlib.deflateSync(text) : coding === 'br' ? zlib.brotliCompressSync(text) : zstdRawFrame(text);
    return send(200, { 'content-encoding': coding, 'content-type': 'text/plain; charset=utf-8' }, encoded);
  }
  if (p === '/cookies/set') return send(200, { 'set-cookie': ['session=abc; Path=/', 'theme=dark; Path=/'] }, 'set');
  if (p === '/repeated') return send(200, { 'x-many': ['one', 'two'], 'set-cookie': ['a=1', 'b=2'] }, 'ok');
  if (p === '/digest') {
    const header = req.headers.authorization as string | undefined;
    if (digestOk(header, req.method, 'alice', 's3cret')) return send(200, {}, 'digest ok');
    return send(401, { 'www-authenticate': `Digest realm="${DIGEST_REALM}", qop="auth", algorithm=SHA-256, nonce="${DIGEST_NONCE}", opaque="5ccc069c403ebaf9f0171e9517f40e41"` }, 'who?');
  }
  if (p === '/json') return send(200, { 'content-type': 'application/json' }, JSON.stringify({ id: 7, name: 'Ada' }));
  // /echo and everything else: what arrived, as JSON.
  send(200, { 'content-type': 'application/json' }, JSON.stringify({ method: req.method, url: req.url, httpVersion: req.httpVersion, headers: req.headers, body: req.body.toString('base64') }));
}

async function listen(server: http.Server | http2.Http2Server | http2.Http2SecureServer, scheme: 'http' | 'https'): Promise<Peer> {
  const log = requestLog<Seen>();
  server.on('request', handler(log.record));
  const peer: Peer = { url: '', port: 0, seen: log.seen, connections: 0, waitForRequest: log.waitFor, close: async () => {} };
  server.on('connection', () => peer.connections++);
  const listening = await listenLoopback(server, scheme, scheme === 'https' ? 'localhost' : '127.0.0.1');
  peer.port = listening.port;
  peer.url = listening.url;
  peer.close = listening.close;
  return peer;
}

export function startHttp1(): Promise<Peer> {
  return listen(http.createServer(), 'http');
}

export function startH2c(): Promise<Peer> {
  return listen(http2.createServer(), 'http');
}

let certPromise: Promise<{ key: string; cert: string }> | undefined;
export function testCertificate(): Promise<{ key: string; cert: string }> {
  certPromise ??= (async () => {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      days: 2,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    } as never);
    return { key: pems.private, cert: pems.cert };
  })();
  return certPromise;
}

export async function startTls(): Promise<Peer> {
  const { key, cert } = await testCertificate();
  return listen(http2.createSecureServer({ key, cert, allowHTTP1: true }), 'https');
}

/** HTTPS that speaks only HTTP/1.1 (no h2 in its ALPN). */
export async function startTlsHttp1Only(): Promise<Peer> {
  const { key, cert } = await testCertificate();
  return listen(https.createServer({ key, cert }), 'https');
}

/** A port nobody listens on (it was free a moment ago): for "connection refused". */
export const closedPort = freePort;
