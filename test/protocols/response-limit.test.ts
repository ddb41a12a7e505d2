/**
 * The response size limit (application setting maxResponseMb): bodies past it, as received or as
 * decoded, fail the request with a message while the connection is cut; the next request still runs.
 * And HTTP/2 response headers a server cannot send get a message instead of a raw nghttp2 code.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { HttpAgents, SendError, sendHttp } from '../../src/protocols/http/http.js';
import { decodeBody, DecodedTooLargeError } from '../../src/support/content-coding.js';
import type { PreparedRequest, PreparedSettings } from '../../src/request/prepared.js';
import { ferry } from '../support/cli.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { zstdRawFrame } from '../support/servers/index.js';
import { preparedRequest } from './prepared.js';

const MB = 1024 * 1024;
const SETTINGS: PreparedSettings = { timeoutMs: 10_000, followRedirects: true, maxRedirects: 10, verifyTls: true, httpVersion: 'auto', decompress: true };
const TOO_LARGE = /the response body is larger than 1 MB \(maxResponseMb\), so Ferry stopped reading it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit\./;
const DECODED_TOO_LARGE = /the response body, once its Content-Encoding \((gzip|br|deflate|zstd|gzip, gzip)\) is undone, is larger than 1 MB \(maxResponseMb\)/;

function req(url: string, settings: Partial<PreparedSettings> = {}, method = 'GET'): PreparedRequest {
  return preparedRequest(url, { method }, { ...SETTINGS, ...settings });
}

/** A zstd frame of RLE blocks: `blocks` x 128 KB of one byte from a few dozen bytes. */
function zstdRleBomb(blocks: number): Buffer {
  // Magic, frame descriptor 0 (no content size, no checksum), window descriptor 0x50 (1 MB window).
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50])];
  for (let i = 0; i < blocks; i++) {
    const last = i === blocks - 1 ? 1 : 0;
    const header = last | (1 << 1) | ((128 * 1024) << 3);
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0x61]));
  }
  return Buffer.concat(parts);
}

/** Bytes the endless route wrote before the client cut it off; bounded so the server loop ends on its own too. */
const ENDLESS_CAP = 256 * MB;
const endless = { written: 0, closed: Promise.resolve() };
const SMALL = Buffer.from('{"ok":true}');
const BIG = Buffer.alloc(3 * MB, 0x62);

function route(req: http.IncomingMessage | http2.Http2ServerRequest, response: http.ServerResponse | http2.Http2ServerResponse): void {
  // Both answer writeHead, write, end and 'drain' alike; one type keeps the calls simple.
  const res = response as http.ServerResponse;
  // Node's HTTP/2 server keeps a reset stream open until its request side is read.
  req.resume();
  const url = new URL(req.url ?? '/', 'http://x');
  const send = (headers: Record<string, string | number>, body: Buffer) => {
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
  switch (url.pathname) {
    case '/big':
      return send({ 'content-type': 'application/octet-stream', 'content-length': BIG.length }, BIG);
    case '/big-chunked': {
      // No Content-Length: only counting the bytes as they arrive finds it.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 3; i++) res.write(BIG.subarray(i * MB, (i + 1) * MB));
      return void res.end();
    }
    case '/exact':
      return send({ 'content-length': MB }, BIG.subarray(0, MB));
    case '/gzip-bomb':
      return send({ 'content-encoding': 'gzip' }, zlib.gzipSync(Buffer.alloc(4 * MB)));
    case '/br-bomb':
      return send({ 'content-encoding': 'br' }, zlib.brotliCompressSync(Buffer.alloc(4 * MB)));
    case '/deflate-bomb':
      return send({ 'content-encoding': 'deflate' }, zlib.deflateRawSync(Buffer.alloc(4 * MB)));
    case '/zstd-bomb':
      return send({ 'content-encoding': 'zstd' }, zstdRleBomb(16));
    case '/zstd-small':
      return send({ 'content-encoding': 'zstd' }, zstdRawFrame(Buffer.from('zstd ok')));
    case '/gzip-nested':
      // gzip of a gzip bomb: each decoding step is held to the limit.
      return send({ 'content-encoding': 'gzip, gzip' }, zlib.gzipSync(zlib.gzipSync(Buffer.alloc(4 * MB))));
    case '/endless': {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = Buffer.alloc(64 * 1024, 0x65);
      let done!: () => void;
      endless.written = 0;
      endless.closed = new Promise<void>((resolve) => (done = resolve));
      const pump = () => {
        while (endless.written < ENDLESS_CAP) {
          endless.written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => done());
      return pump();
    }
    default:
      return send({ 'content-type': 'application/json' }, SMALL);
  }
}

let h1: http.Server;
let h2c: http2.Http2Server;
let h1Url: string;
let h2Url: string;
let agents: HttpAgents;

beforeAll(async () => {
  h1 = http.createServer(route);
  h2c = http2.createServer(route);
  h2c.on('session', (s) => s.on('error', () => {}));
  await Promise.all([h1, h2c].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  h1Url = `http://127.0.0.1:${(h1.address() as AddressInfo).port}`;
  h2Url = `http://127.0.0.1:${(h2c.address() as AddressInfo).port}`;
  agents = new HttpAgents();
});
afterAll(async () => {
  await agents.close();
  h1.closeAllConnections();
  await Promise.all([h1, h2c].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

const fail = (url: string, settings: Partial<PreparedSettings> = {}, maxResponseMb = 1) =>
  sendHttp(req(url, settings), { agents, maxResponseMb }).then(
    () => {
      throw new Error(`${url} was read whole`);
    },
    (error: unknown) => error as SendError,
  );

describe('maxResponseMb', () => {
  it('fails a body past the limit, by Content-Length or by counting, and the next request on the origin still runs', async () => {
    for (const path of ['/big', '/big-chunked']) {
      const error = await fail(`${h1Url}${path}`);
      expect(error).toBeInstanceOf(SendError);
      expect(error.kind).toBe('tooLarge');
      expect(error.message).toMatch(TOO_LARGE);
      const next = await sendHttp(req(`${h1Url}/ok`), { agents, maxResponseMb: 1 });
      expect(Buffer.from(next.body).toString()).toBe('{"ok":true}');
    }
  });

  it('reads a body of exactly the limit, a HEAD whose Content-Length is past it, and anything with 0 = no limit', async () => {
    expect((await sendHttp(req(`${h1Url}/exact`), { agents, maxResponseMb: 1 })).body.length).toBe(MB);
    const head = await sendHttp(req(`${h1Url}/big`, {}, 'HEAD'), { agents, maxResponseMb: 1 });
    expect(head.headers.find(([n]) => n === 'content-length')?.[1]).toBe(String(3 * MB));
    expect((await sendHttp(req(`${h1Url}/big-chunked`), { agents, maxResponseMb: 0 })).body.length).toBe(3 * MB);
    // Without the setting: the application default of 50 MB.
    expect((await sendHttp(req(`${h1Url}/big`), { agents })).body.length).toBe(3 * MB);
  });

  it('stops an endless stream at the limit and closes the connection (no timeout set)', async () => {
    const error = await fail(`${h1Url}/endless`, { timeoutMs: 0 });
    expect(error.message).toMatch(TOO_LARGE);
    await endless.closed;
    // What the server got out before the cut: the limit plus what socket buffers held, far below its cap.
    expect(endless.written).toBeLessThan(64 * MB);
    expect((await sendHttp(req(`${h1Url}/ok`), { agents, maxResponseMb: 1 })).status).toBe(200);
  });

  it('counts decoded bytes: small compression bombs do not expand past the limit', async () => {
    for (const path of ['/gzip-bomb', '/br-bomb', '/deflate-bomb', '/zstd-bomb', '/gzip-nested']) {
      const error = await fail(`${h1Url}${path}`);
      expect(error.kind, path).toBe('tooLarge');
      expect(error.message, path).toMatch(DECODED_TOO_LARGE);
    }
    // With decompress off the compressed bytes are what counts, and they are small.
    const raw = await sendHttp(req(`${h1Url}/gzip-bomb`, { decompress: false }), { agents, maxResponseMb: 1 });
    expect(raw.body.length).toBeLessThan(64 * 1024);
    expect(Buffer.from((await sendHttp(req(`${h1Url}/zstd-small`), { agents, maxResponseMb: 1 })).body).toString()).toBe('zstd ok');
    // The same bomb is read whole when the limit allows it.
    expect((await sendHttp(req(`${h1Url}/zstd-bomb`), { agents, maxResponseMb: 4 })).body.length).toBe(2 * MB);
  });

  it('refuses a zstd frame that asks for a window past the limit before allocating it', () => {
    // Window descriptor 0xf8: exponent 31 -> a 2 GB window, in a frame of a few bytes.
    const frame = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0x01, 0x00, 0x00]);
    expect(() => decodeBody(frame, 'zstd', MB)).toThrow(DecodedTooLargeError);
  });

  it('applies over HTTP/2: the stream is reset and the session serves the next request', async () => {
    const error = await fail(`${h2Url}/big-chunked`, { httpVersion: 'http2' });
    expect(error.message).toMatch(TOO_LARGE);
    const endlessError = await fail(`${h2Url}/endless`, { httpVersion: 'http2', timeoutMs: 0 });
    expect(endlessError.message).toMatch(TOO_LARGE);
    await endless.closed;
    const next = await sendHttp(req(`${h2Url}/ok`, { httpVersion: 'http2' }), { agents, maxResponseMb: 1 });
    expect(next.httpVersion).toBe('2');
    expect(next.status).toBe(200);
  });
});

/** A cleartext HTTP/2 server answering every request 200 `ok` with `headers` (session errors ignored). */
async function h2cAnswering(options: http2.ServerOptions, headers: Record<string, string>): Promise<{ server: http2.Http2Server; url: string }> {
  const server = http2.createServer(options, (_req, res) => {
    res.writeHead(200, headers);
    res.end('ok');
  });
  server.on('session', (session) => session.on('error', () => {}));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

describe('huge HTTP/2 response headers', () => {
  it('a server that cannot send its own headers (Node: over 64 KB) gets a message, not NGHTTP2_FRAME_SIZE_ERROR', async () => {
    const { server, url } = await h2cAnswering({}, { 'x-big': 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(3000) });
    try {
      const error = await fail(url, { httpVersion: 'http2' });
      expect(error.message).toMatch(/reset the HTTP\/2 stream with FRAME_SIZE_ERROR instead of answering: the server could not send something it built, most often response headers larger than its own HTTP\/2 limit/);
      expect(error.message).toMatch(/settings\.httpVersion: http1/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('huge HTTP/2 response headers (client side)', () => {
  it('headers in more CONTINUATION frames than Node reads get a message naming the HTTP/1.1 way', async () => {
    // Three fields of 80,000 characters: each under nghttp2's 64 KB per field, together past 8 CONTINUATION frames.
    const value = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2223);
    const { server, url } = await h2cAnswering({ maxSendHeaderBlockLength: 4 * MB }, { 'x-a': value, 'x-b': value, 'x-c': value });
    try {
      const error = await fail(url, { httpVersion: 'http2' });
      expect(error.message).toMatch(/sent HTTP\/2 response headers larger than Ferry reads over HTTP\/2 \(about 144 KB after compression, more than 8 CONTINUATION frames\)\. Over HTTP\/1\.1 \(settings\.httpVersion: http1\) Ferry reads up to 1 MB of headers\./);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('ferry config set maxResponseMb, then ferry run', () => {
  const temps: TempWorkspace[] = [];
  afterEach(async () => {
    await Promise.all(temps.splice(0).map((t) => t.cleanup()));
  });

  it('stores the setting, and a run fails each oversized response with the message and goes on', async () => {
    const temp = await makeWorkspace({
      'requests/1 big.yaml': { name: 'big', seq: 1, url: `${h1Url}/big` },
      'requests/2 bomb.yaml': { name: 'bomb', seq: 2, url: `${h1Url}/gzip-bomb` },
      'requests/3 endless.yaml': { name: 'endless', seq: 3, url: `${h1Url}/endless`, settings: { timeoutMs: 0 } },
      'requests/4 ok.yaml': { name: 'ok', seq: 4, url: `${h1Url}/ok`, scripts: { postResponse: "pm.test('ok', () => pm.expect(pm.response.json().ok).to.equal(true));" } },
    });
    temps.push(temp);
    process.env.FERRY_DATA_DIR = temp.dataDir;

    for (const bad of ['-1', '1.5', 'lots', '5000']) {
      const refused = await ferry(['config', 'set', 'maxResponseMb', bad]);
      expect(refused.code, bad).not.toBe(0);
      expect(refused.stderr).toMatch(new RegExp(`maxResponseMb takes a whole number from 0 to 4096, not "${bad.replace('.', '\\.')}"`));
    }
    expect((await ferry(['config', 'get', 'maxResponseMb'])).stdout.trim()).toBe('50');
    expect((await ferry(['config', 'set', 'maxResponseMb', '100'])).stdout.trim()).toBe('maxResponseMb = 100');
    const set = await ferry(['config', 'set', 'maxResponseMb', '1']);
    expect(set.code).toBe(0);
    expect((await ferry(['config', 'get', 'maxResponseMb'])).stdout.trim()).toBe('1');

    const run = await ferry(['-w', temp.root, 'run', '-r', 'json']);
    expect(run.code).not.toBe(0);
    const results = JSON.parse(run.stdout).results as Array<{ name: string; passed: boolean; error: string | null }>;
    expect(results.map((r) => r.name)).toEqual(['big', 'bomb', 'endless', 'ok']);
    expect(results[0]!.error).toMatch(TOO_LARGE);
    expect(results[1]!.error).toMatch(DECODED_TOO_LARGE);
    expect(results[2]!.error).toMatch(TOO_LARGE);
    expect(results.slice(0, 3).every((r) => !r.passed)).toBe(true);
    expect(results[3]).toMatchObject({ passed: true, error: null });
  });
});
