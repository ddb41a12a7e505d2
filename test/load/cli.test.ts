/**
 * `ferry load` and `ferry load merge` end to end: bad input (exit 2, nothing sent), thresholds and
 * exit codes, the JSON shape, segments merged equal one run, and Ctrl-C in a real process.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeHistogram } from '../../src/load/histogram.js';
import type { LoadResult } from '../../src/load/index.js';
import { readLoadHistory } from '../../src/load/index.js';
import { parse } from 'yaml';
import { ferry, ferryOnTerminal } from '../support/cli.js';
import { openedWorkspace } from '../runner/workspace.js';
import { startTargetServer, type TargetServer } from './target-server.js';

let server: TargetServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const steady = (rate: number, secs: number) => [{ durationSecs: 0, target: rate }, { durationSecs: secs, target: rate }];
/**
 * `steady`, then a second with no arrivals: the last request (due 33 ms before the end at 30/s)
 * is still sent when the generator's timer fires late on a loaded machine. Without the quiet
 * second it was dropped (due when the stages are over), and a count of 30 read 29.
 */
const steadyThenQuiet = (rate: number, secs: number) => [...steady(rate, secs), { durationSecs: 0, target: 0 }, { durationSecs: 1, target: 0 }];

async function workspace(loadtests: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  server = await startTargetServer();
  const files: Record<string, unknown> = {
    'requests/A.yaml': { name: 'A', method: 'GET', url: `${server.url}/a` },
    'requests/Fail.yaml': { name: 'Fail', method: 'GET', url: `${server.url}/fail` },
    'requests/Events.yaml': { name: 'Events', kind: 'sse', method: 'GET', url: `${server.url}/events` },
    ...extra,
  };
  for (const [id, test] of Object.entries(loadtests)) files[`loadtests/${id}.yaml`] = { name: id, targets: [{ request: 'A.yaml' }], model: 'arrivalRate', stages: steady(20, 0.5), ...test };
  const opened = await openedWorkspace(files);
  return { ...opened, root: opened.temp.root, server };
}

describe('ferry load: bad input is refused before anything is sent (exit 2)', () => {
  it('names the problem: unknown id (listing ids), missing or non-HTTP target, stages, thresholds, data file, http3', async () => {
    const { root, server } = await workspace({
      ok: {},
      missing: { targets: [{ request: 'Nope.yaml' }] },
      sse: { targets: [{ request: 'Events.yaml' }] },
      h3: { httpVersion: 'http3' },
      nostages: { stages: [] },
      crowd: { model: 'virtualUsers', stages: [{ durationSecs: 1, target: 100_000_000 }] },
      withunit: { thresholds: [{ metric: 'p95', op: '<', value: '300ms' }] },
      badregex: { targets: [{ request: 'A.yaml' }, { request: 'A.yaml', captures: [{ variable: 'tok', from: 'regex', path: '([' }] }] },
      novariable: { targets: [{ request: 'A.yaml', captures: [{ variable: '', path: 'data.token' }] }] },
      noheader: { targets: [{ request: 'A.yaml', captures: [{ variable: 'session', from: 'header' }] }] },
      // Written as the later requests use it, braces and all: it would be captured and never sent.
      braces: { targets: [{ request: 'A.yaml', captures: [{ variable: '{{ token }}', path: 'data.token' }] }] },
      headerline: { targets: [{ request: 'A.yaml', captures: [{ variable: 'session', from: 'header', path: 'X-Session: abc' }] }] },
      badthreshold: { thresholds: [{ metric: 'p95', op: '<', value: 10, target: 'Other.yaml' }] },
      nodata: { dataFile: 'rows.csv' },
      outside: { dataFile: '../secrets.csv' },
      absolute: { dataFile: '/etc/passwd' },
      linked: { dataFile: 'linked/rows.csv' },
    });
    await fs.writeFile(path.join(root, '..', 'secrets.csv'), 'user,password\nalice,OUTSIDE\n');
    await fs.symlink(path.dirname(root), path.join(root, 'linked'));
    // Thresholds' operators unquoted, as k6 users type them: YAML reads > as the start of a block of text.
    const unquoted = (op: string, flow: boolean) => `name: x\ntargets:\n  - request: A.yaml\nstages:\n  - { durationSecs: 1, target: 2 }\nthresholds:\n${flow ? `  - { metric: p95, op: ${op}, value: 300 }` : `  - metric: p95\n    op: ${op}\n    value: 300`}\n`;
    await fs.writeFile(path.join(root, 'loadtests', 'opblock.yaml'), unquoted('>=', false));
    await fs.writeFile(path.join(root, 'loadtests', 'opflow.yaml'), unquoted('>=', true));
    await fs.writeFile(path.join(root, 'loadtests', 'opgt.yaml'), unquoted('>', false));
    // A number past what a number holds reads as Infinity: said as such, not as "number Infinity".
    await fs.writeFile(path.join(root, 'loadtests', 'huge.yaml'), 'name: x\ntargets:\n  - request: A.yaml\nstages:\n  - { durationSecs: 1e400, target: 2 }\n');
    const cases: Array<[string[], RegExp]> = [
      [['load', 'nope'], /No load test "nope"\. Load tests here: absolute, badregex, badthreshold, braces, crowd, h3, headerline, linked, missing, nodata, noheader, nostages, novariable, ok, outside, sse\. Files that cannot be read: huge, opblock, opflow, opgt, withunit \(ferry ls says why\)\.\n$/],
      [['load', 'missing'], /loadtests\/missing\.yaml: targets\[0\]\.request: there is no request "Nope\.yaml"/],
      [['load', 'sse'], /targets\[0\]\.request: Events\.yaml is an SSE request; load tests send HTTP requests only/],
      [['load', 'h3'], /httpVersion http3 is not supported by load tests/],
      [['load', 'nostages'], /loadtests\/nostages\.yaml:\d+:\d+: stages is empty/],
      [['load', 'badthreshold'], /thresholds\[0\]\.target: "Other\.yaml" is not one of the test's targets/],
      [['load', 'nodata'], /dataFile: data file .*rows\.csv does not exist/],
      // A data file is read by the body-file rules: a workspace from elsewhere cannot send this computer's files.
      [['load', 'outside'], /loadtests\/outside\.yaml: dataFile \.\.\/secrets\.csv lies outside the workspace folder\. Move it into the workspace, or allow files outside it/],
      [['load', 'absolute'], /dataFile \/etc\/passwd lies outside the workspace folder/],
      [['load', 'linked'], /dataFile cannot be used: linked is a symbolic link, and Ferry never follows links/],
      // A huge target is refused, not started (100 million users blocked the generator, Ctrl-C included).
      [['load', 'crowd'], /loadtests\/crowd\.yaml:\d+:\d+: stages\[0\]\.target: 100000000 users is more than one machine runs \(at most 100000 users\)/],
      [['load', 'ok', '--stages', '1s:5000000'], /--stages: stages\[0\]\.target: 5000000 requests per second is more than one machine runs/],
      [['load', 'opblock'], /loadtests\/opblock\.yaml:8:\d+: YAML syntax error: .*; in YAML a value that starts with > or \| begins a block of text; quote it \(op: ">="\)/],
      [['load', 'opflow'], /loadtests\/opflow\.yaml:7:\d+: YAML syntax error: .*; in YAML a value that starts with > or \| begins a block of text; quote it \(op: ">="\)/],
      [['load', 'huge'], /loadtests\/huge\.yaml:5:\d+: stages\[0\]\.durationSecs: expected a number of seconds, got infinity \(\.inf, or a number too large to hold, such as 1e400\)/],
      [['load', 'opgt'], /loadtests\/opgt\.yaml:8:\d+: thresholds\[0\]\.op: expected one of <, <=, >, >= \(quoted in YAML: op: ">"\), got text ""/],
      // A capture that can never work is refused, not skipped at every answer.
      [['load', 'withunit'], /loadtests\/withunit\.yaml:\d+:\d+: thresholds\[0\]\.value: expected a number without its unit \(300, not 300ms: latencies are in ms, errorRate in percent, rps in requests per second\), got text "300ms"/],
      [['load', 'badregex'], /loadtests\/badregex\.yaml: targets\[1\]\.captures\[0\]\.path: "\(\[" is not a valid regular expression \(.+\)/],
      [['load', 'novariable'], /loadtests\/novariable\.yaml: targets\[0\]\.captures\[0\]\.variable is empty; name the variable the value goes into/],
      [['load', 'noheader'], /loadtests\/noheader\.yaml: targets\[0\]\.captures\[0\]\.path is empty; give the header name to read/],
      [['load', 'braces'], /loadtests\/braces\.yaml: targets\[0\]\.captures\[0\]\.variable: "\{\{ token \}\}" is not a name a request can use as \{\{name\}\}; write the name alone \(variable: token\)\./],
      [['load', 'headerline'], /loadtests\/headerline\.yaml: targets\[0\]\.captures\[0\]\.path: "X-Session: abc" is not a header name; give the name alone \(for example path: x-session\)\./],
      [['load', 'ok', '--stages', '10:5'], /--stages: "10:5" is not DURATION:TARGET/],
      [['load', 'ok', '--segment', '0/3'], /--segment takes i\/n/],
      [['load', 'ok', '--workers', '0'], /--workers takes a whole number/],
      // A misspelt `merge` with its files: the nearest spelling, not "too many arguments".
      [['load', 'merg', 'a.json', 'b.json'], /^ferry: unknown command 'merg' of ferry load \(Did you mean merge\?\): `ferry load merge FILE\.\.\.` combines result files; `ferry load ID` runs one load test\.$/m],
      [['load', 'ok', 'extra'], /^ferry: too many arguments for 'load'\. Expected 1 argument but got 2\.$/m],
    ];
    // `ferry load help merge` is merge's help, as `ferry env help use` is use's.
    const help = await ferry(['-w', root, 'load', 'help', 'merge']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ferry load merge /);
    for (const [args, message] of cases) {
      const result = await ferry(['-w', root, ...args]);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect(server.byPath.size).toBe(0);
  });

  it('stages and thresholds at their edges are refused naming the file, the line and what to do', async () => {
    const { root, server } = await workspace({
      ok: {},
      unitdur: { stages: [{ durationSecs: '1m30s', target: 5 }] },
      k6dur: { stages: [{ duration: '30s', target: 5 }] },
      k6form: { stages: ['30s:5'] },
      quoted: { stages: [{ durationSecs: 1, target: '5' }] },
      negative: { stages: [{ durationSecs: 1, target: -2 }] },
      // Users only at the very end, or for an instant between stages at 0: nothing would ever be sent.
      endonly: { model: 'virtualUsers', stages: [{ durationSecs: 1, target: 0 }, { durationSecs: 0, target: 5 }] },
      instant: { model: 'arrivalRate', stages: [{ durationSecs: 0, target: 5 }, { durationSecs: 0, target: 0 }, { durationSecs: 1, target: 0 }] },
      tooshort: { stages: [{ durationSecs: 0.0000005, target: 5 }] },
      negativelimit: { thresholds: [{ metric: 'p95', op: '<', value: -5 }] },
      fraction: { thresholds: [{ metric: 'errorRate', op: '<', value: 150 }] },
    });
    // Lines where the problem is, in a file written by hand.
    const lines = 'name: x\ntargets:\n  - request: A.yaml\nstages:\n  - { durationSecs: 1, target: 2 }\n  - { durationSecs: 1, target: 2000000 }\nthresholds:\n  - { metric: p95, op: "<", value: 300 }\n  - { metric: avg, op: "<", value: -1 }\n';
    await fs.writeFile(path.join(root, 'loadtests', 'lines.yaml'), lines);
    await fs.writeFile(path.join(root, 'loadtests', 'limitline.yaml'), lines.replace('2000000', '3'));
    const cases: Array<[string[], RegExp]> = [
      [['load', 'unitdur'], /loadtests\/unitdur\.yaml:\d+:\d+: stages\[0\]\.durationSecs: expected a number of seconds, got text "1m30s" \(write 90: durationSecs is in seconds\)/],
      [['load', 'k6dur'], /loadtests\/k6dur\.yaml:\d+:\d+: stages\[0\]\.durationSecs: expected a number of seconds, got nothing \(the field is missing: add it\); for example durationSecs: 30 \(k6's duration: 30s is durationSecs: 30 here\)/],
      [['load', 'k6form'], /loadtests\/k6form\.yaml:\d+:\d+: stages\[0\]: expected a mapping such as \{ durationSecs: 30, target: 10 \} \(the form 30s:10 is for --stages\), got text "30s:5"/],
      [['load', 'quoted'], /loadtests\/quoted\.yaml:\d+:\d+: stages\[0\]\.target: expected a number \(users, or requests per second with model: arrivalRate\), got text "5" \(without quotes\)/],
      [['load', 'negative'], /loadtests\/negative\.yaml:\d+:\d+: stages\[0\]\.target: must be at least 0/],
      [['load', 'endonly'], /loadtests\/endonly\.yaml:\d+:\d+: nothing would be sent: the users are above 0 only for an instant \(stages\[1\] steps to 5 with durationSecs 0, and no stage that lasts follows it above 0\); give a stage after it a durationSecs above 0/],
      [['load', 'instant'], /loadtests\/instant\.yaml:\d+:\d+: nothing would be sent: the rate is above 0 only for an instant \(stages\[0\] steps to 5/],
      [['load', 'tooshort'], /loadtests\/tooshort\.yaml:\d+:\d+: stages last 5e-7 s in total, too short to send anything \(at least 0\.001 s, one millisecond\); durationSecs is in seconds/],
      [['load', 'negativelimit'], /loadtests\/negativelimit\.yaml:\d+:\d+: thresholds\[0\]\.value: -5 is below 0, and p95 never is, so the rule would pass always or never; give a limit of 0 or more\./],
      [['load', 'fraction'], /thresholds\[0\]\.value: 150 is above 100, and errorRate is a percent \(0 to 100\), so the rule would pass always or never; write 1 for 1% \(k6's rate<0\.01 is errorRate < 1 here\)\./],
      [['load', 'lines'], /^ferry: loadtests\/lines\.yaml:6:32: stages\[1\]\.target: 2000000 users is more than one machine runs/m],
      [['load', 'limitline'], /^ferry: loadtests\/limitline\.yaml:9:36: thresholds\[1\]\.value: -1 is below 0, and avg never is/m],
      // --stages is placed by its name: it has no line.
      [['load', 'ok', '--stages', '0s:5'], /^ferry: --stages: stages last 0 seconds in total; give at least one stage a durationSecs above 0\.$/m],
    ];
    for (const [args, message] of cases) {
      const result = await ferry(['-w', root, ...args]);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.code, args.join(' ')).toBe(2);
    }
    expect(server.byPath.size).toBe(0);
  });

  it('a refused load test leaves no --out-json folder behind (the folders made for it are removed)', async () => {
    const { root, server } = await workspace({ ok: {} });
    const before = (await fs.readdir(root)).sort();
    const result = await ferry(['-w', root, 'load', 'nope', '--out-json', path.join(root, 'results', 'deep', 'run.json')]);
    expect(result.stderr).toMatch(/No load test "nope"/);
    expect(result.code).toBe(2);
    expect((await fs.readdir(root)).sort()).toEqual(before);
    expect(server.byPath.size).toBe(0);
  });

  it('--out-json through a folder of the workspace that is a symbolic link is refused, as ferry run refuses it', async () => {
    const { root, server } = await workspace({ ok: {} });
    // A `results` link planted in a cloned repository: the result is not written through it.
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-elsewhere-'));
    await fs.symlink(elsewhere, path.join(root, 'results'));
    const result = await ferry(['-w', root, 'load', 'ok', '--out-json', path.join(root, 'results', 'run.json')]);
    expect(result.stderr).toMatch(/--out-json .*run\.json: results is a symbolic link, and Ferry never follows links; give another path\./);
    expect(result.code).toBe(2);
    expect(await fs.readdir(elsewhere)).toEqual([]);
    expect(server.byPath.size).toBe(0);
    await fs.rm(elsewhere, { recursive: true, force: true });
  });

  it('--out-json whose folder is replaced by a symbolic link while the test runs: the result is not written through it; exit 2 saying so', async () => {
    const { root, server } = await workspace({ ok: { stages: steady(20, 1.5) } });
    await fs.mkdir(path.join(root, 'results'));
    const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-elsewhere-'));
    const file = path.join(root, 'results', 'run.json');
    const running = ferry(['-w', root, 'load', 'ok', '--out-json', file, '--workers', '1']);
    for (let waited = 0; server.byPath.size === 0; waited += 20) {
      if (waited > 15_000) throw new Error('the load test\'s requests did not arrive');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await fs.rename(path.join(root, 'results'), path.join(root, 'moved'));
    await fs.symlink(elsewhere, path.join(root, 'results'));
    const result = await running;
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`ferry: --out-json ${file}: during the run ${path.join(root, 'results')} was replaced by a symbolic link, and Ferry never follows links: the report was not written.`);
    expect(await fs.readdir(elsewhere)).toEqual([]);
    expect(await fs.readdir(path.join(root, 'moved'))).toEqual([]);
    await fs.rm(elsewhere, { recursive: true, force: true });
  });
});

describe('ferry load: thresholds, exit codes, JSON', () => {
  it('exits 0 when every threshold passes, 1 when one fails or has no samples, saying which', async () => {
    const { root, data } = await workspace({
      pass: { thresholds: [{ metric: 'errorRate', op: '<=', value: 0 }, { metric: 'p99', op: '<', value: 60_000 }] },
      fail: {
        targets: [{ request: 'A.yaml' }, { request: 'Fail.yaml' }, { request: 'Events.yaml', weight: 0 }],
        thresholds: [{ metric: 'errorRate', op: '<', value: 10 }, { metric: 'rps', op: '>', value: 0, target: 'A.yaml' }, { metric: 'p95', op: '<', value: 1000, target: 'Events.yaml' }],
      },
    });
    const [pass, fail] = await Promise.all([ferry(['-w', root, 'load', 'pass', '--workers', '1']), ferry(['-w', root, 'load', 'fail', '--workers', '1'])]);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toMatch(/^A\.yaml +10 +20\.0 +0 +0 /m);
    expect(pass.stdout).toMatch(/✓ errorRate <= 0%: measured 0%/);
    expect(pass.stdout).toMatch(/All thresholds passed\./);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/✗ errorRate < 10%: measured 50%/);
    expect(fail.stdout).toMatch(/✓ rps > 0 req\/s \(A\.yaml\): measured 10 req\/s/);
    expect(fail.stdout).toMatch(/✗ p95 < 1000ms \(Events\.yaml\): no samples \(Events\.yaml is not sent by this test: its weight is 0 or it is not enabled; the rule cannot pass\)/);
    expect(fail.stdout).toMatch(/2 thresholds failed\./);
    // Each run is kept in the history of the data folder.
    expect((await readLoadHistory(data)).map((h) => [h.id, h.passed])).toEqual(expect.arrayContaining([['pass', true], ['fail', false]]));
  });

  it('a threshold names its target as the target does, in any case, as targets find their request (a.yaml is A.yaml)', async () => {
    const { root } = await workspace({ cased: { targets: [{ request: 'a.yaml' }], thresholds: [{ metric: 'rps', op: '>', value: 0, target: 'A' }, { metric: 'errorRate', op: '<=', value: 0, target: 'a.YAML' }] } });
    const result = await ferry(['-w', root, 'load', 'cased', '--workers', '1']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/✓ rps > 0 req\/s \(A\.yaml\): measured 20 req\/s/);
    expect(result.stdout).toMatch(/✓ errorRate <= 0% \(A\.yaml\): measured 0%/);
    expect(result.code).toBe(0);
  });

  it('a threshold names a target that is not sent (weight 0) as any target, without .yaml and in any case: it fails with no samples; one that is no target is refused naming the targets', async () => {
    const { root } = await workspace({
      unsent: { targets: [{ request: 'A.yaml' }, { request: 'Slow report.yaml', weight: 0 }], thresholds: [{ metric: 'p95', op: '<', value: 1000, target: 'slow REPORT' }] },
      other: { targets: [{ request: 'A.yaml' }, { request: 'Slow report.yaml', enabled: false }], thresholds: [{ metric: 'p95', op: '<', value: 1000, target: 'Other' }] },
    });
    const unsent = await ferry(['-w', root, 'load', 'unsent', '--workers', '1']);
    expect(unsent.stderr).toBe('');
    expect(unsent.stdout).toContain('✗ p95 < 1000ms (Slow report.yaml): no samples (Slow report.yaml is not sent by this test: its weight is 0 or it is not enabled; the rule cannot pass)');
    expect(unsent.code).toBe(1);
    const other = await ferry(['-w', root, 'load', 'other', '--workers', '1']);
    expect(other.stderr).toMatch(/^ferry: loadtests\/other\.yaml:\d+:\d+: thresholds\[0\]\.target: "Other" is not one of the test's targets \(A\.yaml, Slow report\.yaml\); name one of them, or leave target out to judge all\.\n$/);
    expect(other.code).toBe(2);
  });

  it('spec 2.7: a target\'s own settings are not used (timeout, redirects, HTTP version): the load test\'s options and the application settings are', async () => {
    const { root, server } = await workspace({ own: { targets: [{ request: 'Slow.yaml' }] } });
    // Sent by ferry run, this request would time out after 5 ms, stop at the redirect, and fail on http3.
    await fs.writeFile(path.join(root, 'requests', 'Slow.yaml'), [
      'name: Slow', `url: ${server.url}/redirect?to=/a%3Fdelay%3D60`, 'settings:', '  timeoutMs: 5', '  followRedirects: false', '  httpVersion: http3', '',
    ].join('\n'));
    const out = await ferry(['-w', root, 'load', 'own', '-r', 'json', '--workers', '1']);
    expect(out.code, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout) as LoadResult;
    expect(result.overall).toMatchObject({ count: 10, statuses: { 200: 10 }, errors: { total: 0 } });
    expect(server.byPath.get('/a')).toBe(10);
  });

  it('-r json prints the whole result in its documented, versioned shape', async () => {
    const { root } = await workspace({ shape: { thresholds: [{ metric: 'max', op: '<', value: 60_000 }] } });
    const out = await ferry(['-w', root, 'load', 'shape', '-r', 'json', '--workers', '1']);
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout) as LoadResult;
    expect(Object.keys(result)).toEqual(['format', 'version', 'loadTest', 'segments', 'workers', 'startedAt', 'endedAt', 'plannedSeconds', 'durationSeconds', 'interrupted', 'overall', 'targets', 'series', 'thresholds', 'verdicts', 'passed']);
    expect(result).toMatchObject({ format: 'ferry-load-result', version: 1, loadTest: { id: 'shape', model: 'arrivalRate' }, segments: { parts: [1], of: 1 }, workers: 1, plannedSeconds: 0.5, interrupted: false, passed: true });
    expect(Object.keys(result.overall)).toEqual(['request', 'count', 'rps', 'errors', 'errorRate', 'errorReasons', 'statuses', 'dropped', 'bytesSent', 'bytesReceived', 'latencyMs', 'histogram']);
    expect(Object.keys(result.overall.latencyMs!)).toEqual(['p50', 'p90', 'p95', 'p99', 'p999', 'max', 'avg', 'min']);
    expect(result.overall).toMatchObject({ request: '*', count: 10, rps: 20, statuses: { 200: 10 }, errors: { total: 0, status: 0, timeout: 0, refused: 0, reset: 0, tls: 0, other: 0 } });
    expect(decodeHistogram(result.targets[0]!.histogram).totalCount).toBe(10);
    expect(result.series.reduce((n, s) => n + s.count, 0)).toBe(10);
    expect(Object.keys(result.series[0]!)).toEqual(['second', 'count', 'errors', 'dropped', 'active', 'p50', 'p95', 'p99', 'histogram']);
    expect(result.verdicts[0]).toMatchObject({ rule: 'max < 60000ms', metric: 'max', op: '<', limit: 60_000, passed: true });
  });

  it('--out-json - is the result on stdout (as for ferry run and curl -o -), never a file named "-"; so for merge', async () => {
    const { root } = await workspace({ dash: {} });
    const run = await ferry(['-w', root, 'load', 'dash', '--out-json', '-', '--workers', '1'], root);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: 'ferry-load-result', loadTest: { id: 'dash' }, overall: { count: 10 } });
    await expect(fs.stat(path.join(root, '-'))).rejects.toMatchObject({ code: 'ENOENT' });
    const file = path.join(root, 'dash.json');
    expect((await ferry(['-w', root, 'load', 'dash', '--out-json', file, '--workers', '1'], root)).code).toBe(0);
    const merged = await ferry(['load', 'merge', file, '--out-json', '-'], root);
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ format: 'ferry-load-result', overall: { count: 10 } });
    await expect(fs.stat(path.join(root, '-'))).rejects.toMatchObject({ code: 'ENOENT' });
    // The summary and the result cannot both go to stdout.
    const both = await ferry(['load', 'merge', file, '-r', 'cli', '--out-json', '-'], root);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--out-json - puts the result on stdout, where -r cli prints the summary: give --out-json a FILE, or leave out -r cli\./);
    expect(both.stdout).toBe('');
  });
});

describe('the live display', () => {
  it('on a terminal, redraws elapsed / total, req/s, p95, errors, users and drops about once a second', async () => {
    const { root } = await workspace({ live: { model: 'virtualUsers', thinkTimeMs: 50, stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 2.5, target: 2 }] } });
    const out = await ferryOnTerminal(['-w', root, 'load', 'live', '--workers', '1']);
    expect(out.code).toBe(0);
    const lines = out.status.filter((s) => s.includes('req/s'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.at(-1)).toMatch(/\d:\d\d \/ 0:02 \[[#-]{20}\] \d+ req\/s {2}p95 (-|[\d.]+ ms) {2}errors 0 {2}users \d {2}dropped 0/);
    // Erased before the summary; no colour codes when the output is not a colour terminal.
    expect(out.status.at(-1)).toBe('\r\u001b[2K');
    expect(out.stdout).not.toMatch(/\u001b\[/);
  });
});

describe('docs/load.md', () => {
  it('shows a Kubernetes Indexed Job whose completion index is the segment', async () => {
    const doc = await fs.readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'load.md'), 'utf8');
    const job = parse(/```yaml\n(apiVersion[\s\S]*?)```/.exec(doc)![1]!);
    expect(job).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: expect.any(String) }, spec: { completionMode: 'Indexed', template: { spec: { restartPolicy: 'Never' } } } });
    expect(job.spec.completions).toBe(job.spec.parallelism);
    const container = job.spec.template.spec.containers[0];
    expect(container.args.join(' ')).toMatch(/--segment "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/4"/);
    expect(job.spec.completions).toBe(4);
    expect(container.volumeMounts[0].name).toBe(job.spec.template.spec.volumes[0].name);
  });
});

describe('ferry load --segment and ferry load merge', () => {
  it('a segment whose share of the whole is empty (3 segments of 2 users, of 2 requests) says so, sends nothing and exits 0', async () => {
    const { root, server } = await workspace({
      pair: { model: 'virtualUsers', thinkTimeMs: 100_000, stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 0.3, target: 2 }] },
      few: { stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 1, target: 2 }] },
    });
    const idle = await ferry(['-w', root, 'load', 'pair', '--segment', '3/3']);
    expect(idle.stderr).toContain('ferry: segment 3/3 sends nothing: the stages ask for at most 2 users, and user u goes to segment u mod 3 + 1; split the test into at most 2 segments.');
    expect(idle.code).toBe(0);
    const few = await ferry(['-w', root, 'load', 'few', '--segment', '3/3']);
    expect(few.stderr).toContain('ferry: segment 3/3 sends nothing: the stages ask for 2 requests in all, and request k goes to segment k mod 3 + 1;');
    expect(server.byPath.size).toBe(0);
    // The second segment has the second user: it sends, and says nothing of the kind.
    const busy = await ferry(['-w', root, 'load', 'pair', '--segment', '2/3']);
    expect(busy.stderr).not.toContain('sends nothing');
    expect(server.byPath.get('/a')).toBe(1);
  });

  it('segments run one after another merge onto one timeline: duration, rps and the per-second series agree', async () => {
    // Each segment's second k is the test's second k (as k6's execution segments share the test's
    // time): run one after another (or on machines whose clocks differ), the merge showed a 3.2 s
    // duration and a series over 3 seconds at a third of the rate, beside an rps over 1 s.
    // A quiet last stage of 30 s: a segment that waited out its plan would outlast the test's 30 s.
    const { root } = await workspace({ seq: { stages: [...steady(30, 1), { durationSecs: 0, target: 0 }, { durationSecs: 30, target: 0 }] } });
    const out = (i: number) => path.join(root, `seq${i}.json`);
    for (const i of [1, 2, 3]) {
      expect((await ferry(['-w', root, 'load', 'seq', '--workers', '1', '--segment', `${i}/3`, '--out-json', out(i)])).code).toBe(0);
    }
    const merged = await ferry(['-w', root, 'load', 'merge', out(1), out(2), out(3), '-r', 'json']);
    expect(merged.code).toBe(0);
    const sum = JSON.parse(merged.stdout) as LoadResult;
    const parts = await Promise.all([1, 2, 3].map(async (i) => JSON.parse(await fs.readFile(out(i), 'utf8')) as LoadResult));
    expect(sum.overall.count).toBe(30);
    // The longest segment's length, not the span from the first start to the last end.
    expect(sum.durationSeconds).toBe(Math.max(...parts.map((p) => p.durationSeconds)));
    // Each segment ends with its last answer (about 1 s), not at its 31 planned seconds (above).
    expect(Date.parse(sum.endedAt) - Date.parse(sum.startedAt)).toBe(Math.round(sum.durationSeconds * 1000));
    expect(sum.overall.rps).toBe(Math.round((30 / 31) * 1000) / 1000); // 30 over the planned 31 s
    // The series spans the test's seconds (at most one more, for the phase within a second), and holds every request.
    expect(sum.series.length).toBeLessThanOrEqual(Math.max(...parts.map((p) => p.series.length)) + 1);
    expect(sum.series.reduce((n, s) => n + s.count, 0)).toBe(30);
    expect(sum.series[0]!.second).toBe(parts[0]!.series[0]!.second);
  });

  it('three segments merged equal one run: counts, statuses, rates; the thresholds are judged on the whole', async () => {
    const { root } = await workspace({
      split: { stages: steadyThenQuiet(30, 1), targets: [{ request: 'A.yaml', weight: 2 }, { request: 'Fail.yaml' }], thresholds: [{ metric: 'errorRate', op: '<', value: 50 }] },
    });
    const out = (name: string) => path.join(root, `${name}.json`);
    const runs = await Promise.all([
      ferry(['-w', root, 'load', 'split', '--workers', '1', '--out-json', out('whole')]),
      ...[1, 2, 3].map((i) => ferry(['-w', root, 'load', 'split', '--workers', '1', '--segment', `${i}/3`, '--out-json', out(`part${i}`)])),
    ]);
    // Each segment judges only its own part (segment 3 sends only every third request: here all
    // Fail.yaml, so its errorRate rule fails); the merged whole is what counts.
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 1]);
    const merged = await ferry(['-w', root, 'load', 'merge', out('part1'), out('part2'), out('part3'), '-r', 'json']);
    expect(merged.code).toBe(0);
    const whole = JSON.parse(await fs.readFile(out('whole'), 'utf8')) as LoadResult;
    const sum = JSON.parse(merged.stdout) as LoadResult;
    expect(sum.segments).toEqual({ parts: [1, 2, 3], of: 3 });
    expect(sum.overall.count).toBe(30);
    expect(sum.overall.count).toBe(whole.overall.count);
    expect(sum.targets.map((t) => [t.request, t.count, t.statuses])).toEqual(whole.targets.map((t) => [t.request, t.count, t.statuses]));
    expect(sum.overall.rps).toBe(whole.overall.rps);
    expect(sum.series.reduce((n, s) => n + s.count, 0)).toBe(30);
    // The merged histogram is the three added: same count, same percentiles.
    const parts = await Promise.all([1, 2, 3].map(async (i) => JSON.parse(await fs.readFile(out(`part${i}`), 'utf8')) as LoadResult));
    const added = decodeHistogram(parts[0]!.overall.histogram);
    for (const p of parts.slice(1)) added.add(decodeHistogram(p.overall.histogram));
    expect(decodeHistogram(sum.overall.histogram).getValueAtPercentile(99)).toBe(added.getValueAtPercentile(99));
    expect(sum.verdicts[0]).toMatchObject({ measured: whole.verdicts[0]!.measured, passed: true });
    // A segment given twice is refused.
    const twice = await ferry(['-w', root, 'load', 'merge', out('part1'), out('part1')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/segment 1\/3 is in more than one file/);
    // A segment that never reported (a lost machine or pod): the merge fails, saying which.
    const partial = await ferry(['-w', root, 'load', 'merge', out('part1'), out('part3'), '-r', 'json']);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain('ferry: segment 2/3 missing: the thresholds judged only part of the test, so the merge fails (exit 1). Merge the result files of every segment.');
    expect(JSON.parse(partial.stdout)).toMatchObject({ segments: { parts: [1, 3], of: 3 }, passed: false });
    // A segment run after its thresholds were edited: refused, naming both files as given and the rules (exit 2).
    const edited = { ...parts[1]!, thresholds: [{ metric: 'errorRate', op: '<', value: 5, enabled: true }] };
    await fs.writeFile(path.join(root, 'edited.json'), JSON.stringify(edited));
    const unlike = await ferry(['load', 'merge', 'part1.json', 'edited.json', 'part3.json'], root);
    expect(unlike.code).toBe(2);
    expect(unlike.stderr.trim()).toBe('ferry: the files judge different thresholds (part1.json (segment 1/3): errorRate < 50%; edited.json (segment 2/3): errorRate < 5%); merge the segments of one run, all started from the same load test file (its thresholds as they were then).');
  });
});

describe('Ctrl-C', () => {
  it('stops at once in a real process: partial result printed and written, exit 1', async () => {
    const { root, temp } = await workspace({ long: { stages: steady(20, 60) } });
    const file = path.join(root, 'partial.json');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'servers', 'support', 'run-ferry.ts'), '-w', root, 'load', 'long', '--workers', '1', '--out-json', file], {
      env: { ...process.env, FERRY_DATA_DIR: temp.dataDir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 30_000;
      while ((server!.byPath.get('/a') ?? 0) < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // The test's 60 s outlast its 45 s timeout: a run that Ctrl-C does not stop fails the test.
      child.kill('SIGINT');
      expect(await exited).toBe(1);
      expect(stdout).toMatch(/interrupted \(partial result\)/);
      const partial = JSON.parse(await fs.readFile(file, 'utf8')) as LoadResult;
      expect(partial.interrupted).toBe(true);
      expect(partial.overall.count).toBeGreaterThanOrEqual(10);
      expect(partial.overall.count).toBeLessThan(1200);
    } finally {
      child.kill('SIGKILL');
    }
  }, 45_000);

  it('SIGTERM (a CI job cancelled, `timeout`, `docker stop`) stops bin/ferry.js load as Ctrl-C does: summary, report written, exit 1', async () => {
    const { root, temp } = await workspace({ long: { stages: steady(20, 60) } });
    const file = path.join(root, 'partial.json');
    // The shipped CLI in a process of its own: Node's default for SIGTERM is to die on the spot.
    const child = spawn(process.execPath, [path.resolve('bin/ferry.js'), '-w', root, 'load', 'long', '--workers', '1', '--out-json', file], {
      env: { ...process.env, FERRY_DATA_DIR: temp.dataDir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 30_000;
      while ((server!.byPath.get('/a') ?? 0) < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // The test's 60 s outlast its 45 s timeout: a run that SIGTERM does not stop fails the test.
      child.kill('SIGTERM');
      expect(await exited).toBe(1);
      expect(stderr).toContain('ferry: stopping (SIGTERM): requests in flight are cancelled; the partial result follows (a second SIGTERM quits at once).');
      expect(stdout).toMatch(/interrupted \(partial result\)/);
      const partial = JSON.parse(await fs.readFile(file, 'utf8')) as LoadResult;
      expect(partial.interrupted).toBe(true);
      expect(partial.overall.count).toBeGreaterThanOrEqual(10);
    } finally {
      child.kill('SIGKILL');
    }
  }, 45_000);
});

describe('ferry load as shipped', () => {
  it('bin/ferry.js (the bundle) runs its generator threads from the bundled worker and writes the result', async () => {
    const { root, temp, server } = await workspace({ quick: { stages: steady(40, 1) } });
    const file = path.join(root, 'quick.json');
    const child = spawn(process.execPath, [path.resolve('bin/ferry.js'), '-w', root, 'load', 'quick', '--workers', '2', '--out-json', file], {
      env: { ...process.env, FERRY_DATA_DIR: temp.dataDir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(await fs.readFile(file, 'utf8')) as LoadResult;
    expect(result.overall.count).toBeGreaterThan(0);
    expect(server.byPath.get('/a')).toBeGreaterThanOrEqual(result.overall.count); // every request counted was answered by this server
  }, 60_000);

  it('the bundled worker reads captures from a compressed answer (the HTTP client\'s decoder, loaded when a test captures)', async () => {
    const { root, server } = await workspace(
      { login: { model: 'virtualUsers', stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.5, target: 1 }], thinkTimeMs: 20, targets: [{ request: 'Login.yaml', captures: [{ variable: 'token', path: 'data.token' }] }, { request: 'Use.yaml' }] } },
      { 'requests/Login.yaml': { name: 'Login', url: '{{base}}/login?encode=gzip' }, 'requests/Use.yaml': { name: 'Use', url: '{{base}}/use/{{token}}' } },
    );
    const out = await ferry(['-w', root, 'load', 'login', '--workers', '1', '--var', `base=${server.url}`]);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const uses = server.seen.filter((s) => s.path.startsWith('/use/'));
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use.path).toMatch(/^\/use\/tok-\d+$/);
  }, 60_000);
});

describe('ferry load: a regex capture from the workspace cannot stall the test', () => {
  /** bin/ferry.js load in a process of its own; the answer is 30,000 times "a" then "b". */
  async function loadHostile(pattern: string) {
    const { root, temp, server } = await workspace(
      { hostile: { model: 'virtualUsers', stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 1, target: 1 }], thinkTimeMs: 50, targets: [{ request: 'Hostile.yaml', captures: [{ variable: 'tail', from: 'regex', path: pattern }] }, { request: 'Use.yaml' }] } },
      { 'requests/Hostile.yaml': { name: 'Hostile', url: '{{base}}/hostile' }, 'requests/Use.yaml': { name: 'Use', url: '{{base}}/use/{{tail}}' } },
    );
    const child = spawn(process.execPath, [path.resolve('bin/ferry.js'), '-w', root, 'load', 'hostile', '--workers', '1', '--var', `base=${server.url}`], {
      env: { ...process.env, FERRY_DATA_DIR: temp.dataDir, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    // A stalled test is killed (exit code null) before the test's own 60 s.
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    clearTimeout(timer);
    return { code, stdout, stderr, server };
  }

  it('(a+)+$ runs in linear time: the test ends on schedule and the capture takes its value', async () => {
    // V8's backtracking would try (a+)+$ for hours before reaching the alternative.
    const { code, stderr, server } = await loadHostile('(?:a+)+$|a{3}');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // The capture ran on each answer and the test went on (a backtracking engine would hold the one
    // user on the first); how many rounds fit the second depends on the machine's load.
    expect(server.byPath.get('/hostile')).toBeGreaterThan(0);
    const uses = server.seen.filter((s) => s.path.startsWith('/use/'));
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use.path).toBe('/use/aaa');
  }, 60_000);

  it('a pattern that needs backtracking (a backreference) is stopped after its time limit: the test ends, naming the capture, without a stack', async () => {
    const { code, stderr } = await loadHostile('(a+)+\\1$');
    expect(code).toBe(2);
    expect(stderr).toBe('ferry: loadtests/hostile.yaml: target Hostile.yaml, the capture of "tail" (regex "(a+)+\\\\1$"): the regular expression took longer than 1 s on a text of 30001 characters and was stopped (it backtracks: nested quantifiers such as (a+)+ with a backreference or lookaround); simplify it.\n');
  }, 60_000);
});

describe('fields a load test does not have', () => {
  it('are named on stderr with the field meant (a typo would otherwise change the test silently); the test still runs', async () => {
    const { root, server, data } = await workspace({
      typos: { targets: [{ request: 'A.yaml', weigth: 3 }], thinkTime: 100, vus: 10, thresholds: [{ metric: 'p95', op: '<', value: 60_000, taget: 'A.yaml' }] },
    });
    const out = await ferry(['-w', root, 'load', 'typos', '--workers', '1']);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('ferry: loadtests/typos.yaml: fields that load tests do not have are ignored: targets[0].weigth (did you mean weight?), thresholds[0].taget (did you mean target?), thinkTime (did you mean thinkTimeMs?), vus.');
    // The run's history line keeps it (the app's load-test panel shows it with the run).
    const entry = (await readLoadHistory(data)).at(-1);
    expect(entry?.notices).toEqual(['loadtests/typos.yaml: fields that load tests do not have are ignored: targets[0].weigth (did you mean weight?), thresholds[0].taget (did you mean target?), thinkTime (did you mean thinkTimeMs?), vus.']);
    // All ten arrivals of the stage (20/s for 0.5 s) were sent; on a busy machine the last may come
    // due after the stage ended and be dropped and counted as such (generator.ts), never lost.
    const result = JSON.parse(await fs.readFile(path.join(data.dir, 'load-results', entry!.result!), 'utf8')) as LoadResult;
    expect(server.byPath.get('/a')! + result.overall.dropped).toBe(10);
    expect(result.overall.count).toBe(server.byPath.get('/a'));
  });
});
