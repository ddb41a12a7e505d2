/**
 * An answer's headers read the same over HTTP/2 as over HTTP/1.1: each value's bytes as UTF-8
 * (Node's http2 and undici hand them over as Latin-1), a repeated field kept once per line (Node
 * joins it with ", "), no pseudo-header in the list. Real servers on 127.0.0.1 send the same
 * fields: HTTP/1.1 written byte by byte, HTTP/2 over TLS and over cleartext (h2c, prior
 * knowledge) from node:http2. Checked in the client, in `ferry run` (script, report, cookie jar),
 * and on a redirect's Location.
 */
import http2 from 'node:http2';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { CookieStore, HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import { runRequests } from '../../src/runner/index.js';
import { openedWorkspace } from '../runner/workspace.js';
import { testCertificate } from '../support/servers/peers.js';
import { preparedRequest } from './prepared.js';

const DATE = 'Sat, 28 Nov 2026 12:00:00 GMT';
/** The fields every server sends on `/fields`, as bytes (name, value): UTF-8 letters, a Latin-1 byte (not UTF-8), repeats. */
const FIELDS: Array<[string, Buffer]> = [
  ['x-u', Buffer.from('é€', 'utf8')],
  ['x-l', Buffer.from([0xe9])],
  ['x-a', Buffer.from('1')],
  ['x-a', Buffer.from('2, two')],
  ['set-cookie', Buffer.from('a=1; Path=/')],
  ['set-cookie', Buffer.from('b=2; Path=/')],
  ['content-type', Buffer.from('text/plain')],
  ['date', Buffer.from(DATE)],
  ['content-length', Buffer.from('2')],
];
/** A redirect's target written as UTF-8 bytes. */
const LOCATION = Buffer.from('/café/€?q=é', 'utf8');

interface Server {
  origin: string;
  /** Request targets and their Cookie header, as they arrived. */
  seen: Array<{ target: string; cookie: string | undefined }>;
  close(): Promise<void>;
}

/** HTTP/1.1 written byte by byte (names as given, one line per field). */
async function http1Server(): Promise<Server> {
  const seen: Server['seen'] = [];
  const server = net.createServer((socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const target = head.split(' ')[1]!;
      seen.push({ target, cookie: /\r\ncookie: ([^\r]*)/i.exec(head)?.[1] });
      head = '';
      const fields: Array<[string, Buffer]> = target === '/from' ? [['location', LOCATION], ['content-length', Buffer.from('0')]] : target === '/fields' ? FIELDS : [['content-length', Buffer.from('2')]];
      const status = target === '/from' ? '302 Found' : '200 OK';
      socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 ${status}\r\n`), ...fields.flatMap(([name, value]) => [Buffer.from(`${name}: `), value, Buffer.from('\r\n')]), Buffer.from('\r\n'), Buffer.from(target === '/from' ? '' : 'ok')]));
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The same fields from node:http2, which writes each character of a value as one byte. */
async function http2Server(secure: boolean): Promise<Server> {
  const seen: Server['seen'] = [];
  const server = secure ? http2.createSecureServer(await testCertificate()) : http2.createServer();
  server.on('stream', (stream, headers) => {
    const target = String(headers[':path']);
    seen.push({ target, cookie: headers.cookie as string | undefined });
    if (target === '/from') return stream.respond({ ':status': 302, location: LOCATION.toString('latin1') }, { endStream: true });
    const answer: Record<string, string | string[] | number> = { ':status': 200 };
    if (target === '/fields') {
      for (const [name, value] of FIELDS) {
        const had = answer[name];
        answer[name] = had === undefined ? value.toString('latin1') : [...[had].flat().map(String), value.toString('latin1')];
      }
    }
    stream.respond(answer);
    stream.end('ok');
  });
  server.on('sessionError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive sessions of the run's agents would hold close() open.
      setTimeout(resolve, 200).unref();
    }),
  };
}

/** One HPACK field, a literal not indexed and not Huffman-coded (RFC 7541 6.2.2); lengths under 127. */
const hpackField = (name: string, value: Buffer) => Buffer.concat([Buffer.from([0x00, name.length]), Buffer.from(name), Buffer.from([value.length]), value]);
const frame = (type: number, flags: number, stream: number, payload: Buffer) => {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
};

/**
 * An HTTP/2 server written frame by frame (cleartext, prior knowledge): it answers each request
 * with `fields` as given, which node:http2 refuses to send (a second Content-Type).
 */
async function rawHttp2Server(fields: Array<[string, Buffer]>): Promise<Server & { port: number }> {
  const server = net.createServer((socket) => {
    let buffered = Buffer.alloc(0);
    let prefaceRead = false;
    socket.write(frame(0x4, 0, 0, Buffer.alloc(0)));
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!prefaceRead) {
        if (buffered.length < 24) return;
        buffered = buffered.subarray(24);
        prefaceRead = true;
      }
      while (buffered.length >= 9) {
        const length = buffered.readUIntBE(0, 3);
        if (buffered.length < 9 + length) return;
        const [type, flags] = [buffered[3]!, buffered[4]!];
        const stream = buffered.readUInt32BE(5) & 0x7fffffff;
        buffered = buffered.subarray(9 + length);
        if (type === 0x4 && !(flags & 0x1)) socket.write(frame(0x4, 0x1, 0, Buffer.alloc(0)));
        if (type === 0x1) {
          // :status 200 (static table entry 8), then the fields; the body ends the stream.
          socket.write(frame(0x1, 0x4, stream, Buffer.concat([Buffer.from([0x88]), ...fields.map(([name, value]) => hpackField(name, value))])));
          socket.write(frame(0x0, 0x1, stream, Buffer.from('ok')));
        }
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, origin: `http://127.0.0.1:${port}`, seen: [], close: () => new Promise<void>((resolve) => (server.close(() => resolve()), setTimeout(resolve, 200).unref())) };
}

let h1: Server;
let h2tls: Server;
let h2c: Server;
const agents = new HttpAgents();
beforeAll(async () => {
  [h1, h2tls, h2c] = await Promise.all([http1Server(), http2Server(true), http2Server(false)]);
});
afterAll(async () => {
  await agents.close();
  await Promise.all([h1.close(), h2tls.close(), h2c.close()]);
});

const peers = () => [
  { name: 'HTTP/2 over TLS (ALPN)', server: h2tls, httpVersion: 'auto' as const },
  { name: 'HTTP/2 over cleartext (h2c, prior knowledge)', server: h2c, httpVersion: 'http2' as const },
];
const send = (url: string, httpVersion: 'auto' | 'http2' = 'auto', cookies?: CookieStore) =>
  sendHttp(preparedRequest(url, {}, { httpVersion, verifyTls: false }), { agents, cookies });

describe('an HTTP/2 answer gives the header list an HTTP/1.1 answer gives', () => {
  it('the same fields, in wire order, each value read as UTF-8, repeats kept apart, no :status', async () => {
    const over1 = await send(`${h1.origin}/fields`);
    expect(over1.httpVersion).toBe('1.1');
    expect(over1.headers).toEqual([
      ['x-u', 'é€'],
      ['x-l', '\ufffd'],
      ['x-a', '1'],
      ['x-a', '2, two'],
      ['set-cookie', 'a=1; Path=/'],
      ['set-cookie', 'b=2; Path=/'],
      ['content-type', 'text/plain'],
      ['date', DATE],
      ['content-length', '2'],
    ]);
    for (const { name, server, httpVersion } of peers()) {
      const over2 = await send(`${server.origin}/fields`, httpVersion);
      expect(over2.httpVersion, name).toBe('2');
      expect(over2.headers, name).toEqual(over1.headers);
      expect(over2.headersSize, name).toBe(over1.headersSize);
    }
  });

  it('keeps both lines of a header HTTP/2 allows once in its header object (Content-Type twice), as HTTP/1.1 does', async () => {
    const twice: Array<[string, Buffer]> = [['content-type', Buffer.from('text/plain')], ['content-type', Buffer.from('application/json')], ['location', Buffer.from('/a')], ['location', Buffer.from('/b')], ['x-a', Buffer.from('1')], ['x-a', Buffer.from('2')]];
    const raw = await rawHttp2Server(twice);
    try {
      const answer = await send(`${raw.origin}/`, 'http2');
      expect(answer.httpVersion).toBe('2');
      expect(answer.headers).toEqual(twice.map(([name, value]) => [name, value.toString()]));
    } finally {
      await raw.close();
    }
  });

  it('stores every Set-Cookie of an HTTP/2 answer and sends them back', async () => {
    for (const { name, server, httpVersion } of peers()) {
      const cookies = CookieStore.fromSerialized(undefined);
      await send(`${server.origin}/fields`, httpVersion, cookies);
      await send(`${server.origin}/next`, httpVersion, cookies);
      expect(server.seen.at(-1), name).toEqual({ target: '/next', cookie: 'a=1; b=2' });
    }
  });

  it("follows a redirect whose Location holds UTF-8 letters to the path HTTP/1.1's goes to", async () => {
    const over1 = await send(`${h1.origin}/from`);
    expect(h1.seen.at(-1)!.target).toBe('/caf%C3%A9/%E2%82%AC?q=%C3%A9');
    for (const { name, server, httpVersion } of peers()) {
      const over2 = await send(`${server.origin}/from`, httpVersion);
      expect(server.seen.at(-1)!.target, name).toBe('/caf%C3%A9/%E2%82%AC?q=%C3%A9');
      expect(new URL(over2.url).pathname, name).toBe(new URL(over1.url).pathname);
      expect(over2.redirects.map((r) => r.status), name).toEqual([302]);
    }
  });
});

describe('ferry run shows the same headers over both protocols', () => {
  it('pm.response.headers, the report and the cookie jar', async () => {
    const script = [
      "console.log(JSON.stringify({ a: pm.response.headers.get('x-a'), u: pm.response.headers.get('X-U'), l: pm.response.headers.get('x-l'),",
      "  all: pm.response.headers.all().filter((h) => h.key === 'x-a').map((h) => h.value), status: pm.response.headers.has(':status'),",
      "  cookies: pm.response.headers.all().filter((h) => h.key.toLowerCase() === 'set-cookie').length }));",
    ].join('\n');
    const outcomes = [];
    for (const [server, httpVersion] of [[h1, 'http1'], [h2tls, 'http2'], [h2c, 'http2']] as const) {
      const { ws, data } = await openedWorkspace({
        'requests/Fields.yaml': { name: 'Fields', method: 'GET', url: `${server.origin}/fields`, scripts: { postResponse: script } },
        'requests/Next.yaml': { name: 'Next', method: 'GET', url: `${server.origin}/next` },
      });
      const run = await runRequests({ workspace: ws, dataFolder: data, settings: { ...DEFAULT_SETTINGS, verifyTls: false, httpVersion }, paths: ['Fields.yaml', 'Next.yaml'], responses: { maxBodyBytes: 100 } });
      const [fields] = run.results;
      expect(fields!.error).toBeUndefined();
      expect(fields!.httpVersion).toBe(httpVersion === 'http1' ? '1.1' : '2');
      expect(server.seen.at(-1)).toEqual({ target: '/next', cookie: 'a=1; b=2' });
      outcomes.push({ script: JSON.parse(fields!.console[0]!) as unknown, report: fields!.response!.headers });
    }
    expect(outcomes[0]!.script).toEqual({ a: '2, two', u: 'é€', l: '\ufffd', all: ['1', '2, two'], status: false, cookies: 2 });
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[2]).toEqual(outcomes[0]);
  });
});
