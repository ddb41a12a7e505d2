/**
 * Header captures read an answer's header as `ferry run` reads it (pm.response.headers.get): the
 * value's bytes as UTF-8, the last of a repeated header. Real servers on 127.0.0.1 write the
 * bytes themselves: plain HTTP/1.1 (Ferry's own client), HTTP/1.1 over TLS and HTTP/2 over TLS
 * and cleartext (undici); HTTP/2 must give what HTTP/1.1 gives. The captured values travel in the next request's query, where the server reads them;
 * the same request sent by a run logs what its script read, and the two must agree. A redirect's
 * Location is read by the same rule: a load test follows it to the path a run goes to.
 */
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { runLoadTest } from '../../src/load/index.js';
import { runRequests } from '../../src/runner/index.js';
import { openedWorkspace } from '../runner/workspace.js';
import { testCertificate } from '../support/servers/peers.js';

/** `é€` as UTF-8, a Latin-1 `é` (not UTF-8), a header sent twice, a header named as Object's members. */
const LOGIN_HEAD = Buffer.concat([
  Buffer.from('HTTP/1.1 200 OK\r\nx-u: '),
  Buffer.from('é€', 'utf8'),
  Buffer.from('\r\nx-l: '),
  Buffer.from([0xe9]),
  Buffer.from('\r\nX-R: first\r\nx-r: last\r\nconstructor: own\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'),
]);
const OK = Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
/** A redirect to `/café/€` written as UTF-8 bytes, as servers send a Location with non-ASCII letters. */
const MOVED = Buffer.concat([Buffer.from('HTTP/1.1 302 Found\r\nlocation: '), Buffer.from('/café/€?q=é', 'utf8'), Buffer.from('\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')]);

/** An answer whose body is past what captures keep (50 MB): a token first, then spaces (still JSON). */
const huge = () => {
  const body = Buffer.alloc(51 * 1024 * 1024, 0x20);
  body.write('{"token":"big"}');
  return Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nx-id: id-1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`), body]);
};

interface Peer {
  origin: string;
  /** The queries of the `/use` requests, as the server decoded them. */
  uses: URLSearchParams[];
  /** Every request target, as sent. */
  targets: string[];
  close(): Promise<void>;
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A server that writes its HTTP/1.1 answers byte by byte, over TCP or TLS. */
async function rawPeer(secure: boolean): Promise<Peer> {
  const uses: URLSearchParams[] = [];
  const targets: string[] = [];
  const answer = (socket: net.Socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const target = head.split(' ')[1] ?? '/';
      targets.push(target);
      if (target.startsWith('/use')) uses.push(new URL(target, 'http://x').searchParams);
      socket.end(target.startsWith('/login') ? LOGIN_HEAD : target === '/from' ? MOVED : target === '/huge' ? huge() : OK);
    });
    socket.on('error', () => {});
  };
  const server = secure ? tls.createServer(await testCertificate(), answer) : net.createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const peer = { origin: `${secure ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`, uses, targets, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  closing.push(peer.close);
  return peer;
}

/** An HTTP/2 server (TLS, or cleartext for prior knowledge) sending the same values: UTF-8 bytes in `x-u` (Node writes a header's characters as bytes), `x-r` twice. */
async function h2Peer(secure = true): Promise<Peer> {
  const uses: URLSearchParams[] = [];
  const targets: string[] = [];
  const server = secure ? http2.createSecureServer(await testCertificate()) : http2.createServer();
  server.on('stream', (stream, headers) => {
    const target = String(headers[':path']);
    targets.push(target);
    if (target.startsWith('/use')) uses.push(new URL(target, 'http://x').searchParams);
    const login = target.startsWith('/login') ? { 'x-u': Buffer.from('é€', 'utf8').toString('latin1'), 'x-l': '\u00e9', 'x-r': ['first', 'last'] } : {};
    if (target === '/from') return stream.respond({ ':status': 302, location: Buffer.from('/café/€?q=é', 'utf8').toString('latin1') }, { endStream: true });
    stream.respond({ ':status': 200, ...login });
    stream.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const peer = { origin: `${secure ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`, uses, targets, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  closing.push(peer.close);
  return peer;
}

/** The captured values a load test sent on, and what a run's script read from the same answer. */
async function bothFaces(peer: Peer, httpVersion: 'http1' | 'http2' | 'auto') {
  const read = "console.log(JSON.stringify(['x-u', 'x-r', 'x-l'].map((name) => pm.response.headers.get(name))));";
  const { ws, data } = await openedWorkspace(
    {
      'loadtests/t.yaml': {
        name: 'T',
        model: 'virtualUsers',
        thinkTimeMs: 20,
        httpVersion,
        stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.4, target: 1 }],
        targets: [
          {
            request: 'Login.yaml',
            captures: [
              { variable: 'u', from: 'header', path: 'x-u' },
              { variable: 'r', from: 'header', path: 'X-R' },
              { variable: 'l', from: 'header', path: 'x-l' },
              // The answer's own `constructor` header over HTTP/1.1; never Object's constructor.
              { variable: 'c', from: 'header', path: 'constructor' },
              { variable: 'p', from: 'header', path: '__proto__' },
            ],
          },
          { request: 'Use.yaml' },
        ],
      },
      'requests/Login.yaml': { name: 'Login', method: 'GET', url: `${peer.origin}/login`, scripts: { postResponse: read } },
      'requests/Use.yaml': { name: 'Use', method: 'GET', url: `${peer.origin}/use?u={{u}}&r={{r}}&l={{l}}&c={{c}}&p={{p}}` },
    },
    { variables: [{ key: 'c', value: 'ws-c' }, { key: 'p', value: 'ws-p' }] },
  );
  const settings = { ...DEFAULT_SETTINGS, verifyTls: false, httpVersion };
  const result = await runLoadTest({ workspace: ws, id: 't', data, settings, workers: 1 });
  expect(result.overall.errors.total).toBe(0);
  expect(peer.uses.length).toBeGreaterThan(0);
  const run = await runRequests({ workspace: ws, dataFolder: data, settings, paths: ['Login.yaml'] });
  const [u, r, l] = JSON.parse(run.results[0]!.console![0]!) as string[];
  return { load: peer.uses.map((q) => Object.fromEntries(q)), run: { u, r, l } };
}

describe('header captures read a header as ferry run reads it', () => {
  it('plain HTTP/1.1: UTF-8 as UTF-8, a byte that is not UTF-8 as U+FFFD, the last of a repeated header, an own `constructor` header', async () => {
    const { load, run } = await bothFaces(await rawPeer(false), 'http1');
    expect(run).toEqual({ u: 'é€', r: 'last', l: '\ufffd' });
    for (const sent of load) expect(sent).toEqual({ ...run, c: 'own', p: 'ws-p' });
  });

  it('HTTP/1.1 over TLS (undici): the same values', async () => {
    const { load, run } = await bothFaces(await rawPeer(true), 'http1');
    expect(run).toEqual({ u: 'é€', r: 'last', l: '\ufffd' });
    for (const sent of load) expect(sent).toEqual({ ...run, c: 'own', p: 'ws-p' });
  });

  // HTTP/2 gives the values HTTP/1.1 gives: UTF-8 (not Latin-1 bytes written again as UTF-8), the last of `x-r` (not both joined).
  for (const [secure, httpVersion] of [[true, 'http2'], [true, 'auto'], [false, 'http2']] as const) {
    it(`HTTP/2 over ${secure ? 'TLS' : 'cleartext'}, httpVersion ${httpVersion} (undici): the same values, and a header missing from the answer keeps the variable as it was`, async () => {
      const { load, run } = await bothFaces(await h2Peer(secure), httpVersion);
      expect(run).toEqual({ u: 'é€', r: 'last', l: '\ufffd' });
      for (const sent of load) expect(sent).toEqual({ ...run, c: 'ws-c', p: 'ws-p' });
    });
  }
});

describe("a redirect's Location is read as ferry run reads it", () => {
  for (const [secure, http2Peer] of [[false, false], [true, false], [true, true]] as const) {
    it(`UTF-8 letters in it go to the path a run goes to (${http2Peer ? 'HTTP/2, undici' : secure ? 'TLS, undici' : 'plain HTTP/1.1'})`, async () => {
      const peer = http2Peer ? await h2Peer() : await rawPeer(secure);
      const { ws, data } = await openedWorkspace({
        'loadtests/t.yaml': { name: 'T', model: 'virtualUsers', thinkTimeMs: 50, stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.3, target: 1 }], targets: [{ request: 'From.yaml' }] },
        'requests/From.yaml': { name: 'From', method: 'GET', url: `${peer.origin}/from` },
      });
      const settings = { ...DEFAULT_SETTINGS, verifyTls: false };
      await runRequests({ workspace: ws, dataFolder: data, settings, paths: ['From.yaml'] });
      const byRun = peer.targets.splice(0);
      expect(byRun).toEqual(['/from', '/caf%C3%A9/%E2%82%AC?q=%C3%A9']);
      const result = await runLoadTest({ workspace: ws, id: 't', data, settings, workers: 1 });
      expect(result.overall.errors.total).toBe(0);
      expect(result.overall.count).toBeGreaterThan(0);
      expect(new Set(peer.targets)).toEqual(new Set(byRun));
    });
  }
});

describe('an answer too large to keep for captures (past 50 MB)', () => {
  for (const secure of [false, true]) {
    it(`gives its body captures nothing and its header captures their value (${secure ? 'TLS, undici' : 'plain HTTP/1.1'})`, async () => {
      const peer = await rawPeer(secure);
      const { ws, data } = await openedWorkspace(
        {
          'loadtests/t.yaml': {
            name: 'T',
            model: 'virtualUsers',
            thinkTimeMs: 20,
            // Long enough for the 51 MB answer and the request after it, on a loaded machine.
            stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 3, target: 1 }],
            targets: [
              { request: 'Huge.yaml', captures: [{ variable: 'id', from: 'header', path: 'x-id' }, { variable: 'json', path: 'token' }, { variable: 'regex', from: 'regex', path: '"token":"(\\w+)"' }] },
              { request: 'Use.yaml' },
            ],
          },
          'requests/Huge.yaml': { name: 'Huge', method: 'GET', url: `${peer.origin}/huge` },
          'requests/Use.yaml': { name: 'Use', method: 'GET', url: `${peer.origin}/use?id={{id}}&json={{json}}&regex={{regex}}` },
        },
        { variables: [{ key: 'json', value: 'none' }, { key: 'regex', value: 'none' }] },
      );
      const result = await runLoadTest({ workspace: ws, id: 't', data, settings: { ...DEFAULT_SETTINGS, verifyTls: false }, workers: 1 });
      expect(result.overall.errors.total).toBe(0);
      expect(result.targets[0]!.bytesReceived).toBeGreaterThan(51 * 1024 * 1024 - 1);
      expect(peer.uses.length).toBeGreaterThan(0);
      for (const sent of peer.uses) expect(Object.fromEntries(sent)).toEqual({ id: 'id-1', json: 'none', regex: 'none' });
    }, 30_000);
  }
});
