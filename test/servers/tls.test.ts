/** TLS with given and generated certificates, HTTP/1.1 and HTTP/2 on one port (ALPN). */
import { X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { CERT_FILE, KEY_FILE } from '../../src/servers/index.js';
import { IDLE_TIMINGS } from '../../src/servers/idle-connections.js';
import { loadTls } from '../../src/servers/tls.js';
import type { ServerFile } from '../../src/model/index.js';
import { readWithLinkSwappedAtOpen } from '../support/link-swap.js';
import { tempDir } from '../support/temp.js';
import { makeWorkspace, serve } from './helpers.js';

function httpsGet(url: string, ca: string, alpn?: string[]): Promise<{ status: number; body: string; alpn: string | false | null; cert: X509Certificate }> {
  return new Promise((resolve, reject) => {
    const options: https.RequestOptions & { ALPNProtocols?: string[] } = { ca, agent: false, ALPNProtocols: alpn };
    const req = https.get(url, options, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        const socket = res.socket as import('node:tls').TLSSocket;
        resolve({ status: res.statusCode ?? 0, body, alpn: socket.alpnProtocol, cert: new X509Certificate(socket.getPeerX509Certificate()!.raw) });
      });
    });
    req.on('error', reject);
  });
}

function h2Get(url: string, ca: string, reqPath: string): Promise<{ status: number; body: string; headers: http2.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url, { ca });
    session.on('error', reject);
    const stream = session.request({ ':path': reqPath, 'x-who': 'h2' });
    let body = '';
    let headers: http2.IncomingHttpHeaders = {};
    stream.on('response', (h) => (headers = h));
    stream.on('data', (c) => (body += c));
    stream.on('end', () => {
      session.close();
      if (headers[':status'] === undefined) reject(Object.assign(new Error('the stream closed without an answer'), { code: 'closed' }));
      else resolve({ status: Number(headers[':status']), body, headers });
    });
    stream.on('close', () => {
      if (headers[':status'] === undefined) reject(Object.assign(new Error(`the stream closed without an answer (code ${stream.rstCode})`), { code: 'closed' }));
    });
    stream.on('error', reject);
    stream.end();
  });
}

const api = (tls: Record<string, unknown>) => ({
  name: 'Secure',
  tls,
  http: {
    cors: true,
    routes: [
      {
        path: '/who/:name',
        body: 'hello {{request.params.name}} via {{request.headers.x-who}}',
        headers: [
          { key: 'Connection', value: 'keep-alive' },
          { key: 'Keep-Alive', value: 'timeout=5' },
          { key: 'X-Who', value: '{{request.headers.x-who}} ✓' },
          { key: 'X-Total-Count', value: '5' },
          { key: 'Access-Control-Expose-Headers', value: 'X-Total-Count' },
        ],
      },
    ],
  },
});

describe('TLS', () => {
  it('serves HTTP/1.1 and HTTP/2 with the PEM files given', async () => {
    const made = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
    });
    const root = await makeWorkspace({ servers: { secure: api({ enabled: true, certPath: 'certs/cert.pem', keyPath: 'certs/key.pem' }) }, files: { 'certs/cert.pem': made.cert, 'certs/key.pem': made.private } });
    const handle = await serve(root);
    expect(handle.failures).toEqual([]);
    const url = handle.servers[0]!.url;
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const one = await httpsGet(`${url}/who/ada`, made.cert);
    expect(one).toMatchObject({ status: 200, body: 'hello ada via ', alpn: false });
    expect(one.cert.fingerprint256).toBe(new X509Certificate(made.cert).fingerprint256);
    const two = await h2Get(url, made.cert, '/who/bob');
    expect(two.status).toBe(200);
    expect(two.body).toBe('hello bob via h2');
    expect(two.headers.connection).toBeUndefined(); // an HTTP/1.1-only header is left out on HTTP/2
    expect(two.headers['keep-alive']).toBeUndefined(); // in whatever case the route writes it
    expect(two.headers['x-total-count']).toBe('5'); // names are lower case on HTTP/2
    expect(two.headers['access-control-expose-headers']).toBe('X-Total-Count'); // the route's, once
    expect(two.headers['access-control-allow-origin']).toBe('*');
    expect(Buffer.from(String(two.headers['x-who']), 'latin1').toString('utf8')).toBe('h2 ✓'); // UTF-8 bytes, as on HTTP/1.1
  });

  it('HTTP/2 clients see faults too: reset closes the connection, hang never answers', async () => {
    const made = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }] });
    const root = await makeWorkspace({
      servers: { f: { name: 'F', tls: { enabled: true, certPath: 'c.pem', keyPath: 'k.pem' }, http: { routes: [{ path: '/reset', fault: 'reset' }, { path: '/hang', fault: 'hang' }] } } },
      files: { 'c.pem': made.cert, 'k.pem': made.private },
    });
    const url = (await serve(root)).servers[0]!.url;
    const reset = await h2Get(url, made.cert, '/reset').then(() => 'answered', (e: NodeJS.ErrnoException) => e.code ?? e.message);
    expect(reset).toMatch(/ERR_HTTP2_STREAM_ERROR|ECONNRESET|ERR_HTTP2_SESSION_ERROR|ERR_HTTP2_GOAWAY_SESSION|ERR_HTTP2_INVALID_SESSION|closed/i);
    const hang = await Promise.race([
      h2Get(url, made.cert, '/hang').then(() => 'answered', () => 'failed'),
      new Promise((r) => setTimeout(() => r('timed out'), 300)),
    ]);
    expect(hang).toBe('timed out');
  });

  describe('idle connections', () => {
    const defaults = { ...IDLE_TIMINGS };
    afterEach(() => void Object.assign(IDLE_TIMINGS, defaults));

    it('an HTTP/2 connection with no stream open is closed after the idle time (GOAWAY), one with a silent stream open is not; HTTP/1.1 over TLS gets the keep-alive time', async () => {
      IDLE_TIMINGS.http2Ms = 300;
      IDLE_TIMINGS.http1Ms = 300;
      const made = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }] });
      const root = await makeWorkspace({
        servers: { i: { name: 'I', tls: { enabled: true, certPath: 'c.pem', keyPath: 'k.pem' }, http: { routes: [{ path: '/slow', delayMs: 1200, body: 'late' }, { path: '/now', body: 'now' }] } } },
        files: { 'c.pem': made.cert, 'k.pem': made.private },
      });
      const url = (await serve(root)).servers[0]!.url;
      const closedAfter = (session: http2.ClientHttp2Session, since: number) => new Promise<number>((resolve) => session.once('close', () => resolve(Date.now() - since)));

      // Idle after one answer: closed by the server, with a GOAWAY.
      const idle = http2.connect(url, { ca: made.cert });
      idle.on('error', () => {});
      const goaway = new Promise<boolean>((resolve) => idle.once('goaway', () => resolve(true)));
      const answered = idle.request({ ':path': '/now' });
      answered.resume();
      await new Promise((resolve) => answered.once('end', resolve));
      const idleClosed = await closedAfter(idle, Date.now());
      expect(await goaway).toBe(true);
      expect(idleClosed).toBeGreaterThanOrEqual(250);
      expect(idleClosed).toBeLessThan(5000);

      // A stream open four times longer than the idle time, silent all along: answered.
      const busy = http2.connect(url, { ca: made.cert });
      busy.on('error', () => {});
      const slow = busy.request({ ':path': '/slow' });
      let body = '';
      slow.on('data', (chunk) => (body += chunk));
      await new Promise((resolve) => slow.once('end', resolve));
      expect(body).toBe('late');
      expect(busy.closed).toBe(false);
      await closedAfter(busy, Date.now()); // then idle, so closed

      // HTTP/1.1 on the same port: a kept-alive connection closed after the keep-alive time (Node had none here).
      const agent = new https.Agent({ keepAlive: true, ca: made.cert });
      const socketClosed = await new Promise<number>((resolve, reject) => {
        const req = https.get(`${url}/now`, { agent }, (res) => res.resume());
        req.on('socket', (socket) => { const since = Date.now(); socket.once('close', () => resolve(Date.now() - since)); });
        req.on('error', reject);
      });
      agent.destroy();
      expect(socketClosed).toBeLessThan(5000);
    });
  });

  it('generates a localhost certificate once and keeps it in the data folder', async () => {
    const certificateDir = path.join(await tempDir('ferry-certs-'), 'certificates');
    const root = await makeWorkspace({ servers: { a: api({ enabled: true }), b: { ...api({ enabled: true }), name: 'B' } } });
    const first = await serve(root, { certificateDir });
    expect(first.failures).toEqual([]);
    const cert = await fs.readFile(path.join(certificateDir, CERT_FILE), 'utf8');
    expect((await fs.stat(path.join(certificateDir, KEY_FILE))).mode & 0o077).toBe(0);
    const x509 = new X509Certificate(cert);
    expect(x509.subjectAltName).toContain('DNS:localhost');
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    for (const server of first.servers) {
      const answer = await httpsGet(`${server.url}/who/x`, cert, ['http/1.1']);
      expect(answer.alpn).toBe('http/1.1');
      expect(answer.cert.fingerprint256).toBe(x509.fingerprint256);
    }
    const h2 = await h2Get(first.servers[0]!.url, cert, '/who/y');
    expect(h2.body).toBe('hello y via h2');
    await first.stop();
    // A second start reuses it.
    const again = await serve(root, { certificateDir });
    expect(await fs.readFile(path.join(certificateDir, CERT_FILE), 'utf8')).toBe(cert);
    expect((await httpsGet(`${again.servers[0]!.url}/who/z`, cert)).cert.fingerprint256).toBe(x509.fingerprint256);
  });

  it('an event stream answers over HTTP/2 too, rendered from the HTTP/2 request', async () => {
    const certificateDir = path.join(await tempDir('ferry-certs-'), 'certificates');
    const root = await makeWorkspace({
      servers: { events: { name: 'Events', kind: 'sse', tls: { enabled: true }, sse: { events: [{ data: 'hi {{request.query.u}}' }, { event: 'x', id: '{{request.headers.x-who}}', data: 'a\nb' }] } } },
    });
    const handle = await serve(root, { certificateDir });
    expect(handle.failures).toEqual([]);
    const ca = await fs.readFile(path.join(certificateDir, CERT_FILE), 'utf8');
    const session = http2.connect(handle.servers[0]!.url, { ca });
    try {
      const { headers, text } = await new Promise<{ headers: http2.IncomingHttpHeaders; text: string }>((resolve, reject) => {
        session.on('error', reject);
        const stream = session.request({ ':path': '/live?u=Ada', 'x-who': 'h2' });
        let text = '';
        let headers: http2.IncomingHttpHeaders = {};
        stream.on('response', (h) => (headers = h));
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          text += chunk;
          if (text.endsWith('data: b\n\n')) resolve({ headers, text }); // the stream stays open
        });
        stream.on('error', reject);
        stream.end();
      });
      expect(headers[':status']).toBe(200);
      expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(headers.connection).toBeUndefined(); // an HTTP/1.1 header HTTP/2 forbids
      expect(text).toBe('data: hi Ada\n\nevent: x\nid: h2\ndata: a\ndata: b\n\n');
    } finally {
      session.destroy();
    }
  });

  it('refuses a missing, foreign, mismatched or outside certificate with a clear message', async () => {
    const made = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec' });
    const other = await generate([{ name: 'commonName', value: 'other' }], { keyType: 'ec' });
    const outside = await tempDir('ferry-outside-');
    await fs.writeFile(path.join(outside, 'cert.pem'), made.cert);
    await fs.writeFile(path.join(outside, 'key.pem'), made.private);
    const root = await makeWorkspace({
      servers: {
        missing: api({ enabled: true, certPath: 'certs/nope.pem', keyPath: 'certs/key.pem' }),
        half: api({ enabled: true, certPath: 'certs/cert.pem' }),
        notpem: api({ enabled: true, certPath: 'certs/junk.pem', keyPath: 'certs/key.pem' }),
        mismatch: api({ enabled: true, certPath: 'certs/cert.pem', keyPath: 'certs/other-key.pem' }),
        outside: api({ enabled: true, certPath: path.join(outside, 'cert.pem'), keyPath: path.join(outside, 'key.pem') }),
        climbing: api({ enabled: true, certPath: '../x/cert.pem', keyPath: 'certs/key.pem' }),
      },
      files: { 'certs/cert.pem': made.cert, 'certs/key.pem': made.private, 'certs/junk.pem': 'hello', 'certs/other-key.pem': other.private },
    });
    await fs.symlink(path.join(root, 'certs', 'cert.pem'), path.join(root, 'certs', 'link.pem'));
    const handle = await serve(root);
    expect(handle.servers).toEqual([]);
    const byId = Object.fromEntries(handle.failures.map((f) => [f.id, f.message]));
    expect(byId.missing).toMatch(/^servers\/missing\.yaml:\d+:\d+: tls\.certPath: the file certs\/nope\.pem does not exist/);
    expect(byId.half).toMatch(/tls\.keyPath is missing/);
    expect(byId.notpem).toMatch(/tls\.certPath: certs\/junk\.pem is not a PEM certificate/);
    expect(byId.mismatch).toMatch(/is not the private key of the certificate/);
    expect(byId.outside).toMatch(/lies outside the workspace folder/);
    expect(byId.climbing).toBe(
      "servers/climbing.yaml:4:13: tls.certPath: ../x/cert.pem lies outside the workspace folder. Put the PEM file inside the workspace, or allow files outside the workspace on this computer (ferry config set filesOutsideWorkspace true, or filesOutsideWorkspace in the app's ⚙ Application settings).",
    );
    // Allowed on this computer: the outside files work.
    const allowed = await serve(root, { ids: ['outside'], allowFilesOutsideWorkspace: true });
    expect(allowed.failures).toEqual([]);
  });

  it('never follows a symbolic link to a certificate', async () => {
    const made = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec' });
    const root = await makeWorkspace({ servers: { s: api({ enabled: true, certPath: 'certs/link.pem', keyPath: 'certs/key.pem' }) }, files: { 'certs/cert.pem': made.cert, 'certs/key.pem': made.private } });
    await fs.symlink(path.join(root, 'certs', 'cert.pem'), path.join(root, 'certs', 'link.pem'));
    const handle = await serve(root);
    expect(handle.failures[0]!.message).toMatch(/symbolic link/);
  });

  it('never reads a certificate through a link swapped in between its check and its read (O_NOFOLLOW)', async () => {
    const made = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec' });
    const root = await makeWorkspace({ servers: {}, files: { 'certs/cert.pem': made.cert, 'certs/key.pem': made.private } });
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'secret.txt'), 'SECRET, not a certificate');
    const server = { tls: { enabled: true, certPath: 'certs/cert.pem', keyPath: 'certs/key.pem' } } as ServerFile;
    const where = { root, file: 'servers/s.yaml' };
    const cert = path.join(root, 'certs', 'cert.pem');
    // The certificate becomes a link to a file outside as its open is called, every check done.
    const { outcome, swapped } = await readWithLinkSwappedAtOpen(cert, path.join(outside, 'secret.txt'), () => loadTls(server, where));
    // Refused as a link: never read, so never "not a PEM certificate".
    expect('error' in outcome && outcome.error.message).toBe('servers/s.yaml: tls.certPath: certs/cert.pem is a symbolic link, and Ferry never follows links.');
    expect(swapped).toBe(1);
    // The same read of a plain file gives the certificate.
    await fs.rm(cert);
    await fs.writeFile(cert, made.cert);
    expect((await loadTls(server, where))?.cert).toBe(made.cert);
  });
});
