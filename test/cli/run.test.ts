import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { ferry, ferryStarted } from '../support/cli.js';
import { inCiJob } from '../../src/cli/run.js';
import { closedPort, freePort, startHttp1, type Peer } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

let peer: Peer;
const temps: TempWorkspace[] = [];
beforeAll(async () => {
  peer = await startHttp1();
});
afterAll(() => peer.close());
afterEach(async () => {
  await Promise.all(temps.splice(0).map((t) => t.cleanup()));
});

async function workspace(): Promise<TempWorkspace> {
  const temp = await makeWorkspace(
    {
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'base', value: peer.url }] },
      'requests/Users/get user.yaml': {
        name: 'get user',
        url: '{{base}}/echo?who={{who}}',
        scripts: { postResponse: "pm.test('status is 200', () => pm.response.to.have.status(200));" },
      },
      'requests/Users/missing.yaml': { name: 'missing', url: '{{base}}/status?code=404', seq: 5 },
      'requests/health.yaml': { name: 'health', url: '{{base}}/echo' },
    },
    { variables: [{ key: 'who', value: 'file' }] },
  );
  temps.push(temp);
  process.env.FERRY_DATA_DIR = temp.dataDir;
  return temp;
}

describe('ferry run', () => {
  it('prints each request and a summary; exit 1 when a request fails', async () => {
    const ws = await workspace();
    const result = await ferry(['-w', ws.root, 'run', '-e', 'local']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ferry run · Run tests · environment Local · 3 requests/);
    expect(result.stdout).toMatch(/✓ get user Users\/get user\.yaml\n {4}GET http:\/\/127\.0\.0\.1:\d+\/echo\?who=file 200 OK \d+ ms · \d+(\.\d)? (B|kB)\n {4}✓ status is 200/);
    expect(result.stdout).toMatch(/✗ missing Users\/missing\.yaml[\s\S]*status 404 Not Found: a request without tests fails at 400 and above/);
    expect(result.stdout).toMatch(/3 requests, 1 failed\n {2}1 test\n/);
    expect(result.stdout).not.toMatch(/\u001b\[/); // no colour off a terminal
  });

  it('runs one request by path (extension optional) or a folder; exit 0 when all pass', async () => {
    const ws = await workspace();
    const one = await ferry(['-w', ws.root, 'run', 'Users/get user', '-e', 'Local', '--var', 'who=cli', '-r', 'json']);
    expect(one.code).toBe(0);
    const report = JSON.parse(one.stdout);
    expect(report).toMatchObject({ version: 1, summary: { requests: 1, failedRequests: 0, tests: 1, failedTests: 0 } });
    expect(report.results[0]).toMatchObject({ path: 'Users/get user.yaml', name: 'get user', kind: 'http', method: 'GET', status: 200, error: null, iteration: 0 });
    expect(report.results[0].url).toMatch(/who=cli$/);
    expect(report.results[0].tests).toEqual([{ name: 'status is 200', passed: true, message: null }]);

    const folder = await ferry(['-w', ws.root, 'run', 'requests/Users/', '-e', 'local', '--env-var', 'who=alias', '-r', 'json']);
    expect(JSON.parse(folder.stdout).results.map((r: { path: string }) => r.path)).toEqual(['Users/get user.yaml', 'Users/missing.yaml']);
    expect(JSON.parse(folder.stdout).results[0].url).toMatch(/who=alias$/);
  });

  it('a request or folder whose file name starts with - (named so by hand or by an older Ferry) is run after --, or as ./NAME or requests/NAME', async () => {
    const ws = await workspace();
    await fs.writeFile(path.join(ws.root, 'requests', '-rf.yaml'), 'name: "-rf"\nurl: "{{base}}/echo"\n');
    await fs.mkdir(path.join(ws.root, 'requests', '-dir'));
    await fs.writeFile(path.join(ws.root, 'requests', '-dir', '--help.yaml'), 'name: "--help"\nurl: "{{base}}/echo"\n');
    const paths = async (...selection: string[]) => {
      const result = await ferry(['-w', ws.root, 'run', '-e', 'local', '-r', 'json', ...selection]);
      expect(result.code, `${selection.join(' ')}: ${result.stderr}`).toBe(0);
      return JSON.parse(result.stdout).results.map((r: { path: string }) => r.path);
    };
    expect(await paths('--', '-rf')).toEqual(['-rf.yaml']);
    expect(await paths('./-rf')).toEqual(['-rf.yaml']);
    expect(await paths('requests/-rf.yaml')).toEqual(['-rf.yaml']);
    expect(await paths('--', '-dir/--help')).toEqual(['-dir/--help.yaml']);
    expect(await paths('--', '-dir')).toEqual(['-dir/--help.yaml']);
  });

  it('a path as the shell gives it (absolute, or from the current folder) runs the request or folder there; one outside the workspace is refused, saying so', async () => {
    const ws = await workspace();
    const paths = async (cwd: string, ...selection: string[]) => {
      const result = await ferry(['-w', ws.root, 'run', '-e', 'local', '-r', 'json', ...selection], cwd);
      // Run, whatever its outcome (Users/missing.yaml fails): not refused.
      expect(result.code, `${selection.join(' ')}: ${result.stderr}`).toBeLessThan(2);
      return JSON.parse(result.stdout).results.map((r: { path: string }) => r.path);
    };
    const users = path.join(ws.root, 'requests', 'Users');
    expect(await paths(ws.root, path.join(users, 'get user.yaml'))).toEqual(['Users/get user.yaml']);
    expect(await paths(users, 'get user.yaml')).toEqual(['Users/get user.yaml']);
    expect(await paths(path.join(ws.root, 'requests'), './health.yaml')).toEqual(['health.yaml']);
    expect(await paths(path.dirname(ws.root), `${path.basename(ws.root)}/requests/Users/`)).toEqual(['Users/get user.yaml', 'Users/missing.yaml']);
    // A path of the workspace wins over the same words read from the current folder.
    expect(await paths(users, 'health')).toEqual(['health.yaml']);
    // ls and export read them the same way.
    expect((await ferry(['-w', ws.root, 'ls', '--json', users])).stdout).toContain('"get user"');
    const exported = await ferry(['-w', ws.root, 'export', 'get user.yaml', '-e', 'local'], users);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^curl .*\/echo\?who=file/);

    const outside = path.join(path.dirname(ws.root), 'other.yaml');
    for (const [given, cwd] of [[outside, ws.root], ['../other.yaml', ws.root], ['ferry.yaml', ws.root]] as const) {
      const result = await ferry(['-w', ws.root, 'run', given], cwd);
      expect(result.code, given).toBe(2);
      expect(result.stderr, given).toContain(`ferry: "${given}" is not under this workspace's requests/ folder (${path.join(ws.root, 'requests')}): ferry run takes requests and folders there.`);
    }
  });

  it('-r json with --out-junit: JSON on stdout, JUnit in its file', async () => {
    const ws = await workspace();
    const xml = path.join(ws.root, 'out', 'junit.xml');
    const result = await ferry(['-w', ws.root, 'run', 'Users/get user', '-e', 'local', '-r', 'json', '--out-junit', xml]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).summary).toMatchObject({ requests: 1, tests: 1 });
    expect(await fs.readFile(xml, 'utf8')).toMatch(/<testcase name="get user - status is 200"/);
  });

  it('writes JSON and JUnit files next to the cli output, with --data rows and iterations', async () => {
    const ws = await workspace();
    await fs.writeFile(path.join(ws.root, 'rows.csv'), 'who\nann\nbea\n');
    const out = path.join(ws.root, 'out');
    const result = await ferry(['-w', ws.root, 'run', 'Users/get user.yaml', '-e', 'local', '-d', path.join(ws.root, 'rows.csv'), '-r', 'cli,json', '--out-json', path.join(out, 'r.json'), '--out-junit', path.join(out, 'r.xml')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Iteration 1\/2[\s\S]*Iteration 2\/2/);
    const report = JSON.parse(await fs.readFile(path.join(out, 'r.json'), 'utf8'));
    expect(report.results.map((r: { url: string }) => new URL(r.url).searchParams.get('who'))).toEqual(['ann', 'bea']);
    const xml = await fs.readFile(path.join(out, 'r.xml'), 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
  });

  it('a data-file value with quoted line breaks keeps them in the URL, encoded as Newman sends them (%0A, %0D)', async () => {
    const ws = await workspace();
    await ws.write('requests/lines.yaml', { name: 'lines', url: '{{base}}/echo/{{who}}?who={{who}}' });
    await fs.writeFile(path.join(ws.root, 'rows.csv'), 'who\n"a\nb c\r\nd"\n');
    const before = peer.seen.length;
    const result = await ferry(['-w', ws.root, 'run', 'lines', '-e', 'local', '-d', path.join(ws.root, 'rows.csv'), '-r', 'json']);
    expect(result.code, result.stderr).toBe(0);
    // Newman sends /echo/a%0Ab%20c%0D%0Ad?who=a%0Ab%20c%0D%0Ad for this row (checked with newman run -d).
    expect(peer.seen.slice(before).map((x) => x.url)).toEqual(['/echo/a%0Ab%20c%0D%0Ad?who=a%0Ab%20c%0D%0Ad']);
    const sent = new URL(JSON.parse(result.stdout).results[0].url);
    expect(sent.searchParams.get('who')).toBe('a\nb c\r\nd');
  });

  it('Ctrl-C cancels the request in flight, skips the rest, and still writes the summary and the reports', async () => {
    const ws = await workspace();
    await ws.write('requests/0 slow.yaml', { name: 'slow', seq: -1, url: `${peer.url}/slow?ms=20000` });
    const out = path.join(ws.root, 'out', 'r.json');
    const before = peer.seen.length;
    const listeners = process.listenerCount('SIGINT');
    const running = ferry(['-w', ws.root, 'run', '-e', 'local', '--out-json', out]);
    // Wait until the slow request reached the server (an event, no polling), then press Ctrl-C.
    await peer.waitForRequest((x) => x.url.startsWith('/slow'), before);
    // Only with ferry's own handler in place: a library's signal-exit handler alone would end the test process.
    expect(process.listenerCount('SIGINT')).toBe(listeners + 1);
    process.emit('SIGINT');
    const result = await running;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stopping: the request in flight is cancelled/);
    expect(result.stdout).toMatch(/1 request, 1 failed/);
    expect(result.stdout).toContain('Stopped by Ctrl-C: the request in flight was cancelled, and the ones after it were not run.');
    const report = JSON.parse(await fs.readFile(out, 'utf8'));
    expect(report.summary).toMatchObject({ interrupted: true, bailed: false });
    expect(report.results.map((r: { name: string; error: string }) => [r.name, r.error])).toEqual([['slow', 'the request was cancelled.']]);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  });

  it('Ctrl-C in the --delay-ms pause stops at once, sends nothing more, and exits 1 (not PASSED)', async () => {
    const ws = await workspace();
    const before = peer.seen.length;
    const running = ferryStarted(['-w', ws.root, 'run', 'health', 'Users/get user', '-e', 'local', '--delay-ms', '120000']);
    // The first answer printed: the run goes on to its pause, longer than the test's own timeout,
    // so a Ctrl-C that does not cut the pause fails the test.
    await running.printed(/\/echo 200 OK/);
    process.emit('SIGINT');
    const result = await running.done;
    expect(result.code).toBe(1);
    expect(peer.seen.slice(before).some((x) => x.url.startsWith('/echo?who='))).toBe(false);
    expect(result.stdout).toMatch(/1 request\n/);
    expect(result.stdout).toMatch(/STOPPED\n$/);
  });

  it('SIGTERM (a CI job cancelled or timed out) stops the run as Ctrl-C does: summary, partial reports that say so, exit 1', async () => {
    const ws = await workspace();
    await ws.write('requests/0 slow.yaml', { name: 'slow', seq: -1, url: `${peer.url}/slow?ms=20000` });
    const out = path.join(ws.root, 'out');
    const before = peer.seen.length;
    // The real CLI in a process of its own: Node's default for SIGTERM is to die on the spot.
    const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js'), '-w', ws.root, 'run', '-e', 'local', '--out-json', path.join(out, 'r.json'), '--out-junit', path.join(out, 'r.xml')], {
      env: { ...process.env, FERRY_DATA_DIR: ws.dataDir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    try {
      await peer.waitForRequest((x) => x.url.startsWith('/slow'), before);
      child.kill('SIGTERM');
      expect(await exited).toBe(1);
    } finally {
      clearTimeout(killer);
    }
    expect(stderr).toMatch(/ferry: stopping \(SIGTERM\): the request in flight is cancelled/);
    expect(stdout).toContain('Stopped by SIGTERM: the request in flight was cancelled, and the ones after it were not run.');
    const report = JSON.parse(await fs.readFile(path.join(out, 'r.json'), 'utf8'));
    expect(report.summary).toMatchObject({ requests: 1, interrupted: true, stoppedBy: 'SIGTERM' });
    // The JUnit report says it is partial, where CI shows it: an error testcase, valid against the schema.
    const xml = await fs.readFile(path.join(out, 'r.xml'), 'utf8');
    expect(xml).toMatch(/<testcase name="run stopped by SIGTERM" classname="ferry" time="0\.000">\s*<error message="Stopped by SIGTERM: the request in flight was cancelled, and the ones after it were not run; this report is partial\." type="Interrupted"/);
    const schema = await fs.readFile(path.join(import.meta.dirname, '..', 'runner', 'fixtures', 'junit-10.xsd'), 'utf8');
    expect((await validateXML({ xml: [{ fileName: 'r.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: schema }] })).errors).toEqual([]);
  });

  it('with -r json or -r junit on stdout, the run\'s warnings go to stderr (once, not with the terminal report)', async () => {
    const ws = await workspace();
    await ws.write('requests/jump.yaml', { name: 'jump', url: `${peer.url}/echo`, scripts: { postResponse: "pm.execution.setNextRequest('nowhere');" } });
    const warning = 'ferry: warning: setNextRequest("nowhere") in jump.yaml names no request of this run';
    for (const reporter of ['json', 'junit']) {
      const result = await ferry(['-w', ws.root, 'run', 'jump', '-e', 'local', '-r', reporter]);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(warning);
      if (reporter === 'junit') expect(result.stdout).not.toContain('warning');
      // The JSON report keeps them too, for what reads it rather than the log.
      else expect(JSON.parse(result.stdout).warnings).toEqual([warning.replace('ferry: warning: ', '') + ', so the iteration ended there (as Postman does).']);
    }
    const terminal = await ferry(['-w', ws.root, 'run', 'jump', '-e', 'local']);
    expect(terminal.stdout).toContain('! setNextRequest("nowhere") in jump.yaml names no request');
    expect(terminal.stderr).not.toContain('warning');
  });

  it("--folder NAME finds a folder (or request) by its name at any depth, as Newman's --folder does; a name several have is refused with their paths", async () => {
    const ws = await workspace();
    await ws.write('requests/Users/Admin/_folder.yaml', { name: 'Admins' });
    await ws.write('requests/Users/Admin/list.yaml', { name: 'list admins', url: `${peer.url}/echo?admins` });
    await ws.write('requests/Users/Admin/drop.yaml', { name: 'drop admin', url: `${peer.url}/echo?drop` });
    const paths = async (...args: string[]) => {
      const result = await ferry(['-w', ws.root, 'run', '-e', 'local', '-r', 'json', ...args]);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout).results.map((r: { path: string }) => r.path);
    };
    // By the folder's name on disk or its display name, any case; and a request by its name.
    expect(await paths('--folder', 'Admin')).toEqual(['Users/Admin/drop.yaml', 'Users/Admin/list.yaml']);
    expect(await paths('--folder', 'admins')).toEqual(['Users/Admin/drop.yaml', 'Users/Admin/list.yaml']);
    expect(await paths('--folder', 'list admins')).toEqual(['Users/Admin/list.yaml']);
    // A path from the root still wins over a name found deeper.
    expect(await paths('--folder', 'Users/Admin/list')).toEqual(['Users/Admin/list.yaml']);
    await ws.write('requests/Orders/Admin/audit.yaml', { name: 'audit', url: `${peer.url}/echo?audit` });
    const twice = await ferry(['-w', ws.root, 'run', '-e', 'local', '--folder', 'Admin']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe('ferry: "Admin" names 2 folders: Orders/Admin, Users/Admin. Give the path of the one to run.\n');
  });

  it('a folder and a request of the same name side by side (Users/ and Users.yaml): Users/ runs the folder, Users.yaml the request, a bare Users is refused naming both; ls the same', async () => {
    const ws = await workspace();
    await ws.write('requests/Users.yaml', { name: 'all users', url: `${peer.url}/echo?all` });
    const paths = async (...args: string[]) => {
      const result = await ferry(['-w', ws.root, 'run', '-e', 'local', '-r', 'json', ...args]);
      expect(result.code, result.stderr).toBeLessThan(2);
      return JSON.parse(result.stdout).results.map((r: { path: string }) => r.path);
    };
    expect(await paths('Users/')).toEqual(['Users/get user.yaml', 'Users/missing.yaml']);
    expect(await paths('--folder', 'requests/Users/')).toEqual(['Users/get user.yaml', 'Users/missing.yaml']);
    expect(await paths('Users.yaml')).toEqual(['Users.yaml']);
    const both = await ferry(['-w', ws.root, 'run', '-e', 'local', 'Users']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('ferry: "Users" names both the request Users.yaml and the folder Users/. Give Users.yaml for the request or Users/ for the folder.\n');
    // A name found at any depth: the trailing / keeps to folders there too.
    await ws.write('requests/Orders/Admin.yaml', { name: 'admin', url: `${peer.url}/echo?admin` });
    await ws.write('requests/Teams/Admin/list.yaml', { name: 'list', url: `${peer.url}/echo?list` });
    expect(await paths('Admin/')).toEqual(['Teams/Admin/list.yaml']);
    const listed = async (what: string) => {
      const result = await ferry(['-w', ws.root, 'ls', what, '--json']);
      expect(result.code, result.stderr).toBe(0);
      const out: string[] = [];
      const walk = (items: Array<{ path: string; children?: unknown[] }>) => items.forEach((i) => (i.children ? walk(i.children as never) : out.push(i.path)));
      walk(JSON.parse(result.stdout).requests);
      return out;
    };
    expect(await listed('Users/')).toEqual(['Users/get user.yaml', 'Users/missing.yaml']);
    expect(await listed('Users.yaml')).toEqual(['Users.yaml']);
    const lsBoth = await ferry(['-w', ws.root, 'ls', 'Users']);
    expect(lsBoth.code).toBe(2);
    expect(lsBoth.stderr).toContain('"Users" names both the request Users.yaml and the folder Users/.');
  });

  it('a timeout set by --timeout-ms is named as such, not as the request\'s settings.timeoutMs (which may say something else)', async () => {
    const ws = await workspace();
    await ws.write('requests/slow.yaml', { name: 'slow', url: `${peer.url}/slow?ms=5000`, settings: { timeoutMs: 60000 } });
    const result = await ferry(['-w', ws.root, 'run', 'slow', '-e', 'local', '--timeout-ms', '200', '-r', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).results[0].error).toBe('timed out after 200 ms (--timeout-ms); no complete response by then.');
  });

  it('--out-json - (and --out-junit -, --out-html -) means stdout, as - does for curl -o and most CLI tools, not a file named "-"', async () => {
    const ws = await workspace();
    const result = await ferry(['-w', ws.root, 'run', 'Users/get user', '-e', 'local', '--out-json', '-'], ws.root);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).summary).toMatchObject({ requests: 1, tests: 1 });
    await expect(fs.stat(path.join(ws.root, '-'))).rejects.toThrow();
    const junit = await ferry(['-w', ws.root, 'run', 'Users/get user', '-e', 'local', '-r', 'json', '--out-json', path.join(ws.root, 'r.json'), '--out-junit', '-'], ws.root);
    expect(junit.stdout).toMatch(/^<\?xml/);
    // With the terminal report asked for too, two reports would share stdout: refused as -r cli,json is.
    const both = await ferry(['-w', ws.root, 'run', 'Users/get user', '-e', 'local', '-r', 'cli', '--out-json', '-'], ws.root);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Only one report can go to stdout, and cli already does: the JSON report needs a file: add --out-json FILE.');
  });

  it('two reports named to the same file are refused before anything is sent (one would silently replace the other)', async () => {
    const ws = await workspace();
    const before = peer.seen.length;
    const result = await ferry(['-w', ws.root, 'run', 'health', '-e', 'local', '--out-json', path.join(ws.root, 'r.out'), '--out-junit', 'r.out'], ws.root);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--out-json and --out-junit both name ${path.join(ws.root, 'r.out')}: each report needs its own file.`);
    expect(peer.seen.length).toBe(before);
    await expect(fs.stat(path.join(ws.root, 'r.out'))).rejects.toThrow();
  });

  it('one Ctrl-C delivered twice at once (timeout -s INT signals the process, then its group) still ends with the report', async () => {
    const ws = await workspace();
    await ws.write('requests/0 slow.yaml', { name: 'slow', seq: -1, url: `${peer.url}/slow?ms=20000` });
    const before = peer.seen.length;
    const listeners = process.listenerCount('SIGINT');
    const running = ferry(['-w', ws.root, 'run', '-e', 'local', '-r', 'json']);
    await peer.waitForRequest((x) => x.url.startsWith('/slow'), before);
    // Node reads both deliveries from its signal pipe in one turn and emits them back to back.
    // Before the fix the second one was taken for a second press: process.exit(130), no report.
    process.emit('SIGINT');
    process.emit('SIGINT');
    const result = await running;
    expect(result.code).toBe(1);
    expect(result.stderr.match(/stopping:/g)).toHaveLength(1);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toMatchObject({ requests: 1, failedRequests: 1 });
    expect(report.results.map((r: { name: string; error: string }) => [r.name, r.error])).toEqual([['slow', 'the request was cancelled.']]);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  });

  it("Newman's spellings of options Ferry has under another name are refused with the Ferry option to type, before anything is sent", async () => {
    const ws = await workspace();
    const cases: Array<[string[], string]> = [
      [['--reporters', 'cli,junit'], "--reporters is Newman's spelling: in Ferry use -r/--reporter cli,junit (repeatable or comma-separated: cli, json, junit, html)."],
      [['--reporter-junit-export', 'out/junit.xml'], "--reporter-junit-export is Newman's spelling: in Ferry use --out-junit out/junit.xml."],
      [['--reporter-json-export', 'r.json'], "--reporter-json-export is Newman's spelling: in Ferry use --out-json r.json."],
      [['--reporter-htmlextra-export', 'r.html'], "--reporter-htmlextra-export is Newman's spelling: in Ferry use --out-html r.html."],
      [['--iteration-count', '3'], "--iteration-count is Newman's spelling: in Ferry use -n/--iterations 3."],
      [['--iteration-data', 'rows.csv'], "--iteration-data is Newman's spelling: in Ferry use -d/--data rows.csv."],
      [['--delay-request', '200'], "--delay-request is Newman's spelling: in Ferry use --delay-ms 200."],
      [['--timeout-request', '5000'], "--timeout-request is Newman's spelling: in Ferry use --timeout-ms 5000."],
      [['--environment', 'local'], "--environment is Newman's spelling: in Ferry use -e/--env local (an environment of the workspace, by id or name)."],
      [['--global-var', 'who=x'], "--global-var is Newman's spelling: in Ferry use --var who=x (it wins over every other definition)."],
      [['-g', 'globals.json'], 'Ferry has no globals file (-g/--globals): import it once with `ferry import globals.json` (it becomes an environment) and choose it with -e NAME, or give each value with --var key=value.'],
      [['--timeout', '60000'], 'Ferry has no time limit on the whole run (--timeout): --timeout-ms N limits each request; for the whole run, use your CI\'s job timeout or `timeout 60s ferry run …`.'],
      [['-x'], 'Ferry has no option to ignore failures (-x/--suppress-exit-code): add `|| true` after the command where a failed run must not fail the job.'],
      [['--color', 'off'], 'Ferry has no --color option: set NO_COLOR=1 for no colour, FORCE_COLOR=1 for colour into a pipe or a file.'],
      [['--no-color'], 'Ferry has no --color option: set NO_COLOR=1 for no colour, FORCE_COLOR=1 for colour into a pipe or a file.'],
      [['--ignore-redirects'], 'Ferry has no --ignore-redirects: set followRedirects: false in a request\'s settings, or for every request with `ferry config set followRedirects false`.'],
      [['--ssl-extra-ca-certs', 'ca.pem'], 'Ferry has no --ssl-extra-ca-certs: trust extra certificate authorities with `ferry config set caFiles FILE` (docs/running.md, Certificates).'],
      [['--ssl-client-cert', 'c.pem'], 'Ferry has no --ssl-client-cert: set client certificates by host with `ferry config set clientCertificates \'[{"host":…,"certPath":…,"keyPath":…}]\'` (docs/running.md, Certificates).'],
      [['--cookie-jar', 'jar.json'], 'Ferry has no --cookie-jar: a run uses the workspace\'s cookie jar on this computer (`ferry cookies ls`, `ferry cookies clear`).'],
    ];
    const sent = peer.seen.length;
    for (const [args, message] of cases) {
      const result = await ferry(['-w', ws.root, 'run', '-e', 'local', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toBe(`ferry: ${message}\n`);
    }
    // A Newman environment file after --environment: import it first, as with -e.
    const file = await ferry(['-w', ws.root, 'run', '--environment', 'staging.postman_environment.json']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('Import the file once with `ferry import staging.postman_environment.json`');
    // Newman's --bail modifiers (--bail failure) read as a path: the message says what --bail is here.
    const bail = await ferry(['-w', ws.root, 'run', '-e', 'local', '--bail', 'failure']);
    expect(bail.code).toBe(2);
    expect(bail.stderr).toContain('--bail takes no value in Ferry (it stops at the first failed request or test, as Newman\'s --bail failure): leave out "failure".');
    expect(peer.seen.length).toBe(sent);
  });

  it('a report folder where no file can be made (though access() says writable: root, /proc, a read-only mount) is refused before anything is sent', async () => {
    const ws = await workspace();
    const sent = peer.seen.length;
    // /proc lets root pass access(W_OK) and refuses every new file: before, all requests ran and the run then ended with exit 2.
    const result = await ferry(['-w', ws.root, 'run', '-e', 'local', '--out-junit', '/proc/ferry-junit.xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ferry: --out-junit \/proc\/ferry-junit\.xml cannot be written \(E[A-Z]+\); give a path in a folder you can write to\.\n$/);
    expect(result.stdout).toBe('');
    expect(peer.seen.length).toBe(sent);
  });

  it('a refused run leaves no report folder behind: the folders it made for --out-* are removed, the ones that were there stay', async () => {
    const ws = await workspace();
    await fs.mkdir(path.join(ws.root, 'kept'));
    const cases: string[][] = [
      ['run', '-e', 'typo', '--out-junit', 'reports/x.xml'],
      ['run', 'Nope/none.yaml', '--out-json', 'out/deep/r.json', '--out-html', 'kept/new/r.html'],
      ['run', '--start-servers', 'Nope/none.yaml', '--out-junit', 'reports/x.xml'],
    ];
    for (const args of cases) {
      const result = await ferry(['-w', ws.root, ...args], ws.root);
      expect(result.code, args.join(' ')).toBe(2);
      expect((await fs.readdir(ws.root)).sort(), args.join(' ')).toEqual(['environments', 'ferry.yaml', 'kept', 'requests']);
      expect(await fs.readdir(path.join(ws.root, 'kept')), args.join(' ')).toEqual([]);
    }
    // A run that goes ahead makes the folder and writes its report there.
    const ran = await ferry(['-w', ws.root, 'run', 'health', '-e', 'local', '--out-junit', 'reports/x.xml'], ws.root);
    expect(ran.code).toBe(0);
    expect(await fs.readdir(path.join(ws.root, 'reports'))).toEqual(['x.xml']);
  });

  it('OAuth 2.0 authorization code in CI (CI set, no terminal) fails at once saying what to do, instead of waiting 5 minutes for a browser', async () => {
    const ws = await workspace();
    const port = await freePort();
    await ws.write('requests/signed in.yaml', {
      name: 'signed in',
      url: '{{base}}/echo',
      auth: { type: 'oauth2', grantType: 'authorizationCode', tokenUrl: `${peer.url}/token`, authUrl: `${peer.url}/authorize`, redirectUri: `http://127.0.0.1:${port}/callback`, clientId: 'spa', pkce: true },
    });
    const previous = process.env.CI;
    process.env.CI = 'true';
    try {
      const sent = peer.seen.length;
      const result = await ferry(['-w', ws.root, 'run', 'signed in', 'health', '-e', 'local', '-r', 'json']);
      expect(result.code).toBe(1);
      expect(result.stderr).not.toMatch(/open this URL/);
      const [signedIn, health] = JSON.parse(result.stdout).results;
      expect(signedIn.error).toBe(
        'requests/signed in.yaml: OAuth 2.0 authorization code needs someone to sign in in a browser: this run is not interactive (CI is set and there is no terminal), so Ferry does not wait for one. ' +
          "Get a token beforehand and pass it with --var (ferry run --var token=…, with the request's auth set to bearer {{token}}), or use the client credentials grant, which needs no browser.",
      );
      // The run goes on: the next request is sent; the signed-in one never was.
      expect(health).toMatchObject({ status: 200, error: null });
      expect(peer.seen.length).toBe(sent + 1);
      // The rule: CI set (not false or 0) and no terminal on stdin or stderr.
      expect([inCiJob({ CI: 'true' }, false), inCiJob({ CI: '1' }, false), inCiJob({ CI: 'true' }, true), inCiJob({ CI: 'false' }, false), inCiJob({ CI: '0' }, false), inCiJob({ CI: '' }, false), inCiJob({}, false)]).toEqual([true, true, false, false, false, false, false]);
    } finally {
      if (previous === undefined) delete process.env.CI;
      else process.env.CI = previous;
    }
  });

  it('bad usage and bad input exit 2 with a message', async () => {
    const ws = await workspace();
    await ws.write('environments/broken.yaml', 'name: [unclosed');
    // A folder in the (cloned) workspace that is a link elsewhere: reports are not written through it.
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-elsewhere-'));
    await fs.symlink(elsewhere, path.join(ws.root, 'reports'));
    const cases: Array<[string[], RegExp]> = [
      [['run', 'Nope/none.yaml'], /No request or folder "Nope\/none.yaml"/],
      // An environment file that does not parse is named with its problem, not called missing.
      [['run', '-e', 'broken'], /Environment "broken" cannot be used: environments\/broken\.yaml:\d+:\d+: YAML syntax error/],
      [['run', '-e', 'prod'], /No environment "prod"\. Environments here: local/],
      [['run', '--var', 'novalue'], /--var expects key=value/],
      [['run', '-r', 'tap'], /Unknown reporter "tap". Reporters: cli, json, junit, html./],
      // Newman's HTML reporters: Ferry's html is the one to ask for.
      [['run', '-r', 'cli,htmlextra'], /Unknown reporter "htmlextra". Reporters: cli, json, junit, html \(html writes one self-contained page, as Newman's htmlextra: -r html --out-html FILE\)\./],
      [['run', '-r', 'cli,json'], /Only one report can go to stdout, and cli already does: the JSON report needs a file: add --out-json FILE/],
      [['run', '-r', 'cli', '-r', 'junit'], /the JUnit report needs a file: add --out-junit FILE/],
      [['run', '-n', '0'], /--iterations takes a whole number of 1 or more/],
      [['run', '--delay-ms', 'soon'], /--delay-ms takes a whole number from 0 to 2147483647, not "soon"/],
      // Node's timers hold 2^31 - 1 ms: a longer timeout fired at once.
      [['run', '--timeout-ms', '3000000000'], /--timeout-ms takes a whole number from 0 to 2147483647, not "3000000000"/],
      [['run', '-d', 'missing.csv'], /: Data file .*missing\.csv does not exist/],
      // Report paths are checked before anything is sent.
      [['run', '--out-json', ws.root], /--out-json .* is a folder; give the path of a file/],
      [['run', '--out-junit', path.join(ws.root, 'ferry.yaml', 'r.xml')], /--out-junit .*ferry\.yaml is a file, not a folder/],
      [['run', '--out-json', path.join(ws.root, 'reports', 'run.json')], /--out-json .*run\.json: reports is a symbolic link, and Ferry never follows links; give another path\./],
    ];
    const sent = peer.seen.length;
    for (const [args, message] of cases) {
      const result = await ferry(['-w', ws.root, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(peer.seen.length).toBe(sent);
    expect(await fs.readdir(elsewhere)).toEqual([]);
    await fs.rm(elsewhere, { recursive: true, force: true });
  });
});

/** Every key path of a JSON value (`summary.requests`, `results[].tests[].name`). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length ? keyPaths(value[0], `${prefix}[]`) : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${prefix}${prefix ? '.' : ''}${key}`, ...keyPaths(inner, `${prefix}${prefix ? '.' : ''}${key}`)]);
}

describe('the JSON report as documented', () => {
  it('the samples in README.md and docs/running.md name only fields the real report has, and the issue\'s fields are all there', async () => {
    const ws = await workspace();
    const result = await ferry(['-w', ws.root, 'run', 'Users/get user', '-e', 'local', '-r', 'json']);
    const real = new Set(keyPaths(JSON.parse(result.stdout)));
    const required = ['version', 'summary.requests', 'summary.failedRequests', 'summary.tests', 'summary.failedTests', 'summary.durationMs'];
    for (const field of ['path', 'name', 'kind', 'method', 'url', 'status', 'durationMs', 'error', 'iteration', 'tests', 'tests[].name', 'tests[].passed', 'tests[].message']) required.push(`results[].${field}`);
    for (const field of required) expect(real, field).toContain(field);
    const repo = path.join(import.meta.dirname, '..', '..');
    for (const doc of ['README.md', 'docs/running.md']) {
      const text = await fs.readFile(path.join(repo, doc), 'utf8');
      const sample = /```json\n(\{\n\s*"version": 1[\s\S]*?)```/.exec(text);
      expect(sample, doc).not.toBeNull();
      for (const field of keyPaths(JSON.parse(sample![1]!))) expect(real, `${doc}: ${field}`).toContain(field);
    }
  });
});

describe('ferry run --start-servers', () => {
  it("starts the workspace's autoStart servers for the run and stops them after", async () => {
    const ws = await workspace();
    const port = await closedPort();
    await ws.write('servers/mock.yaml', { name: 'Mock', port, autoStart: true, http: { routes: [{ path: '/ok', body: 'mocked', stauts: 201 }] } });
    await ws.write('requests/mock.yaml', { name: 'mock', url: `http://127.0.0.1:${port}/ok`, scripts: { postResponse: "pm.test('mocked', () => pm.expect(pm.response.text()).to.eql('mocked'));" } });
    const result = await ferry(['-w', ws.root, 'run', 'mock', '--start-servers', '-r', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).results[0]).toMatchObject({ status: 200, passed: true });
    expect(result.stderr).toMatch(/Started server mock at http:\/\/127\.0\.0\.1:\d+/);
    // A misspelt field of the server file does nothing, and is said once (docs/servers.md).
    expect(result.stderr).toContain('ferry: servers/mock.yaml: fields that servers do not have are ignored: http.routes[0].stauts (did you mean status?).');
    // Stopped after the run: the port is free again.
    const after = await ferry(['-w', ws.root, 'run', 'mock', '-r', 'json']);
    expect(JSON.parse(after.stdout).results[0].error).toMatch(/connection refused/);
  });

  it('a server file name holding an ESC sequence or U+202E is written escaped on stderr, as ferry serve writes it into a pipe', async () => {
    const ws = await workspace();
    const port = await closedPort();
    await ws.write('servers/mock\x1b]0;PWNED\x07\u202eX.yaml', { name: 'Mock', port, autoStart: true, http: { routes: [{ path: '/ok', body: 'mocked' }] } });
    await ws.write('requests/mock.yaml', { name: 'mock', url: `http://127.0.0.1:${port}/ok` });
    const result = await ferry(['-w', ws.root, 'run', 'mock', '--start-servers', '-r', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^Started server mock\\x1b\]0;PWNED\\x07\\u202eX at http:\/\/127\.0\.0\.1:\d+\n$/);
  });
});

describe('ferry config', () => {
  it('lists, gets and sets application settings', async () => {
    await workspace();
    const list = await ferry(['config', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/timeoutMs\s+30000 +\(default\)/);
    // The "(default)" marks stand in one column.
    const marks = list.stdout.split('\n').filter((l) => l.includes('(default)')).map((l) => l.indexOf('(default)'));
    expect(new Set(marks).size).toBe(1);
    expect(list.stdout).toMatch(/filesOutsideWorkspace\s+false/);
    // One long value (a noProxy list, a clientCertificates entry) does not push every mark far
    // right: the column is capped; the long value is shown whole, on its own line's end.
    const hosts = Array.from({ length: 12 }, (_, i) => `host-${i}.internal.example.com`).join(',');
    expect((await ferry(['config', 'set', 'noProxy', hosts])).code).toBe(0);
    const long = (await ferry(['config', 'list'])).stdout.split('\n');
    expect(long.find((l) => l.startsWith('noProxy'))).toMatch(new RegExp(`^noProxy +${hosts.replaceAll('.', '\\.')}$`));
    const capped = long.filter((l) => l.includes('(default)')).map((l) => l.indexOf('(default)'));
    expect(new Set(capped).size).toBe(1);
    expect(capped[0]).toBe(marks[0]);
    expect((await ferry(['config', 'set', 'noProxy', 'none'])).code).toBe(0);
    expect((await ferry(['config', 'set', 'timeoutMs', '1234'])).stdout).toMatch(/timeoutMs = 1234/);
    expect((await ferry(['config', 'get', 'timeoutMs'])).stdout.trim()).toBe('1234');
    const json = JSON.parse((await ferry(['config', 'list', '--json'])).stdout);
    expect(json).toMatchObject({ timeoutMs: 1234, followRedirects: true, maxRedirects: 10, verifyTls: true, httpVersion: 'auto', decompress: true });
    const bad = await ferry(['config', 'set', 'verifyTls', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/takes true or false/);
    const unknown = await ferry(['config', 'get', 'colour']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown setting "colour"/);
    expect((await ferry(['config', 'get'])).code).toBe(2);
    // Script limits the engine cannot work with are refused here, not by a stack trace in a run.
    for (const [key, value, message] of [
      ['scriptTimeoutMs', '0', /scriptTimeoutMs takes a whole number from 1 to 2147483647, not "0"/],
      ['scriptMemoryMb', '2', /scriptMemoryMb takes a whole number from 4 to 2000, not "2"/],
      ['scriptMemoryMb', '100000', /from 4 to 2000/],
    ] as const) {
      const refused = await ferry(['config', 'set', key, value]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(message);
    }
    expect((await ferry(['config', 'set', 'scriptMemoryMb', '2000'])).code).toBe(0);
  });

  it('maxRedirects past the bound request files have is refused, naming the setting, the value and the range', async () => {
    await workspace();
    const refused = await ferry(['config', 'set', 'maxRedirects', '1001']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Setting maxRedirects takes a whole number from 0 to 1000, not "1001".');
    expect((await ferry(['config', 'get', 'maxRedirects'])).stdout.trim()).toBe('10');
    expect((await ferry(['config', 'set', 'maxRedirects', '1000'])).stdout).toMatch(/maxRedirects = 1000/);
  });

  it('the settings apply to runs', async () => {
    const ws = await workspace();
    await ws.write('requests/slow.yaml', { name: 'slow', url: `${peer.url}/slow?ms=3000` });
    await ferry(['config', 'set', 'timeoutMs', '100']);
    const result = await ferry(['-w', ws.root, 'run', 'slow', '-r', 'json']);
    expect(JSON.parse(result.stdout).results[0].error).toMatch(/timed out after 100 ms/);
  });
});
