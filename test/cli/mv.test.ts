/**
 * `ferry mv OLD NEW`: renames and moves of requests and folders on real files (spawned
 * `bin/ferry.js`): files renamed by 2.1's rules, `seq` and comments kept, load test targets
 * follow; bad input (unknown path, an existing name, out of the workspace) changes nothing.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isolatedDataDir, tempDir, folderSnapshot } from '../support/temp.js';

const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js');

let ws: string;
let data: string;

function ferry(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '-w', ws, ...args], { env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`ferry ${args.join(' ')} did not end in 30 s`))), 30_000);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

const read = async (rel: string) => fs.readFile(path.join(ws, rel), 'utf8');
const exists = async (rel: string) => fs.lstat(path.join(ws, rel)).then(() => true, () => false);

beforeEach(async () => {
  data = await isolatedDataDir();
  ws = await tempDir();
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await fs.writeFile(path.join(ws, rel), text);
  };
  await write('ferry.yaml', 'version: 1\nid: mv-cli\nname: Mv\n');
  await write('requests/Users/Get user.yaml', '# kept comment\nname: Get user\nseq: 7\nmethod: GET\nurl: http://127.0.0.1:9/u\n');
  await write('requests/Users/List.yaml', 'name: List\nseq: 2\n');
  await write('requests/Admin/Tools.yaml', 'name: Tools\n');
  await write('requests/Admin/Taken.yaml', 'name: Taken\n');
  await write('loadtests/smoke.yaml', 'name: smoke\ntargets:\n  - request: Users/Get user.yaml\n  - request: Users/List.yaml\nstages:\n  - durationSecs: 1\n    target: 1\nthresholds:\n  - metric: p95\n    op: "<"\n    value: 100\n    target: Users/Get user.yaml\n');
});

describe('ferry mv', () => {
  it('renames a request: the file follows, seq and comment kept, load test targets updated', async () => {
    const renamed = await ferry(['mv', 'Users/Get user', 'Users/Fetch user']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stderr).toContain('ferry: moved Users/Get user.yaml to Users/Fetch user.yaml');
    expect(await exists('requests/Users/Get user.yaml')).toBe(false);
    const text = await read('requests/Users/Fetch user.yaml');
    expect(text).toContain('# kept comment');
    expect(parse(text)).toMatchObject({ name: 'Fetch user', seq: 7, url: 'http://127.0.0.1:9/u' });
    const smoke = parse(await read('loadtests/smoke.yaml'));
    expect(smoke.targets.map((t: { request: string }) => t.request)).toEqual(['Users/Fetch user.yaml', 'Users/List.yaml']);
    expect(smoke.thresholds[0].target).toBe('Users/Fetch user.yaml');
  }, 60_000);

  it('load test targets written without .yaml, or in another case, follow too, keeping how they were written', async () => {
    await fs.writeFile(path.join(ws, 'loadtests', 'short.yaml'), 'name: short\ntargets:\n  - request: users/get user\n  - request: Users/List\nstages:\n  - durationSecs: 1\n    target: 1\n');
    expect((await ferry(['mv', 'Users/Get user', 'Users/Fetch user'])).code).toBe(0);
    expect((await ferry(['mv', 'Users', 'People'])).code).toBe(0);
    const short = parse(await read('loadtests/short.yaml'));
    expect(short.targets.map((t: { request: string }) => t.request)).toEqual(['People/Fetch user', 'People/List']);
    expect(parse(await read('loadtests/smoke.yaml')).targets.map((t: { request: string }) => t.request)).toEqual(['People/Fetch user.yaml', 'People/List.yaml']);
  }, 60_000);

  it('moves a request into a folder, and renames and moves in one go', async () => {
    expect((await ferry(['mv', 'Users/List.yaml', 'Admin'])).code).toBe(0);
    expect(parse(await read('requests/Admin/List.yaml'))).toMatchObject({ name: 'List', seq: 2 });
    expect((await ferry(['mv', 'Admin/List', 'All users'])).code).toBe(0);
    expect(parse(await read('requests/All users.yaml'))).toMatchObject({ name: 'All users', seq: 2 });
    expect(parse(await read('loadtests/smoke.yaml')).targets[1].request).toBe('All users.yaml');
  }, 60_000);

  it('renames and moves folders with their subtree; load tests follow', async () => {
    expect((await ferry(['mv', 'Users', 'People'])).code).toBe(0);
    expect(await exists('requests/People/Get user.yaml')).toBe(true);
    expect(parse(await read('loadtests/smoke.yaml')).targets[0].request).toBe('People/Get user.yaml');
    const moved = await ferry(['mv', 'People', 'Admin']);
    expect(moved.stderr).toContain('moved People to Admin/People');
    expect(parse(await read('loadtests/smoke.yaml')).targets[0].request).toBe('Admin/People/Get user.yaml');
    expect(parse(await read('requests/Admin/People/Get user.yaml')).seq).toBe(7);
  }, 60_000);

  it('refuses bad input and changes nothing: unknown path, an existing name, out of the workspace, into itself', async () => {
    await fs.writeFile(path.join(ws, 'requests/Admin/Caf\u00e9.yaml'), 'name: Caf\u00e9\n');
    await ferry(['ls']); // opening a workspace adds its standard folders (environments/)
    const before = await folderSnapshot(ws);
    const cases: Array<[string[], RegExp]> = [
      [['mv', 'Nope', 'Admin'], /No request or folder "Nope" under requests\/\. `ferry ls` lists the paths\./],
      [['mv', 'Users/Get user', 'Admin/Taken'], /"Admin\/Taken\.yaml" already exists there; choose another name/],
      [['mv', 'Users/Get user', 'Admin/TAKEN.yaml'], /already exists there/],
      // The same name on a macOS disk (é as e + a combining accent): refused, not written over it there.
      [['mv', 'Users/Get user', 'Admin/Cafe\u0301'], /"Admin\/Caf\u00e9\.yaml" already exists there/],
      [['mv', 'Users', 'Admin/Tools'], /"Admin\/Tools\.yaml" already exists there/],
      [['mv', 'Users/Get user', '../outside'], /"\.\.\/outside" is not a place in this workspace/],
      [['mv', 'Users/Get user', '/tmp/x'], /is not a place in this workspace/],
      [['mv', 'Users/Get user', 'Users/../../x'], /is not a place in this workspace/],
      [['mv', 'Users/Get user', 'Missing/Thing'], /No folder "Missing" to move into/],
      [['mv', 'Users', 'Users/Inner'], /No folder "Users\/Inner"|into itself/],
      [['mv', 'Users/List', 'Users'], /already there with that name; nothing to do/],
      [['mv', 'Users/List', `Users/${'n'.repeat(201)}`], /A name can have at most 200 characters; this one has 201/],
      [['mv', 'Users', 'x'.repeat(201)], /A name can have at most 200 characters/],
    ];
    for (const [args, message] of cases) {
      const result = await ferry(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(await folderSnapshot(ws)).toEqual(before);
  }, 120_000);
});
