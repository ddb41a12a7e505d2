/**
 * Runs of any length (issue 21): results stream to the reporters and report files as they come,
 * so a run thousands of sends long writes whole, valid reports (spooled past memory), keeps its
 * history to the data folder's limit, and a report file is replaced only once it is whole.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { HISTORY_LIMIT, WorkspaceData } from '../../src/appdata/index.js';
import { ReportFileWriter } from '../../src/runner/index.js';
import { SpoolFolder } from '../../src/runner/report-spool.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from './workspace.js';

const ITERATIONS = 2_000;

let peer: Peer;
let temp: TempWorkspace;
beforeAll(async () => {
  peer = await startHttp1();
  temp = await makeWorkspace({
    'requests/Pings/ping.yaml': { name: 'ping', url: `${peer.url}/echo`, scripts: { postResponse: "pm.test('status is 200', () => pm.response.to.have.status(200));" } },
    'requests/missing.yaml': { name: 'missing', url: `${peer.url}/status?code=404` },
  });
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  await peer.close();
  await temp.cleanup();
});

describe('a run thousands of sends long', () => {
  it('writes whole, valid JSON and JUnit reports; the summary lists the first failures and counts the rest; history stays at its limit', { timeout: 240_000 }, async () => {
    const json = path.join(temp.root, 'reports', 'run.json');
    const junit = path.join(temp.root, 'reports', 'run.xml');
    const result = await ferry(['-w', temp.root, 'run', '-n', String(ITERATIONS), '--out-json', json, '--out-junit', junit]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1); // `missing` fails each iteration

    const report = JSON.parse(await fs.readFile(json, 'utf8'));
    expect(report.version).toBe(1);
    expect(report.summary).toMatchObject({ requests: 2 * ITERATIONS, failedRequests: ITERATIONS, tests: ITERATIONS, failedTests: 0, iterations: ITERATIONS, bailed: false, interrupted: false });
    expect(report.results).toHaveLength(2 * ITERATIONS);
    expect(report.results.map((r: { iteration: number }) => r.iteration)).toEqual(Array.from({ length: 2 * ITERATIONS }, (_, i) => Math.floor(i / 2)));
    expect(report.results.filter((r: { name: string; status: number; passed: boolean }) => r.name === 'ping' && r.status === 200 && r.passed)).toHaveLength(ITERATIONS);
    // The same text a report built whole would have.
    expect(await fs.readFile(json, 'utf8')).toBe(`${JSON.stringify(report, null, 2)}\n`);

    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(await fs.readFile(junit, 'utf8'));
    const suites = [xml.testsuites.testsuite].flat();
    expect(xml.testsuites).toMatchObject({ tests: String(2 * ITERATIONS), failures: String(ITERATIONS), errors: '0' });
    expect(suites.map((s: { name: string; tests: string }) => [s.name, s.tests])).toEqual([['Pings', String(ITERATIONS)], ['Run tests', String(ITERATIONS)]]);
    expect(suites.map((s: { testcase: unknown[] }) => s.testcase.length)).toEqual([ITERATIONS, ITERATIONS]);
    expect((await fs.readdir(path.dirname(json))).sort()).toEqual(['run.json', 'run.xml']); // no temporary file left

    expect(result.stdout).toMatch(/\n {2}50\. missing\.yaml \(iteration 50\)\n/);
    expect(result.stdout).not.toMatch(/\n {2}51\. /);
    expect(result.stdout).toContain(`… and ${ITERATIONS - 50} more failed requests: each is shown above (and in the JSON report, -r json).`);

    const ws = await openWorkspace(temp.root);
    const history = await new WorkspaceData(ws.id, ws.root).readHistory();
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history.at(-1)).toMatchObject({ path: 'missing.yaml', status: 404 });
  });
});

describe('report spools', () => {
  it('give back exactly what was appended, in memory or past it, in pieces ending at line ends', async () => {
    const spools = new SpoolFolder();
    const small = spools.spool();
    const large = spools.spool();
    small.append('{"a": 1}');
    const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${'é'.repeat(i % 97)} ✓\n`);
    for (const line of lines) large.append(line);
    large.append('no end of line');
    const read = async (spool: typeof small) => {
      const pieces: string[] = [];
      for await (const piece of spool.read()) pieces.push(piece);
      return pieces;
    };
    expect(await read(small)).toEqual(['{"a": 1}']);
    const pieces = await read(large);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(`${lines.join('')}no end of line`);
    for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n')).toBe(true);
    await spools.remove();
  });
});

describe('a run killed with kill -9', () => {
  it('leaves its spool folder only in the temporary folder, and the next run with a report removes it', { timeout: 120_000 }, async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-spool-tmp-'));
    const reports = path.join(temp.root, 'killed-reports');
    const child = spawn(process.execPath, [path.resolve('bin/ferry.js'), '-w', temp.root, 'run', '-n', '1000000', '--out-json', path.join(reports, 'r.json')], { env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
    const spoolOf = async () => (await fs.readdir(tmp)).find((name) => name.startsWith(`ferry-report-${child.pid}-`));
    await expect.poll(spoolOf, { timeout: 60_000, interval: 100 }).toBeDefined();
    child.kill('SIGKILL');
    await once(child, 'exit');
    const orphan = (await spoolOf())!;
    expect(existsSync(reports) ? await fs.readdir(reports) : []).toEqual([]); // nothing half-written in the workspace
    const live = path.join(tmp, `ferry-report-${process.pid}-kept`); // a running process's folder stays
    await fs.mkdir(live);

    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const result = await ferry(['-w', temp.root, 'run', 'Pings', '--out-json', path.join(reports, 'next.json')]);
      expect(result.code).toBe(0);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    expect(existsSync(path.join(tmp, orphan))).toBe(false);
    expect(existsSync(live)).toBe(true);
    await fs.rm(tmp, { recursive: true, force: true });
  });
});

describe('a report file written in pieces', () => {
  it('replaces the old report only when whole; one that cannot be put in place keeps the old one and is kept beside it, named', async () => {
    const dir = path.join(temp.root, 'pieces');
    await fs.mkdir(dir);
    const file = path.join(dir, 'r.json');
    await fs.writeFile(file, 'old report');
    const writer = new ReportFileWriter(file, '--out-json');
    await writer.write('{"new":');
    expect(await fs.readFile(file, 'utf8')).toBe('old report');
    await writer.write(' true}\n');
    await writer.end();
    expect(await fs.readFile(file, 'utf8')).toBe('{"new": true}\n');

    // The target became a folder while the run went on: the rename fails; the report is kept, and the message says where.
    const blocked = path.join(dir, 'blocked.json');
    const failing = new ReportFileWriter(blocked, '--out-json');
    await failing.write('text');
    await fs.mkdir(blocked);
    await fs.writeFile(path.join(blocked, 'keep'), 'x');
    const error = await failing.end().then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/^--out-json: the report could not be put in place of .*blocked\.json \((EISDIR|ENOTEMPTY|EEXIST)\); it was kept as .*\.blocked\.json\.\d+\.[0-9a-f]+\.tmp: move it where you want it\.$/);
    const kept = /kept as (.*): move it/.exec(error!.message)![1]!;
    expect(await fs.readFile(kept, 'utf8')).toBe('text');
    expect((await fs.readdir(dir)).sort()).toEqual([path.basename(kept), 'blocked.json', 'r.json'].sort());
    expect(await fs.readdir(blocked)).toEqual(['keep']);
  });
});
