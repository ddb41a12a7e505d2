/**
 * Ctrl-C (or SIGTERM) in a `ferry` process's first moments, while it loads its modules: before,
 * Node ended the process on the spot (exit 130, nothing said, no report), where the same key a
 * moment later stopped the run with its summary and reports; `ferry load`, `import` and `update`
 * likewise take it from their command's start. Real processes of bin/ferry.js,
 * held at the load of Ferry's bundle by a loader hook (support/hold-bundle-load) until the test
 * has sent the signal; a real server that would see any request sent.
 */
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry, initedWorkspace } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
const HOLD = path.resolve(import.meta.dirname, '..', 'support', 'hold-bundle-load', 'hold.mjs');

const seen: string[] = [];
const server = createServer((request, response) => {
  seen.push(request.url ?? '');
  response.end('{}');
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A workspace with one request to the test server, and its own data folder. */
async function workspace(): Promise<{ ws: string; data: string }> {
  const { ws, data } = await initedWorkspace();
  await fs.writeFile(path.join(ws, 'requests', 'ping.yaml'), `name: ping\nmethod: GET\nurl: ${base}/ping\n`);
  return { ws, data };
}

/** Every file under `dir` with its text (folders as `path/`): what a command must leave as it was. */
async function tree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, full);
    files[entry.isDirectory() ? `${name}/` : name] = entry.isDirectory() ? '' : await fs.readFile(full, 'utf8');
  }
  return files;
}

/** `ferry ARGS` in a process of its own, `signal` sent to it while it loads Ferry's modules. */
async function signalledWhileLoading(args: string[], data: string, signal: NodeJS.Signals) {
  const fifo = path.join(await tempDir(), 'hold');
  execFileSync('mkfifo', [fifo]);
  const child = spawn(process.execPath, ['--import', HOLD, BIN, ...args], { env: { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: data, FERRY_HOLD_FIFO: fifo } });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (output.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output.stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, by) => resolve({ code, signal: by })));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    // Opening the pipe waits until the process is loading the bundle (the hook opened its end).
    const pipe = await fs.open(fifo, 'w');
    child.kill(signal);
    await pipe.close();
    return { ...(await done), ...output };
  } finally {
    clearTimeout(killer);
  }
}

describe('a signal while ferry loads', () => {
  it('ferry run, Ctrl-C: stopped as a later Ctrl-C stops it (the message, the summary, the report saying so, exit 1), and nothing sent', async () => {
    const { ws, data } = await workspace();
    const out = path.join(ws, 'out', 'r.json');
    const before = seen.length;
    const result = await signalledWhileLoading(['-w', ws, 'run', '--out-json', out], data, 'SIGINT');
    expect(result.signal, result.stderr).toBe(null);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('ferry: stopping: the request in flight is cancelled; the summary and reports follow (Ctrl-C again to quit at once).\n');
    expect(result.stdout).toContain('Stopped by Ctrl-C: the request in flight was cancelled, and the ones after it were not run.');
    expect(result.stdout).toMatch(/STOPPED\n$/);
    const report = JSON.parse(await fs.readFile(out, 'utf8'));
    expect(report.summary).toMatchObject({ requests: 0, interrupted: true, stoppedBy: 'Ctrl-C' });
    expect(seen.slice(before)).toEqual([]);
  }, 90_000);

  it('ferry run, SIGTERM: stopped with the summary and the report, as a later SIGTERM', async () => {
    const { ws, data } = await workspace();
    const out = path.join(ws, 'out', 'r.json');
    const result = await signalledWhileLoading(['-w', ws, 'run', '--out-json', out], data, 'SIGTERM');
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^ferry: stopping \(SIGTERM\): /);
    const report = JSON.parse(await fs.readFile(out, 'utf8'));
    expect(report.summary).toMatchObject({ requests: 0, interrupted: true, stoppedBy: 'SIGTERM' });
  }, 90_000);

  it('ferry load, Ctrl-C: stopped as a later Ctrl-C stops it (the message, the partial result, its file saying so, exit 1), and nothing sent', async () => {
    const { ws, data } = await workspace();
    await fs.mkdir(path.join(ws, 'loadtests'), { recursive: true });
    await fs.writeFile(path.join(ws, 'loadtests', 'smoke.yaml'), 'name: smoke\ntargets:\n  - request: ping.yaml\nmodel: arrivalRate\nstages:\n  - { durationSecs: 0, target: 20 }\n  - { durationSecs: 2, target: 20 }\n');
    const out = path.join(ws, 'out', 'load.json');
    const before = seen.length;
    const result = await signalledWhileLoading(['-w', ws, 'load', 'smoke', '--out-json', out], data, 'SIGINT');
    expect(result.signal, result.stderr).toBe(null);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('ferry: stopping: requests in flight are cancelled; the partial result follows (Ctrl-C again to quit at once).\n');
    expect(result.stdout).toContain('Interrupted: the result is partial.');
    const report = JSON.parse(await fs.readFile(out, 'utf8'));
    expect(report).toMatchObject({ interrupted: true, passed: false, loadTest: { id: 'smoke' } });
    expect(seen.slice(before)).toEqual([]);
  }, 90_000);

  it('ferry import, Ctrl-C: says nothing was imported (exit 1), and the workspace is as it was', async () => {
    const { ws, data } = await workspace();
    const before = await tree(ws);
    const result = await signalledWhileLoading(['-w', ws, 'import', '--curl', `curl ${base}/imported`], data, 'SIGINT');
    expect(result.signal, result.stderr).toBe(null);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('ferry: Interrupted: nothing was imported.\n');
    expect(result.stdout).toBe('');
    expect(await tree(ws)).toEqual(before);
  }, 90_000);

  it('ferry update, SIGTERM: says nothing was updated (exit 1), the folder is as it was, and the same update then works', async () => {
    const { ws, data } = await workspace();
    const doc = path.join(ws, 'api.yaml');
    const operation = (summary: string) => ({ get: { summary, responses: { 200: { description: 'OK' } } } });
    const openapi = (paths: Record<string, unknown>) => JSON.stringify({ openapi: '3.0.0', info: { title: 'Api', version: '1' }, servers: [{ url: base }], paths });
    await fs.writeFile(doc, openapi({ '/a': operation('A') }));
    expect((await ferry(['-w', ws, 'import', doc])).code).toBe(0);
    await fs.writeFile(doc, openapi({ '/a': operation('A'), '/b': operation('B') }));
    const before = await tree(ws);
    const result = await signalledWhileLoading(['-w', ws, 'update', 'Api'], data, 'SIGTERM');
    expect(result.signal, result.stderr).toBe(null);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe('ferry: Interrupted: nothing was updated.\n');
    expect(await tree(ws)).toEqual(before);
    const again = await ferry(['-w', ws, 'update', 'Api']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('+ GET /b  B');
  }, 90_000);

  it('a command that does not take Ctrl-C (ferry ls) ends on it as Node ends, once it starts: the signal is not swallowed', async () => {
    const { ws, data } = await workspace();
    const result = await signalledWhileLoading(['-w', ws, 'ls'], data, 'SIGINT');
    expect(result).toMatchObject({ code: null, signal: 'SIGINT' });
  }, 90_000);
});
