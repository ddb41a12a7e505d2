/**
 * `ferry mcp`'s workspace files (resources/read, docs/agents.md) that are no regular file: a named
 * pipe (opening one for reading waits for a writer), a Unix socket, a symbolic link, a folder, and
 * a path through a file. Each read answers a clear error at once, in the resource's own words and
 * without this computer's paths; the listing leaves them out; the server answers on afterwards.
 * The real command (`bin/ferry.js mcp`, built) under the MCP SDK's stdio client; real FIFOs (the
 * `mkfifo` program) and a real socket.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_YAML_BYTES } from '../../src/workspace/files.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir } from '../support/temp.js';

const repo = path.join(import.meta.dirname, '..', '..');
const bin = path.join(repo, 'bin', 'ferry.js');

let root = '';
let outside = '';
let dataDir = '';
/** Made once for the file's tests (test/support's tempDir is removed after each test). */
const tempDir = () => fs.mkdtemp(path.join(os.tmpdir(), 'ferry-agent-pipes-'));
let client: Client;
let socket: net.Server | undefined;

beforeAll(async () => {
  if (!existsSync(path.join(repo, 'dist', 'cli', 'mcp.js'))) throw new Error('Build first: npm run build (the test spawns bin/ferry.js).');
  root = await tempDir();
  outside = await tempDir();
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: mcp-pipes\nname: Pipes\n');
  await fs.mkdir(path.join(root, 'requests', 'Sub'), { recursive: true });
  await fs.mkdir(path.join(root, 'specs'));
  await fs.writeFile(path.join(root, 'requests', 'Good.yaml'), 'name: Good\nurl: http://127.0.0.1:9/\n');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'outside the workspace\n');
  execFileSync('mkfifo', [path.join(root, 'requests', 'Pipe.yaml')]);
  execFileSync('mkfifo', [path.join(root, 'requests', 'Sub', '_folder.yaml')]);
  execFileSync('mkfifo', [path.join(root, 'specs', 'api.json')]);
  await fs.mkdir(path.join(root, 'servers'));
  execFileSync('mkfifo', [path.join(root, 'servers', 'pipe.yaml')]);
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'requests', 'Linked.yaml'));
  await fs.symlink(outside, path.join(root, 'requests', 'Elsewhere'));
  socket = net.createServer();
  await new Promise<void>((resolve, reject) => socket!.once('error', reject).listen(path.join(root, 'requests', 'api.sock'), resolve));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '-w', root],
    env: { ...getDefaultEnvironment(), FERRY_DATA_DIR: (dataDir = await tempDir()) },
    stderr: 'pipe',
  });
  client = new Client({ name: 'ferry-test', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (socket ? socket.close(() => resolve()) : resolve()));
  for (const dir of [root, outside, dataDir]) if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** The error a resources/read of `relative` answers (it must answer one, within the request's timeout). */
async function readError(relative: string): Promise<string> {
  const uri = `ferry://workspace/${relative.split('/').map(encodeURIComponent).join('/')}`;
  const outcome = await client.readResource({ uri }, { timeout: 10_000 }).then(
    (read) => `read: ${JSON.stringify(read.contents)}`,
    (error: Error) => error.message,
  );
  // Never this computer's paths: the agent gets the workspace path only.
  expect(outcome).not.toContain(root);
  expect(outcome).not.toContain(outside);
  return outcome;
}

describe('ferry mcp: workspace files that are no regular file', () => {
  it('a named pipe, a socket, a link, a folder and a path through a file each answer a clear error, none opened or followed', async () => {
    const pipe = (file: string) => `${file} is a named pipe, not a regular file; Ferry reads regular files only, so it cannot be read here. resources/list gives the files.`;
    expect(await readError('requests/Pipe.yaml')).toContain(pipe('requests/Pipe.yaml'));
    expect(await readError('requests/Sub/_folder.yaml')).toContain(pipe('requests/Sub/_folder.yaml'));
    expect(await readError('specs/api.json')).toContain(pipe('specs/api.json'));
    expect(await readError('requests/api.sock')).toContain('requests/api.sock is a socket, not a regular file; Ferry reads regular files only, so it cannot be read here. resources/list gives the files.');
    expect(await readError('requests/Linked.yaml')).toContain('Cannot read requests/Linked.yaml: requests/Linked.yaml is a symbolic link, and Ferry never follows links.');
    expect(await readError('requests/Elsewhere/secret.txt')).toContain('Cannot read requests/Elsewhere/secret.txt: requests/Elsewhere is a symbolic link, and Ferry never follows links.');
    expect(await readError('requests/Sub')).toContain('requests/Sub is a folder, not a file; resources/list gives the files.');
    expect(await readError('requests/Good.yaml/x')).toContain('There is no file requests/Good.yaml/x in the workspace.');
    // None of them is listed; the regular file beside them is, and still reads: the server did not hang on a pipe.
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name).filter((n) => n.startsWith('requests/') || n.startsWith('specs/'))).toEqual(['requests/Good.yaml']);
    const good = await client.readResource({ uri: 'ferry://workspace/requests/Good.yaml' }, { timeout: 10_000 });
    expect((good.contents[0] as { text: string }).text).toBe('name: Good\nurl: http://127.0.0.1:9/\n');
  }, 60_000);

  it('the import tool given a pipe or a socket says what it is, in workspace paths, and imports nothing', async () => {
    for (const [file, what] of [['specs/api.json', 'a named pipe'], ['requests/api.sock', 'a socket']]) {
      const result = await client.callTool({ name: 'import', arguments: { path: file } }, undefined, { timeout: 10_000 });
      const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
      expect(result.isError, text).toBe(true);
      // Before: "<this computer's path>/specs/api.json is not a file."
      expect(text).toBe(`Cannot import ${file}: ${file} is ${what}, not a regular file; Ferry reads regular files only.`);
    }
    expect((await fs.readdir(path.join(root, 'requests'))).sort()).toEqual(['Elsewhere', 'Good.yaml', 'Linked.yaml', 'Pipe.yaml', 'Sub', 'api.sock']);
  });
});

/** A tool's JSON answer (a tool error fails the test with its text). */
async function toolJson(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 10_000 });
  const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('\n');
  expect(result.isError, text).toBeFalsy();
  return JSON.parse(text) as Record<string, unknown>;
}

describe('ferry mcp: file problems carry their warning codes', () => {
  it('list_requests and list_servers give the warnings as ferry ls --json does, and a file that did not read its code', async () => {
    // Over the limit without writing 50 MB (a sparse file): listed as a request that did not read.
    const big = path.join(root, 'requests', 'Big.yaml');
    await fs.writeFile(big, '');
    await fs.truncate(big, MAX_YAML_BYTES + 1);
    try {
      await isolatedDataDir();
      const listed = await ferry(['-w', root, 'ls', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      const cli = (JSON.parse(listed.stdout) as { warnings: Array<{ file: string; code?: string }> }).warnings;
      const requests = await toolJson('list_requests');
      // One shape on the wire: the same objects as ferry ls --json, in the same order.
      expect(requests.warnings).toEqual(cli);
      expect((requests.warnings as typeof cli).map((w) => [w.file, w.code])).toEqual(expect.arrayContaining([
        ['requests/Pipe.yaml', 'fifo'], ['requests/Sub/_folder.yaml', 'fifo'], ['requests/api.sock', 'socket'],
        ['requests/Linked.yaml', 'symlink'], ['requests/Elsewhere', 'symlink'], ['requests/Big.yaml', 'too-large'],
      ]));
      expect((requests.requests as Array<{ path: string }>).find((r) => r.path === 'Big.yaml')).toEqual({
        path: 'Big.yaml', folder: '', broken: expect.stringContaining('YAML files over 50 MB are not read'), code: 'too-large',
      });
      // list_servers: the warnings of servers/ only, in the same shape.
      const servers = await toolJson('list_servers');
      expect(servers.warnings).toEqual(cli.filter((w) => w.file.startsWith('servers/')));
      expect(servers.warnings).toEqual([expect.objectContaining({ file: 'servers/pipe.yaml', code: 'fifo', namesFile: true })]);
    } finally {
      await fs.rm(big);
    }
  }, 60_000);

  it('list_servers gives the warning of a pipe, a file or a link in the place of servers/ itself, as ferry ls --json does', async () => {
    const folder = path.join(root, 'servers');
    const kept = path.join(outside, 'servers-kept');
    await fs.rename(folder, kept);
    try {
      await isolatedDataDir();
      const cases: Array<[string, () => Promise<void>, string]> = [
        ['a named pipe', async () => void execFileSync('mkfifo', [folder]), 'not-a-folder'],
        ['a regular file', () => fs.writeFile(folder, 'not a folder\n'), 'not-a-folder'],
        ['a link to a folder outside', () => fs.symlink(outside, folder), 'symlink'],
      ];
      for (const [what, make, code] of cases) {
        await make();
        const cli = (JSON.parse((await ferry(['-w', root, 'ls', '--json'])).stdout) as { warnings: Array<{ file: string; code?: string }> }).warnings;
        const servers = await toolJson('list_servers');
        expect(servers.servers, what).toEqual([]);
        expect(servers.warnings, what).toEqual(cli.filter((w) => w.file === 'servers'));
        expect(servers.warnings, what).toEqual([expect.objectContaining({ file: 'servers', code, namesFile: true })]);
        await fs.rm(folder);
      }
    } finally {
      await fs.rm(folder, { force: true });
      await fs.rename(kept, folder);
    }
  }, 60_000);
});
