/**
 * `ferry ls` marks requests whose operation left their OpenAPI document (spec 3): `(not in spec)`
 * in plain text, struck through on a terminal, `removedFromSpec: true` in JSON. The mark is made
 * by a real `ferry import` then `ferry update` from a document without the operation.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js');

function spawned(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not end in 30 s`));
    }, 30_000);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const doc = (paths: Record<string, unknown>) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, servers: [{ url: 'http://127.0.0.1:9/api' }], paths });
const list = { get: { operationId: 'listPets', summary: 'List pets', responses: { 200: { description: 'ok' } } } };
const drop = { delete: { operationId: 'dropPet', summary: 'Drop pet', responses: { 204: { description: 'gone' } } } };

let ws: string;
let data: string;
const ferry = (args: string[], env: NodeJS.ProcessEnv = {}) => spawned(process.execPath, [BIN, '-w', ws, ...args], { FERRY_DATA_DIR: data, NO_COLOR: '1', ...env });

beforeEach(async () => {
  data = await isolatedDataDir();
  ws = await tempDir();
  expect((await spawned(process.execPath, [BIN, 'init', ws, '--name', 'Zoo'], { FERRY_DATA_DIR: data })).code).toBe(0);
  await fs.writeFile(path.join(ws, 'v1.json'), doc({ '/pets': list, '/pets/{id}': drop }));
  await fs.writeFile(path.join(ws, 'v2.json'), doc({ '/pets': list }));
  expect((await ferry(['import', path.join(ws, 'v1.json')])).code).toBe(0);
  const updated = await ferry(['update', 'Pets', '--from', path.join(ws, 'v2.json')]);
  expect(updated.code, updated.stderr).toBe(0);
});

describe('ferry ls: requests no longer in their spec', () => {
  it('says (not in spec) in plain text and removedFromSpec: true in JSON, only for that request', async () => {
    const text = await ferry(['ls']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/DELETE\s+Drop pet \(not in spec\)\s+Pets\/Drop pet\.yaml/);
    expect(text.stdout).toMatch(/GET\s+List pets\s+Pets\/List pets\.yaml/);
    expect(text.stdout.match(/\(not in spec\)/g)).toHaveLength(1);

    const json = JSON.parse((await ferry(['ls', '--json'])).stdout) as { requests: Array<{ name: string; removedFromSpec?: boolean }> };
    expect(json.requests.find((r) => r.name === 'Drop pet')!.removedFromSpec).toBe(true);
    expect(json.requests.find((r) => r.name === 'List pets')).not.toHaveProperty('removedFromSpec');

    // Back in the spec: the mark goes.
    expect((await ferry(['update', 'Pets', '--from', path.join(ws, 'v1.json')])).code).toBe(0);
    expect((await ferry(['ls'])).stdout).not.toContain('(not in spec)');
    expect((await ferry(['ls', '--json'])).stdout).not.toContain('removedFromSpec');
  }, 60_000);

  it('strikes the name through on a terminal (and says it in words nowhere)', async () => {
    // `script` gives ferry a terminal for standard output.
    const quoted = [process.execPath, BIN, '-w', ws, 'ls'].map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(' ');
    const onTerminal = await spawned('script', ['-qec', quoted, '/dev/null'], { FERRY_DATA_DIR: data, NO_COLOR: '', TERM: 'xterm' });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout).toContain('\u001b[9mDrop pet\u001b[29m');
    expect(onTerminal.stdout).not.toContain('(not in spec)');
    expect(onTerminal.stdout).not.toContain('\u001b[9mList pets');
  }, 60_000);
});
