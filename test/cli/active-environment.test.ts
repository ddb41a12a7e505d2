/**
 * `run`, `serve` and `load` without `-e` use the active environment and say so on stderr (2.10);
 * with `-e`, or with no active environment, they say nothing about it. Spawned `bin/ferry.js`.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ferryBin } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const NOTICE = 'ferry: using environment "Staging Env" (active; ferry env use to change)';

let ws: string;
let data: string;
let target: http.Server;
let hits: string[];

beforeEach(async () => {
  data = await isolatedDataDir();
  hits = [];
  target = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('ok');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const port = (target.address() as AddressInfo).port;
  ws = await tempDir();
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: active-env\nname: Active\n');
  for (const dir of ['environments', 'requests', 'loadtests', 'servers']) await fs.mkdir(path.join(ws, dir));
  await fs.writeFile(path.join(ws, 'environments', 'staging.yaml'), `name: Staging Env\nvariables:\n  - key: base\n    value: "http://127.0.0.1:${port}/staging"\n`);
  await fs.writeFile(path.join(ws, 'environments', 'prod.yaml'), `name: Prod\nvariables:\n  - key: base\n    value: "http://127.0.0.1:${port}/prod"\n`);
  await fs.writeFile(path.join(ws, 'requests', 'A.yaml'), 'name: A\nmethod: GET\nurl: "{{base}}/a"\n');
  await fs.writeFile(
    path.join(ws, 'loadtests', 'smoke.yaml'),
    'name: smoke\ntargets:\n  - request: A.yaml\nmodel: arrivalRate\nstages:\n  - durationSecs: 0\n    target: 5\n  - durationSecs: 0.4\n    target: 5\n',
  );
  await fs.writeFile(path.join(ws, 'servers', 'api.yaml'), 'name: API\nhttp:\n  port: 0\n  routes:\n    - name: hello\n      path: /hello\n      body: hi\n');
});

afterEach(async () => {
  await new Promise((r) => target.close(r));
});

describe('the active environment is named when -e is absent', () => {
  it('run, load and serve say which environment they use, and use it', async () => {
    expect((await ferryBin(['-w', ws, 'env', 'use', 'staging'], data)).code).toBe(0);

    const run = await ferryBin(['-w', ws, 'run', 'A'], data);
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')).toContain(NOTICE);
    expect(hits).toEqual(['/staging/a']);

    const load = await ferryBin(['-w', ws, 'load', 'smoke'], data);
    expect(load.code, load.stderr).toBe(0);
    expect(load.stderr.split('\n').filter((l) => l === NOTICE)).toHaveLength(1);
    expect(hits.length).toBeGreaterThan(1);
    expect(hits.every((h) => h === '/staging/a')).toBe(true);

    const serve = await ferryBin(['-w', ws, 'serve'], data, { until: /http:\/\/127\.0\.0\.1:\d+/ });
    expect(serve.code).toBe(0);
    expect(serve.stderr.split('\n')).toContain(NOTICE);
  }, 90_000);

  it('says nothing with -e (which wins) or when no environment is active', async () => {
    await ferryBin(['-w', ws, 'env', 'use', 'staging'], data);
    const chosen = await ferryBin(['-w', ws, 'run', 'A', '-e', 'Prod'], data);
    expect(chosen.code).toBe(0);
    expect(chosen.stderr).not.toContain('using environment');
    expect(hits).toEqual(['/prod/a']);

    await ferryBin(['-w', ws, 'env', 'use', '--none'], data);
    const none = await ferryBin(['-w', ws, 'run', 'A'], data);
    expect(none.stderr).not.toContain('using environment');
    expect(none.code).not.toBe(0); // {{base}} is undefined without an environment
    expect(hits).toEqual(['/prod/a']);
  }, 60_000);

  it('says nothing when the active environment file was deleted (none is used)', async () => {
    await ferryBin(['-w', ws, 'env', 'use', 'staging'], data);
    await fs.rm(path.join(ws, 'environments', 'staging.yaml'));
    const run = await ferryBin(['-w', ws, 'run', 'A'], data);
    expect(run.stderr).not.toContain('using environment');
    expect(hits).toEqual([]);
  }, 60_000);
});
