/** The Session API over a real HTTP server on loopback: unsaved requests, shared state, cancel. */
import { once, EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { parseResource, type RequestFile } from '../../src/model/index.js';
import { SelectError } from '../../src/runner/index.js';
import { Session } from '../../src/session/index.js';
import { openedWorkspace } from '../runner/workspace.js';

/** Answers `/login` with a cookie, `/token` with a token, `/echo` with what it got; `/hang` never answers. */
function startServer() {
  const events = new EventEmitter();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/login') {
      res.setHeader('Set-Cookie', 'sid=s-42; Path=/');
      res.end('ok');
    } else if (url.pathname === '/token') {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ token: 't-123' }));
    } else if (url.pathname === '/hang') {
      req.socket.once('close', () => events.emit('hang-closed'));
      events.emit('hang');
    } else {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ cookie: req.headers.cookie ?? null, token: req.headers['x-token'] ?? null, folder: req.headers['x-folder'] ?? null }));
    }
  });
  return new Promise<{ url: string; events: EventEmitter; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        events,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

function request(data: Record<string, unknown>): RequestFile {
  const parsed = parseResource('request', data);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

let peer: Awaited<ReturnType<typeof startServer>>;
const sessions: Session[] = [];
beforeEach(async () => {
  peer = await startServer();
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await peer.close();
});

async function open(files: Record<string, unknown> = {}) {
  const { ws, data } = await openedWorkspace({ 'requests/F/_folder.yaml': { name: 'F', headers: [{ key: 'X-Folder', value: 'from-folder' }] }, ...files });
  const session = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
  sessions.push(session);
  return { session, ws, data };
}

describe('Session', () => {
  it('sends an unsaved request placed in a folder: the folder applies, the result is the runner’s', async () => {
    const { session } = await open();
    const draft = request({ name: 'Draft', url: `${peer.url}/echo`, scripts: { postResponse: "pm.test('folder header', () => pm.expect(pm.response.json().folder).to.eql('from-folder'));" } });
    const result = await session.send({ request: draft, path: 'F/Draft.yaml' });
    expect(result).toMatchObject({ path: 'F/Draft.yaml', name: 'Draft', kind: 'http', folder: 'F', method: 'GET', status: 200, passed: true, iteration: 0 });
    expect(result.error).toBeUndefined();
    expect(result.tests).toEqual([{ name: 'folder header', passed: true }]);
    expect(result.url).toBe(`${peer.url}/echo`);
    await expect(session.send({ request: request({ name: 'Lost', url: `${peer.url}/echo` }), path: 'Nowhere/Lost.yaml' })).rejects.toThrow(SelectError);
  });

  it('keeps cookies and script-set variables from one send to the next, and sends saved requests by path', async () => {
    const { session } = await open({
      'requests/Login.yaml': { name: 'Login', url: `${peer.url}/login` },
      'requests/F/Inside.yaml': { name: 'Inside', url: `${peer.url}/echo` },
      'requests/Token.yaml': { name: 'Token', url: `${peer.url}/token`, scripts: { postResponse: "pm.collectionVariables.set('token', pm.response.json().token);" } },
    });
    expect((await session.send('Login')).status).toBe(200);
    expect((await session.send('Token.yaml')).tests).toEqual([]);
    const echo = request({ name: 'Echo', url: `${peer.url}/echo`, headers: [{ key: 'X-Token', value: '{{token}}' }], scripts: { postResponse: "pm.test('state kept', () => { pm.expect(pm.response.json().cookie).to.eql('sid=s-42'); pm.expect(pm.response.json().token).to.eql('t-123'); });" } });
    const result = await session.send({ request: echo, path: 'Echo.yaml' });
    expect(result.tests).toEqual([{ name: 'state kept', passed: true }]);
    expect(result.passed).toBe(true);
    await expect(session.send('F')).rejects.toThrow(/is a folder/);
  });

  it('cancels a send through its AbortSignal, and the session goes on sending', async () => {
    const { session } = await open();
    const abort = new AbortController();
    const arrived = once(peer.events, 'hang');
    const sending = session.send({ request: request({ name: 'Hang', url: `${peer.url}/hang` }), path: 'Hang.yaml' }, { signal: abort.signal });
    await arrived;
    const closed = once(peer.events, 'hang-closed');
    abort.abort();
    const result = await sending;
    expect(result.error).toBe('the request was cancelled.');
    expect(result.passed).toBe(false);
    await closed;
    expect((await session.send({ request: request({ name: 'After', url: `${peer.url}/echo` }), path: 'After.yaml' })).status).toBe(200);
  });

  it('runs paths like ferry run, in the same state, and writes history when it closes', async () => {
    const { session, data } = await open({ 'requests/F/One.yaml': { name: 'One', url: `${peer.url}/login` } });
    const outcome = await session.run(['F']);
    expect(outcome.summary).toMatchObject({ requests: 1, failedRequests: 0 });
    const echoed = await session.send({ request: request({ name: 'Echo', url: `${peer.url}/echo` }), path: 'F/Echo.yaml' });
    expect(echoed.status).toBe(200);
    expect(await session.close()).toEqual([]);
    const history = await data.readHistory();
    expect(history.map((h) => h.path)).toEqual(['F/One.yaml', 'F/Echo.yaml']);
  });
});
