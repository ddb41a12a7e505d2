/**
 * `ferry run`'s report files (`--out-json`, `--out-junit`, `--out-html`) at paths that cannot take
 * them as asked: a symbolic link, a file that cannot be replaced. Refused before anything is sent
 * when that can be known then; otherwise the report is kept and the message says where. Real files
 * in a temporary folder, a real server on 127.0.0.1.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

let site: http.Server;
let seen = 0;
let ws: string;
/** Answers the request waiting at /slow; set once it has arrived. */
let release: (() => void) | undefined;

beforeAll(async () => {
  process.env.FERRY_DATA_DIR = await isolatedDataDir();
  site = http.createServer((req, res) => {
    seen++;
    if (req.url === '/slow') release = () => res.end('{"ok": true}');
    else res.end('{"ok": true}');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
});

// Temporary folders go after each test: a workspace for each.
beforeEach(async () => {
  ws = await tempDir();
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: report-files\nname: Reports\n');
  await fs.mkdir(path.join(ws, 'requests'));
  await fs.writeFile(path.join(ws, 'requests', 'One.yaml'), `name: One\nurl: http://127.0.0.1:${(site.address() as AddressInfo).port}/one\n`);
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

/** Sets or clears the immutable attribute (chattr): a file or folder nobody, root too, may change. Undefined when this system cannot. */
function immutable(file: string, on: boolean): true | undefined {
  try {
    execFileSync('chattr', [on ? '+i' : '-i', file], { stdio: 'ignore' });
    return true;
  } catch {
    return undefined;
  }
}

describe('ferry run --out-* at a path that cannot take the report as asked', () => {
  it('a symbolic link: refused before anything is sent, saying it is a link; the link and its file stay as they were', async () => {
    const out = await tempDir();
    await fs.writeFile(path.join(out, 'run-41.json'), '{"old": true}');
    await fs.symlink('run-41.json', path.join(out, 'latest.json'));
    const before = seen;
    const result = await ferry(['-w', ws, 'run', '--out-json', path.join(out, 'latest.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`ferry: --out-json ${path.join(out, 'latest.json')} is a symbolic link, and Ferry never follows links nor replaces one; give the path of the file itself, or remove the link.\n`);
    expect(seen).toBe(before);
    expect(await fs.readlink(path.join(out, 'latest.json'))).toBe('run-41.json');
    expect(await fs.readFile(path.join(out, 'run-41.json'), 'utf8')).toBe('{"old": true}');
  });

  it('an old report that cannot be replaced (immutable): refused before anything is sent, naming it; it stays as it was', async (context) => {
    const out = await tempDir();
    const file = path.join(out, 'r.json');
    await fs.writeFile(file, '{"old": true}');
    if (!immutable(file, true)) return context.skip('chattr +i is not available here (not root, or a file system without it)');
    try {
      const before = seen;
      const result = await ferry(['-w', ws, 'run', '--out-json', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^ferry: --out-json ${file.replaceAll('/', '\\/')} exists and cannot be replaced \\(E[A-Z]+\\); make it writable, or give another path\\.\n$`));
      expect(result.stdout).toBe('');
      expect(seen).toBe(before);
      expect(await fs.readFile(file, 'utf8')).toBe('{"old": true}');
    } finally {
      immutable(file, false);
    }
  });

  it('an old report made unreplaceable during the run: the new report is kept beside it and the message says where; exit 2', async (context) => {
    const out = await tempDir();
    const file = path.join(out, 'r.json');
    await fs.writeFile(file, '{"old": true}');
    if (!immutable(file, true)) return context.skip('chattr +i is not available here (not root, or a file system without it)');
    immutable(file, false);
    await fs.writeFile(path.join(ws, 'requests', 'Slow.yaml'), `name: Slow\nurl: http://127.0.0.1:${(site.address() as AddressInfo).port}/slow\n`);
    release = undefined as typeof release; // (not narrowed to undefined: the server sets it)
    try {
      const running = ferry(['-w', ws, 'run', 'Slow', '--out-json', file]);
      for (let waited = 0; !release; waited += 20) {
        if (waited > 15_000) throw new Error('the run\'s request did not arrive');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      immutable(file, true);
      release();
      const result = await running;
      expect(result.code).toBe(2);
      const said = new RegExp(`ferry: --out-json: the report could not be put in place of ${file.replaceAll('/', '\\/')} \\(EPERM\\); it was kept as (.*\\.tmp): move it where you want it\\.`).exec(result.stderr);
      expect(said, result.stderr).not.toBeNull();
      expect(result.stdout).toContain('Slow');
      // The kept file is this run's report: the one request of the workspace named Reports, answered.
      const kept = JSON.parse(await fs.readFile(said![1]!, 'utf8'));
      expect(kept.summary).toMatchObject({ workspace: 'Reports', environment: null, requests: 1, failedRequests: 0, skippedRequests: 0, tests: 0, failedTests: 0, iterations: 1, bailed: false, interrupted: false, stoppedBy: null });
      expect(kept.results.map((r: { name: string }) => r.name)).toEqual(['Slow']);
      expect(await fs.readFile(file, 'utf8')).toBe('{"old": true}');
    } finally {
      immutable(file, false);
    }
  });

  it('a report folder replaced by a symbolic link during the run (to another folder, or to itself moved away; or a folder above it): the report is not written through the link, nor anywhere; exit 2 saying so', async () => {
    await fs.writeFile(path.join(ws, 'requests', 'Slow.yaml'), `name: Slow\nurl: http://127.0.0.1:${(site.address() as AddressInfo).port}/slow\n`);
    const out = await tempDir();
    const swaps: Array<[what: string, report: string, swap: () => Promise<{ linked: string; untouched: string[] }>]> = [
      ['the folder, for a link to another folder', 'reports/r.xml', async () => {
        await fs.rename(path.join(out, 'reports'), path.join(out, 'moved'));
        await fs.mkdir(path.join(out, 'elsewhere'));
        await fs.symlink('elsewhere', path.join(out, 'reports'));
        return { linked: path.join(out, 'reports'), untouched: ['moved', 'elsewhere'] };
      }],
      ['the folder, for a link to itself moved away', 'reports/r.xml', async () => {
        await fs.rename(path.join(out, 'reports'), path.join(out, 'moved'));
        await fs.symlink('moved', path.join(out, 'reports'));
        return { linked: path.join(out, 'reports'), untouched: ['moved'] };
      }],
      ['a folder above it, for a link', 'ci/reports/r.xml', async () => {
        await fs.rename(path.join(out, 'ci'), path.join(out, 'moved'));
        await fs.mkdir(path.join(out, 'elsewhere', 'reports'), { recursive: true });
        await fs.symlink('elsewhere', path.join(out, 'ci'));
        return { linked: path.join(out, 'ci'), untouched: ['moved/reports', 'elsewhere/reports'] };
      }],
    ];
    for (const [what, report, swap] of swaps) {
      await fs.rm(out, { recursive: true, force: true });
      await fs.mkdir(path.join(out, path.dirname(report)), { recursive: true });
      const file = path.join(out, report);
      await fs.writeFile(file, '<old/>');
      release = undefined as typeof release; // (not narrowed to undefined: the server sets it)
      const running = ferry(['-w', ws, 'run', 'Slow', '--out-junit', file]);
      for (let waited = 0; !release; waited += 20) {
        if (waited > 15_000) throw new Error('the run\'s request did not arrive');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const { linked, untouched } = await swap();
      const listed = async () => Object.fromEntries(await Promise.all(untouched.map(async (dir) => [dir, (await fs.readdir(path.join(out, dir))).sort()] as const)));
      const before = await listed();
      release();
      const result = await running;
      expect(result.code, what).toBe(2);
      expect(result.stderr, what).toContain(`ferry: --out-junit ${file}: during the run ${linked} was replaced by a symbolic link, and Ferry never follows links: the report was not written. Keep the report's folder in place during the run (or give another path), then run again.`);
      expect(result.stdout, what).toContain('Slow');
      // Nothing written through the link, nor left in the folder moved away (no report, no temporary file).
      expect(await listed(), what).toEqual(before);
      // The old report stays as it was, in the folder moved away.
      expect(await fs.readFile(path.join(out, 'moved', ...report.split('/').slice(1)), 'utf8'), what).toBe('<old/>');
    }
  });

  it('a process that quits while a report is half written (a second Ctrl-C: process.exit(130)) leaves no temporary file; the old report stays', async () => {
    const out = await tempDir();
    const file = path.join(out, 'r.json');
    await fs.writeFile(file, '{"old": true}');
    // The writer of `ferry run`'s report files, in a process of its own that quits as a second Ctrl-C quits it.
    const script = `
      const { ReportFileWriter } = await import(${JSON.stringify(path.join(import.meta.dirname, '..', '..', 'src', 'runner', 'report-file.ts'))});
      const writer = new ReportFileWriter(${JSON.stringify(file)}, '--out-json');
      await writer.write('{"half": ');
      console.log(JSON.stringify((await import('node:fs')).readdirSync(${JSON.stringify(out)})));
      process.exit(130);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: path.join(import.meta.dirname, '..', '..'), encoding: 'utf8', timeout: 30_000 });
    expect(child.status, child.stderr).toBe(130);
    // It was there while the report was being written…
    expect(JSON.parse(child.stdout) as string[]).toEqual(expect.arrayContaining([expect.stringMatching(/^\.r\.json\.\d+\.[0-9a-f]+\.tmp$/)]));
    // …and went with the process.
    expect(await fs.readdir(out)).toEqual(['r.json']);
    expect(await fs.readFile(file, 'utf8')).toBe('{"old": true}');
  });
});
