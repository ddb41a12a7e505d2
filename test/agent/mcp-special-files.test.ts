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
