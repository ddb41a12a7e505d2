/**
 * A local stand-in for postman-echo.com, for running real Postman collections on loopback.
 * It answers the paths the shared corpus uses the way postman-echo does (echoes of args,
 * headers, form, data and json; status codes; cookies; basic, digest, OAuth 1.0 and Hawk auth; compressed and
 * streamed bodies; XML and HTML), and reports `url` with postman-echo's public origin, so
 * scripts comparing `pm.response.json().url` to `https://postman-echo.com/...` hold.
 *
 * Besides it, `startRawEchoServer` answers every request with its own request head as text
 * (newman's test server on port 4041 does that), for scripts that look at the bytes sent.
 */
import { hawkCheck, oauth1Check } from '../auth-checks.js';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { listenLoopback } from './listen.js';

export interface EchoServer {
  /** `http(s)://127.0.0.1:PORT`. */
  url: string;
  host: string;
  port: number;
  /** Every request received: method and request target, in order. */
  seen: { method: string; target: string }[];
  close(): Promise<void>;
}

export interface EchoOptions {
  /** Serve HTTPS with this certificate (postman-echo is HTTPS; clients then need TLS verification off). */
  tls?: { key: string; cert: string };
  /** The origin reported in `url` fields. */
  publicOrigin?: string;
  /** Called with each request as received (headers as sent, body read whole), for tests that compare what clients send. */
  record?: (request: ReceivedRequest) => void;
}

export interface ReceivedRequest { method: string; target: string; rawHeaders: string[]; body: Buffer }

/** The credentials postman-echo's auth endpoints accept. */
export const ECHO_USER = 'postman';
export const ECHO_PASSWORD = 'password';
const DIGEST_REALM = 'Users';
/** `/delay/N` waits N × this many milliseconds (postman-echo waits N seconds): tests stay fast. */
export const DELAY_UNIT_MS = 10;
const MAX_BODY_BYTES = 1024 * 1024;

type Json = Record<string, unknown>;

export async function startEchoServer(options: EchoOptions = {}): Promise<EchoServer> {
  const publicOrigin = options.publicOrigin ?? 'https://postman-echo.com';
  const nonce = randomBytes(16).toString('hex');
  const seen: EchoServer['seen'] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '' });
    readBody(req)
      .then((body) => {
        options.record?.({ method: req.method ?? '', target: req.url ?? '', rawHeaders: req.rawHeaders, body });
        return answer(req, res, body, { publicOrigin, nonce });
      })
      .catch((error: Error) => {
        if (!res.headersSent) res.writeHead(400, { 'Content-Type': 'text/plain' });
        res.end(`echo server: ${error.message}`);
      });
  };
  const server = options.tls ? https.createServer({ ...options.tls }, handler) : http.createServer(handler);
  return listen(server, options.tls ? 'https' : 'http', seen);
}

/** Answers each request with its request line and headers, as sent, in a text/plain body. */
export async function startRawEchoServer(): Promise<EchoServer> {
  const seen: EchoServer['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '' });
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`${lines.join('\r\n')}\r\n\r\n`);
    });
  });
  return listen(server, 'http', seen);
}

async function listen(server: http.Server | https.Server, scheme: 'http' | 'https', seen: EchoServer['seen']): Promise<EchoServer> {
  server.keepAliveTimeout = 5000;
  return { ...(await listenLoopback(server, scheme)), seen };
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** postman-echo's published OAuth 1.0 consumer secret (its /oauth1 endpoint). */
const OAUTH1_CONSUMER_SECRET = 'D+EdQ-gs$-%@2Nu7';
/** postman-echo's published Hawk credentials (its /auth/hawk endpoint). */
const HAWK_ID = 'dh37fgj492je';
const HAWK_KEY = 'werxhqb98rpaxn39848xrunpaw3489ruxnpa98w4rxn';

interface Context {
  publicOrigin: string;
  nonce: string;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, ctx: Context): Promise<void> {
  const target = req.url ?? '/';
  const url = new URL(target, 'http://echo.invalid');
  const path = url.pathname;
  const args = Object.fromEntries(url.searchParams);
  const headers = req.headers;
  const publicUrl = `${ctx.publicOrigin}${target}`;
  const send = (status: number, payload: unknown, extra: http.OutgoingHttpHeaders = {}) => {
    const text = JSON.stringify(payload);
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...extra });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
  const method = req.method ?? 'GET';

  if (path === '/get' && method === 'OPTIONS') {
    res.writeHead(200, { Allow: 'GET,HEAD,PUT,POST,DELETE,PATCH', 'Content-Type': 'text/html; charset=utf-8' });
    return void res.end('GET,HEAD,PUT,POST,DELETE,PATCH');
  }
  if (path === '/get') return send(200, { args, headers, url: publicUrl });
  if (['/post', '/put', '/patch', '/delete'].includes(path)) {
    return send(200, { args, ...(await bodyEcho(headers, body)), headers, url: publicUrl });
  }
  if (path === '/headers') return send(200, { headers });
  if (path === '/response-headers') return send(200, args, args);
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status) return send(Number(status[1]), { status: Number(status[1]) });
  const delay = /^\/delay\/(\d{1,2})$/.exec(path);
  if (delay) {
    await new Promise((resolve) => setTimeout(resolve, Number(delay[1]) * DELAY_UNIT_MS));
    return send(200, { delay: delay[1] });
  }
  const stream = /^\/stream\/(\d{1,3})$/.exec(path);
  if (stream) {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    for (let i = 0; i < Number(stream[1]); i++) res.write(`${JSON.stringify({ args, headers, url: publicUrl, id: i })}\n`);
    return void res.end();
  }
  if (path === '/gzip' || path === '/deflate') {
    const gzip = path === '/gzip';
    const packed = (gzip ? zlib.gzipSync : zlib.deflateSync)(JSON.stringify({ [gzip ? 'gzipped' : 'deflated']: true, headers, method }));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': gzip ? 'gzip' : 'deflate' });
    return void res.end(packed);
  }
  if (path === '/encoding/utf8') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    return void res.end('<html><body>∮ E⋅da = Q, ᚠᛇᚻ, Καλημέρα κόσμε, こんにちは</body></html>');
  }
  if (path === '/type/xml') {
    res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8', 'Set-Cookie': 'sails.sid=abc; Path=/; HttpOnly' });
    return void res.end('<?xml version="1.0" encoding="utf-8"?>\n<food><key>Homestyle Breakfast</key><value>950</value></food>');
  }
  if (path === '/type/html') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    return void res.end('<html><body>hi</body></html>');
  }
  if (path === '/cookies') return send(200, { cookies: cookiesOf(headers.cookie) });
  if (path === '/cookies/set' || path === '/cookies/delete') {
    // As postman-echo: set or expire the cookies, then send the client to /cookies.
    const setCookie = [...url.searchParams].map(([k, v]) =>
      path === '/cookies/set' ? `${k}=${v}; Path=/` : `${k}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
    );
    res.writeHead(302, { Location: '/cookies', 'Set-Cookie': setCookie, 'Content-Type': 'text/plain' });
    return void res.end('Found. Redirecting to /cookies');
  }
  if (path === '/basic-auth') {
    const expected = `Basic ${Buffer.from(`${ECHO_USER}:${ECHO_PASSWORD}`).toString('base64')}`;
    if (headers.authorization === expected) return send(200, { authenticated: true });
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="Users"', 'Content-Type': 'text/plain' });
    return void res.end('Unauthorized');
  }
  if (path === '/oauth1') {
    // As postman-echo: the signature checked with its published consumer secret (RFC 5849 recomputed).
    const check = oauth1Check({ method, target, host: headers.host ?? '', headers, body }, { consumerSecret: OAUTH1_CONSUMER_SECRET, tokenSecret: '', scheme: 'encrypted' in req.socket ? 'https' : 'http' });
    if (check.ok) return send(200, { status: 'pass', message: 'OAuth-1.0a signature verification was successful' });
    return send(401, { status: 'fail', message: 'HMAC-SHA1 verification failed' });
  }
  if (path === '/auth/hawk') {
    // As postman-echo: its published Hawk credentials, the MAC recomputed (Hawk 1).
    const encrypted = 'encrypted' in req.socket;
    const port = Number((headers.host ?? '').split(':')[1]) || (encrypted ? 443 : 80);
    const check = hawkCheck({ method, target, host: headers.host ?? '', headers, body }, port, { key: HAWK_KEY, algorithm: 'sha256' });
    if (check.ok && check.attributes.id === HAWK_ID && check.hashOk !== false) return send(200, { message: 'Hawk Authentication Successful' });
    return send(401, { statusCode: 401, error: 'Unauthorized', message: 'Unknown credentials' });
  }
  if (path === '/digest-auth') {
    if (digestValid(headers.authorization, method, ctx.nonce)) return send(200, { authenticated: true });
    res.writeHead(401, { 'WWW-Authenticate': `Digest realm="${DIGEST_REALM}", nonce="${ctx.nonce}", qop="auth"`, 'Content-Type': 'text/plain' });
    return void res.end('Unauthorized');
  }
  if (path === '/redirect-to' && args.url) {
    res.writeHead(302, { Location: args.url });
    return void res.end();
  }
  return send(404, { error: `the local echo server has no route ${method} ${path}` });
}

/** postman-echo's `data`, `form`, `files` and `json` for a request body. */
async function bodyEcho(headers: http.IncomingHttpHeaders, body: Buffer): Promise<Json> {
  const type = headers['content-type'] ?? '';
  const out: Json = { data: '', files: {}, form: {}, json: null };
  if (body.length === 0) return out;
  if (type.includes('application/x-www-form-urlencoded')) {
    out.form = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
    out.json = out.form;
    return out;
  }
  if (type.includes('multipart/form-data')) {
    // The platform's multipart parser (Response#formData), not a hand-written one.
    const form = await new Response(new Uint8Array(body), { headers: { 'Content-Type': type } }).formData();
    const fields: Json = {};
    const files: Json = {};
    for (const [key, value] of form) {
      if (typeof value === 'string') fields[key] = value;
      else files[value.name || key] = `data:${value.type || 'application/octet-stream'};base64,${Buffer.from(await value.arrayBuffer()).toString('base64')}`;
    }
    return { ...out, form: fields, files };
  }
  const text = body.toString('utf8');
  out.data = text;
  if (type.includes('json')) {
    try {
      out.json = JSON.parse(text);
      out.data = out.json;
    } catch {
      // not JSON after all: echoed as text
    }
  }
  return out;
}

function cookiesOf(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** RFC 7616 Digest with MD5, qop `auth` (or none), for the echo credentials. */
function digestValid(header: string | undefined, method: string, nonce: string): boolean {
  if (!header?.startsWith('Digest ')) return false;
  const fields: Record<string, string> = {};
  for (const m of header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) fields[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? '';
  if (fields.username !== ECHO_USER || fields.realm !== DIGEST_REALM || fields.nonce !== nonce || !fields.uri) return false;
  const ha1 = md5(`${ECHO_USER}:${DIGEST_REALM}:${ECHO_PASSWORD}`);
  const ha2 = md5(`${method}:${fields.uri}`);
  const expected = fields.qop ? md5(`${ha1}:${nonce}:${fields.nc}:${fields.cnonce}:${fields.qop}:${ha2}`) : md5(`${ha1}:${nonce}:${ha2}`);
  return fields.response === expected;
}
