/** A temporary workspace with server files, real servers on 127.0.0.1, and a plain HTTP client. */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach } from 'vitest';
import { stringify } from 'yaml';
import { type HttpExchangeRecord, startServers, type ServerNotice, type ServersHandle, type StartServersOptions } from '../../src/servers/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

const running: ServersHandle[] = [];

/** The traffic of servers answering HTTP (mock, SSE): their records carry an HTTP exchange's detail. */
export function exchanges(handle: ServersHandle): HttpExchangeRecord[] {
  return handle.traffic.recent() as HttpExchangeRecord[];
}

afterEach(async () => {
  while (running.length) await running.pop()!.stop();
});

export interface WorkspaceSpec {
  variables?: { key: string; value?: string; secret?: boolean; enabled?: boolean }[];
  environments?: Record<string, { key: string; value?: string; secret?: boolean }[]>;
  /** Server files by id: an object (written as YAML) or raw YAML text. */
  servers: Record<string, Record<string, unknown> | string>;
  files?: Record<string, string>;
}

export async function makeWorkspace(spec: WorkspaceSpec): Promise<string> {
  const root = await tempDir('ferry-servers-');
  await fs.writeFile(path.join(root, 'ferry.yaml'), stringify({ version: 1, id: 'servers-test', name: 'Servers test', variables: spec.variables ?? [] }));
  await fs.mkdir(path.join(root, 'servers'));
  await fs.mkdir(path.join(root, 'environments'));
  for (const [id, value] of Object.entries(spec.servers)) await writeServer(root, id, value);
  for (const [id, variables] of Object.entries(spec.environments ?? {})) {
    await fs.writeFile(path.join(root, 'environments', `${id}.yaml`), stringify({ name: id, variables }));
  }
  for (const [rel, text] of Object.entries(spec.files ?? {})) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  return root;
}

export async function writeServer(root: string, id: string, value: Record<string, unknown> | string): Promise<void> {
  const text = typeof value === 'string' ? value : stringify(value);
  // Atomic, as editors and Ferry save: a new file renamed over the old one.
  const temp = path.join(root, 'servers', `.${id}.tmp`);
  await fs.writeFile(temp, text);
  await fs.rename(temp, path.join(root, 'servers', `${id}.yaml`));
}

/** Opens the workspace and starts its servers; stopped after the test. Notices are collected. */
export async function serve(root: string, options: StartServersOptions = {}): Promise<ServersHandle & { notices: ServerNotice[] }> {
  const notices: ServerNotice[] = [];
  const workspace = await openWorkspace(root);
  const handle = await startServers(workspace, {
    certificateDir: path.join(root, '..', `${path.basename(root)}-certs`),
    onNotice: (n) => notices.push(n),
    ...options,
  });
  running.push(handle);
  return Object.assign(handle, { notices });
}

/** Starts one mock server from a route list; returns its base URL. */
export async function mock(http: Record<string, unknown>, extra: Partial<WorkspaceSpec> & { server?: Record<string, unknown> } = {}): Promise<{ url: string; handle: ServersHandle & { notices: ServerNotice[] }; root: string }> {
  const root = await makeWorkspace({ ...extra, servers: { api: { name: 'API', http, ...extra.server } } });
  const handle = await serve(root);
  if (handle.failures.length) throw new Error(handle.failures.map((f) => f.message).join('\n'));
  return { url: handle.servers[0]!.url, handle, root };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on a fresh connection (no pooling, so a reset or hang touches only this request). */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number; rawPath?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const where = { hostname: target.hostname, port: target.port, path: options.rawPath ?? `${target.pathname}${target.search}` };
    const request = http.request({ ...where, method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    request.setTimeout(options.timeoutMs ?? 5000, () => request.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    request.on('error', reject);
    request.end(options.body);
  });
}

/** Polls `check` until it returns true (at most `ms`). */
export async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (let i = 0; i < 500 && Date.now() < until; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`condition not met within ${ms} ms`);
}

/**
 * The head of the answer to one HTTP/1.1 request, as the bytes came (status line, then one
 * `Name: value` line per header, names as sent), read with a plain socket; `Date` left out.
 */
export function rawHead(url: string, requestPath: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<string[]> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error('timed out')));
    socket.on('connect', () => {
      // Host as given in `headers`, when it is (a foreign name).
      const lines = [`${options.method ?? 'GET'} ${requestPath} HTTP/1.1`, 'Connection: close'];
      if (!Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'host')) lines.push(`Host: ${target.host}`);
      for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
      if (options.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(options.body)}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n${options.body ?? ''}`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no answer head in ${JSON.stringify(text)}`));
      resolve(text.slice(0, end).split('\r\n').filter((line) => !/^date:/i.test(line)));
    });
  });
}
