/**
 * `ferry run -r json` over a small workspace of gRPC and MCP requests with scripts and tests,
 * against real peers on loopback; and the programs allow-list end to end: refused, allowed with
 * --allow-programs, refused again once the environment changes, taken back with `ferry programs`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGrpcPeer, type GrpcPeer } from '../protocols/grpc-peer.js';
import { startStreamableHttp, type McpPeer } from '../protocols/mcp-peers.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const repo = path.join(import.meta.dirname, '..', '..');
/** The fixture program: the only program this test starts. */
const stdioCommand = `"${process.execPath}" "${path.join(repo, 'test/fixtures/mcp/stdio-server.mjs')}"`;

const files: Record<string, string> = {
  'ferry.yaml': 'version: 1\nid: protocols-run\nname: Protocols run\n',
  'requests/gRPC/Say.yaml': `name: Say
kind: grpc
url: "{{grpcUrl}}"
method: ferry.test.Echo/Say
grpc:
  protoFiles: [protos/echo.proto]
headers:
  - key: x-token
    value: "{{token}}"
body:
  type: json
  text: '{"text": "{{who}}", "big": "9007199254740993"}'
scripts:
  postResponse: |
    pm.test('greets', () => pm.expect(pm.response.json().text).to.equal('hello ann'));
    pm.test('OK', () => pm.expect(pm.response.code).to.equal(0));
    pm.test('int64 as a string', () => pm.expect(pm.response.json().big).to.equal('9007199254740993'));
`,
  'requests/gRPC/Not found.yaml': `name: Not found
kind: grpc
url: "{{grpcUrl}}"
method: ferry.test.Echo/Say
body:
  type: json
  text: '{"text": "x", "failWith": true}'
scripts:
  postResponse: |
    pm.test('NOT_FOUND', () => pm.expect(pm.response.code).to.equal(5));
    pm.test('status code, as Postman names it for gRPC', () => pm.response.to.have.statusCode(5) && pm.expect(pm.response.statusCode).to.equal(5));
    pm.test('status message', () => pm.expect(pm.response.statusMessage).to.equal('no greeting for x'));
    pm.test('trailers', () => {
      pm.expect(pm.response.trailers.get('x-why')).to.equal('no such greeting');
      pm.response.to.have.trailer('x-why', 'no such greeting');
      pm.response.to.not.have.trailer('x-echo-token');
    });
    pm.test('metadata', () => {
      pm.expect(pm.response.metadata.get('x-echo-token')).to.equal('');
      pm.response.to.have.metadata('content-type', 'application/grpc+proto');
      pm.response.to.not.have.metadata('x-why');
    });
`,
  'requests/gRPC/Count.yaml': `name: Count
kind: grpc
url: "{{grpcUrl}}"
method: ferry.test.Echo/Count
body:
  type: json
  text: '{"count": 3}'
`,
  'requests/MCP/Add.yaml': `name: Add
kind: mcp
url: "{{mcpUrl}}"
mcp:
  call: tool
  name: add
  arguments: '{"a": 2, "b": 3}'
scripts:
  postResponse: |
    pm.test('sum', () => pm.expect(pm.response.json().structuredContent.sum).to.equal(5));
`,
  'requests/MCP/Fails.yaml': `name: Fails
kind: mcp
url: "{{mcpUrl}}"
mcp:
  call: tool
  name: fail
  arguments: '{"why": "no tests"}'
`,
  'requests/MCP/Stdio.yaml': `name: Stdio
kind: mcp
url: '${stdioCommand.replaceAll("'", "''")}'
mcp:
  call: prompt
  name: greet
  arguments: '{"name": "Ann"}'
  env:
    - key: FERRY_TEST_GREETING
      value: hi
scripts:
  postResponse: |
    pm.test('prompt', () => pm.expect(pm.response.json().messages[0].content.text).to.equal('Say hello to Ann'));
`,
};

interface Report {
  summary: { requests: number; failedRequests: number; failedTests: number };
  results: Array<{ path: string; passed: boolean; error: string | null; status: number | null; statusText: string | null; detail?: Record<string, unknown>; messages?: unknown[]; tests: Array<{ name: string; passed: boolean }> }>;
}

/** The workspace of `files` with its proto files, in a temporary folder (removed after the test that made it). */
async function workspace(): Promise<string> {
  const root = await tempDir();
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), text);
  }
  await fs.mkdir(path.join(root, 'protos', 'common'), { recursive: true });
  await fs.copyFile(path.join(repo, 'test/fixtures/grpc/echo.proto'), path.join(root, 'protos/echo.proto'));
  await fs.copyFile(path.join(repo, 'test/fixtures/grpc/common/kinds.proto'), path.join(root, 'protos/common/kinds.proto'));
  return root;
}

describe('ferry run with gRPC and MCP requests', () => {
  let grpcPeer: GrpcPeer;
  let mcpPeer: McpPeer;
  let root: string;
  const run = async (...extra: string[]) => {
    const result = await ferry(['-w', root, 'run', '-r', 'json', '--var', `grpcUrl=${grpcPeer.url}`, '--var', `mcpUrl=${mcpPeer.url}`, '--var', 'who=ann', '--var', 'token=t1', ...extra]);
    if (!result.stdout.trim()) throw new Error(`ferry run printed nothing: ${result.stderr}`);
    const report = JSON.parse(result.stdout) as Report;
    return { code: result.code, report, byPath: (p: string) => report.results.find((r) => r.path === p)! };
  };

  beforeAll(async () => {
    await isolatedDataDir();
    [grpcPeer, mcpPeer] = await Promise.all([startGrpcPeer(), startStreamableHttp()]);
    root = await workspace();
  });
  afterAll(async () => {
    await Promise.all([grpcPeer?.close(), mcpPeer?.close()]);
  });

  it('runs both kinds with scripts and tests; reports carry statuses, trailers, messages and call results; programs need allowing', async () => {
    const first = await run();
    expect(first.code).toBe(1);
    const say = first.byPath('gRPC/Say.yaml');
    expect(say).toMatchObject({ passed: true, status: 0, statusText: 'OK' });
    expect(say.tests.every((t) => t.passed)).toBe(true);
    expect(grpcPeer.seen.at(-1)?.get('x-token')).toEqual(['t1']);
    expect(first.byPath('gRPC/Not found.yaml')).toMatchObject({ passed: true, status: 5, statusText: 'NOT_FOUND' });
    expect(first.byPath('gRPC/Not found.yaml').tests.map((t) => [t.name, t.passed])).toEqual([['NOT_FOUND', true], ['status code, as Postman names it for gRPC', true], ['status message', true], ['trailers', true], ['metadata', true]]);
    expect(first.byPath('gRPC/Not found.yaml').detail).toMatchObject({ statusMessage: 'no greeting for x', trailers: [['x-why', 'no such greeting']] });
    const count = first.byPath('gRPC/Count.yaml');
    expect(count.passed).toBe(true);
    expect(count.messages).toHaveLength(4); // one sent, three received
    expect(first.byPath('MCP/Add.yaml')).toMatchObject({ passed: true, detail: { result: { structuredContent: { sum: 5 } }, server: { name: 'ferry-test-mcp' } } });
    expect(first.byPath('MCP/Fails.yaml')).toMatchObject({ passed: false, statusText: 'isError' });
    const refused = first.byPath('MCP/Stdio.yaml');
    expect(refused.passed).toBe(false);
    expect(refused.error).toContain('is not allowed to start on this computer');
    expect(refused.error).toContain('--allow-programs');

    // Allowed with --allow-programs, and recorded: the next run needs no flag.
    const allowed = await run('--allow-programs', 'MCP/Stdio.yaml');
    expect(allowed.byPath('MCP/Stdio.yaml')).toMatchObject({ passed: true, detail: { transport: 'stdio' } });
    expect(String(allowed.byPath('MCP/Stdio.yaml').detail?.stderr)).toContain('ferry test MCP server on stdio');
    expect((await run('MCP/Stdio.yaml')).byPath('MCP/Stdio.yaml').passed).toBe(true);
    const listed = await ferry(['-w', root, 'programs', 'ls']);
    expect(listed.stdout).toContain(stdioCommand);
    expect(listed.stdout).toContain('env FERRY_TEST_GREETING');
    expect(listed.stdout).not.toContain('hi;');

    // A changed environment is another program: refused again.
    const file = path.join(root, 'requests/MCP/Stdio.yaml');
    await fs.writeFile(file, files['requests/MCP/Stdio.yaml']!.replace('value: hi', 'value: changed'));
    expect((await run('MCP/Stdio.yaml')).byPath('MCP/Stdio.yaml').error).toContain('not allowed');
    await fs.writeFile(file, files['requests/MCP/Stdio.yaml']!);

    // Taken back: refused again.
    const id = listed.stdout.trim().split(/\s+/)[0]!;
    const revoked = await ferry(['-w', root, 'programs', 'revoke', id]);
    expect(revoked.code).toBe(0);
    expect((await run('MCP/Stdio.yaml')).byPath('MCP/Stdio.yaml').error).toContain('not allowed');
    expect((await ferry(['-w', root, 'programs', 'ls'])).stdout).toContain('No programs are allowed');

    // Allowed ahead of a run with ferry programs allow: the exact command, folder and environment.
    await ferry(['-w', root, 'programs', 'allow', stdioCommand, '--env', 'FERRY_TEST_GREETING=hi']);
    expect((await run('MCP/Stdio.yaml')).byPath('MCP/Stdio.yaml').passed).toBe(true);
  }, 60_000);

  it('programs ls --json lists the allowed programs as data (as env, secret and cookies ls do), environment values never', async () => {
    const root = await workspace();
    await isolatedDataDir();
    expect(await ferry(['-w', root, 'programs', 'ls', '--json'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    expect((await ferry(['-w', root, 'programs', 'allow', 'node server.js --stdio', '--cwd', 'tools', '--env', 'TOKEN=s3cret'])).code).toBe(0);
    const listed = await ferry(['-w', root, 'programs', 'ls', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([{ id: expect.stringMatching(/^[0-9a-f]+$/), command: 'node server.js --stdio', cwd: 'tools', envNames: ['TOKEN'], allowedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    expect(listed.stdout).not.toContain('s3cret');
  });

  it('programs revoke of an id not allowed, or --all with none, succeeds with a notice, as the other remove commands (running.md, exit codes)', async () => {
    const root = await workspace();
    await isolatedDataDir();
    expect(await ferry(['-w', root, 'programs', 'revoke', 'beef'])).toEqual({ code: 0, stdout: '', stderr: 'ferry: no allowed program has the id beef; nothing revoked (ferry programs ls lists them).\n' });
    expect(await ferry(['-w', root, 'programs', 'revoke', '--all'])).toEqual({ code: 0, stdout: '', stderr: 'ferry: no program is allowed for this workspace; nothing revoked.\n' });
    // One that is there is still revoked, and said on stdout.
    await ferry(['-w', root, 'programs', 'allow', stdioCommand]);
    const revoked = await ferry(['-w', root, 'programs', 'revoke', '--all']);
    expect([revoked.code, revoked.stdout]).toEqual([0, expect.stringContaining(`Revoked: `)]);
    expect((await ferry(['-w', root, 'programs', 'ls'])).stdout).toContain('No programs are allowed');
  });

  it('programs revoke of an id start several programs share takes back none and says which (as git refuses an ambiguous short hash)', async () => {
    const root = await workspace();
    await isolatedDataDir();
    // Seventeen programs: two of them surely share the first of their ids' hexadecimal digits.
    for (let i = 0; i < 17; i++) expect((await ferry(['-w', root, 'programs', 'allow', `node server-${i}.js`])).code).toBe(0);
    const ids = (await ferry(['-w', root, 'programs', 'ls'])).stdout.trim().split('\n').map((line) => line.trim().split(/\s+/)[0]!);
    expect(ids).toHaveLength(17);
    const first = ids.map((id) => id[0]!).find((digit, i, all) => all.indexOf(digit) !== i)!;
    const sharing = ids.filter((id) => id.startsWith(first));
    const refused = await ferry(['-w', root, 'programs', 'revoke', first]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`ferry: ${sharing.length} allowed programs have ids starting with ${first} (${sharing.join(', ')}); nothing revoked. Give more of the id (ferry programs ls lists them), or --all.\n`);
    expect((await ferry(['-w', root, 'programs', 'ls'])).stdout.trim().split('\n')).toHaveLength(17);
    // The whole id takes back that one only.
    const one = await ferry(['-w', root, 'programs', 'revoke', sharing[0]!]);
    expect([one.code, one.stdout]).toEqual([0, expect.stringContaining(`Revoked: `)]);
    expect((await ferry(['-w', root, 'programs', 'ls'])).stdout.trim().split('\n')).toHaveLength(16);
  });

  it("shows a gRPC status as gRPC's, with its status message: the terminal's request, verbose and failure lines, and the JSON and JUnit reports", async () => {
    const root = await workspace();
    await isolatedDataDir();
    const junit = path.join(root, 'report.xml');
    const json = path.join(root, 'report.json');
    const args = ['-w', root, 'run', '-v', '--out-junit', junit, '--out-json', json, '--var', `grpcUrl=${grpcPeer.url}`, 'gRPC/Say.yaml', 'gRPC/Bare not found.yaml'];
    await fs.writeFile(path.join(root, 'requests/gRPC/Bare not found.yaml'), files['requests/gRPC/Not found.yaml']!.replace('name: Not found', 'name: Bare not found').replace(/scripts:[\s\S]*$/, ''));
    const { stdout } = await ferry([...args, '--var', 'who=ann']);
    // Not an HTTP status line: no `HTTP/2`, and the status message the server gave.
    expect(stdout).not.toMatch(/HTTP\/2 \d/);
    expect(stdout).toMatch(/✗ Bare not found [^\n]*\n {4}ferry\.test\.Echo\/Say grpc:\/\/[^ ]+ 5 NOT_FOUND: no greeting for x /);
    expect(stdout).toMatch(/\n {4}5 NOT_FOUND: no greeting for x\n {4}content-type: application\/grpc/);
    expect(stdout).toMatch(/\n {4}0 OK\n/);
    expect(stdout).toContain('    status 5 NOT_FOUND: no greeting for x: a gRPC request without tests fails unless its status is 0 OK\n');
    const xml = await fs.readFile(junit, 'utf8');
    expect(xml).toContain('name="Bare not found - status 5 NOT_FOUND"');
    expect(xml).toContain('<failure message="status 5 NOT_FOUND: no greeting for x: a gRPC request without tests fails unless its status is 0 OK"');
    const report = JSON.parse(await fs.readFile(json, 'utf8')) as { results: Array<Record<string, unknown>> };
    expect(report.results.find((r) => r.name === 'Bare not found')).toMatchObject({ status: 5, statusText: 'NOT_FOUND', statusLabel: '5 NOT_FOUND: no greeting for x' });
    expect(report.results.find((r) => r.name === 'Say')).toMatchObject({ status: 0, statusText: 'OK', statusLabel: '0 OK' });
  }, 60_000);

  it("an MCP tool's error result: its text beside the status and MCP's own rule, not HTTP's 400; every report says it alike, without Ferry's 0 and 1", async () => {
    const root = await workspace();
    await isolatedDataDir();
    await fs.writeFile(path.join(root, 'requests/MCP/Bare add.yaml'), files['requests/MCP/Add.yaml']!.replace('name: Add', 'name: Bare add').replace(/scripts:[\s\S]*$/, ''));
    const out = (name: string) => path.join(root, name);
    const { stdout } = await ferry(['-w', root, 'run', '--var', `mcpUrl=${mcpPeer.url}`, '--out-junit', out('r.xml'), '--out-json', out('r.json'), '--out-html', out('r.html'), 'MCP/Fails.yaml', 'MCP/Bare add.yaml']);
    const reason = 'status isError: failed: no tests: an MCP tool call without tests fails when its result is an error (isError: true)';
    expect(stdout).toMatch(/\n {4}http:\/\/127\.0\.0\.1:\d+\/mcp isError: failed: no tests \d+ ms/);
    expect(stdout).toMatch(/\n {4}http:\/\/127\.0\.0\.1:\d+\/mcp OK \d+ ms/);
    expect(stdout).toContain(`    ${reason}\n`);
    expect(stdout).not.toMatch(/(?<!\d)400(?!\d)/); // not HTTP's 400 (a port such as 40081 may hold the digits)

    // JUnit: the test case named by MCP's word alone (not `status 1 isError`), the failure message the terminal's reason.
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testcase' }).parse(await fs.readFile(out('r.xml'), 'utf8')) as {
      testsuites: { testsuite: { testcase: Array<{ name: string; failure?: { message: string; type: string } }> } };
    };
    const cases = xml.testsuites.testsuite.testcase;
    expect(cases.map((c) => c.name).sort()).toEqual(['Bare add - status OK', 'Fails - status isError']);
    expect(cases.find((c) => c.name === 'Fails - status isError')?.failure).toMatchObject({ message: reason, type: 'StatusFailure' });
    expect(cases.find((c) => c.name === 'Bare add - status OK')?.failure).toBeUndefined();

    // JSON keeps pm.response.code's number as data, with the label the other reports show; the HTML page shows that label.
    const json = JSON.parse(await fs.readFile(out('r.json'), 'utf8')) as { results: Array<Record<string, unknown>> };
    expect(json.results.find((r) => r.name === 'Fails')).toMatchObject({ passed: false, status: 1, statusText: 'isError', statusLabel: 'isError: failed: no tests' });
    expect(json.results.find((r) => r.name === 'Bare add')).toMatchObject({ passed: true, status: 0, statusText: 'OK', statusLabel: 'OK' });
    const html = await fs.readFile(out('r.html'), 'utf8');
    const data = JSON.parse(/<script id="ferry-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!) as { results: Array<{ name: string; statusLabel?: string }> };
    expect(data.results.map((r) => [r.name, r.statusLabel]).sort()).toEqual([['Bare add', 'OK'], ['Fails', 'isError: failed: no tests']]);
  }, 60_000);
});
