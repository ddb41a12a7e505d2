/**
 * SIGTERM (how CI cancels a job, `timeout` and `docker stop` end one) ends each long command with
 * the exit code `ferry --help` gives: 1 for work it stopped (an import, undone), 0 for `app` and
 * `mcp`, which run until stopped. Ctrl-C (SIGINT) of these is tested beside each command; these are
 * the signals not tested there. Real processes of bin/ferry.js, a big document from the corpus.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerApp } from '../../src/cli/app.js';
import { ferry, ferryProcess, initedWorkspace } from '../support/cli.js';
import { folderSnapshot } from '../support/temp.js';

const GITHUB = path.resolve(import.meta.dirname, '..', 'fixtures', 'corpus', 'openapi', 'oas30-github.yaml');

/** Polls every 5 ms (at most 30 s) until `check` holds. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('SIGTERM', () => {
  it('ferry import mid-way through a big document: undone, exit 1, the workspace as before; the next import works', async () => {
    const { ws, data } = await initedWorkspace();
    const before = await folderSnapshot(ws);
    const run = ferryProcess(['-w', ws, 'import', GITHUB], { FERRY_DATA_DIR: data });
    // Once it writes its files aside (a staging folder under requests/ with files in it).
    await until(async () => {
      for (const entry of await fs.readdir(path.join(ws, 'requests')).catch(() => [] as string[])) {
        if (entry.startsWith('.ferry-import-') && (await fs.readdir(path.join(ws, 'requests', entry)).catch(() => [])).length > 0) return true;
      }
      return false;
    }, 'the import to stage files');
    run.child.kill('SIGTERM');
    expect(await run.done).toBe(1);
    expect(run.output.stderr).toBe('ferry: Interrupted: the import was undone; the workspace is as it was.\n');
    expect(run.output.stdout).toBe('');
    expect(await folderSnapshot(ws)).toEqual(before);

    const again = ferryProcess(['-w', ws, 'import', GITHUB, '--json'], { FERRY_DATA_DIR: data });
    expect(await again.done, again.output.stderr).toBe(0);
    expect(JSON.parse(again.output.stdout)).toMatchObject({ requests: expect.any(Number) });
    expect(await fs.readdir(path.join(ws, 'requests'))).toEqual(['GitHub v3 REST API']);
  }, 120_000);

  it('ferry app and ferry mcp end with 0, as with Ctrl-C', async () => {
    const { ws, data } = await initedWorkspace();
    const app = ferryProcess(['-w', ws, 'app', '--no-open'], { FERRY_DATA_DIR: data });
    await until(() => /http:\/\/127\.0\.0\.1:\d+\//.test(app.output.stdout), 'the app to print its URL');
    const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(app.output.stdout)![0]);
    app.child.kill('SIGTERM');
    expect(await app.done, app.output.stderr).toBe(0);
    await expect(fetch(url.origin)).rejects.toThrow();

    const mcp = ferryProcess(['-w', ws, 'mcp'], { FERRY_DATA_DIR: data });
    await until(() => mcp.output.stderr.includes('serving'), 'mcp to start');
    // Its client still connected (stdin open): the signal alone ends it.
    mcp.child.kill('SIGTERM');
    expect(await mcp.done, mcp.output.stderr).toBe(0);
  }, 60_000);
});

describe('ferry app listens for the stop before it prints its URL', () => {
  it('a supervisor that sends SIGTERM as soon as it reads the URL gets exit 0, not a process killed by the signal', async () => {
    const { ws } = await initedWorkspace();
    const out: string[] = [];
    let printedWhenListening: string[] | undefined;
    const program = new Command('ferry').option('-w, --workspace <dir>').exitOverride();
    const ctx = { output: { out: (text: string) => void out.push(text), err: () => {}, color: false }, cwd: ws, exitCode: 0 };
    registerApp(program, ctx, () => {
      printedWhenListening = [...out];
      return Promise.resolve();
    });
    await program.parseAsync(['-w', ws, 'app', '--no-open'], { from: 'user' });
    expect(out.join('\n')).toMatch(/http:\/\/127\.0\.0\.1:\d+\//);
    // Node has no SIGTERM handler until one is added: a signal before it ends the process at once.
    expect(printedWhenListening).toEqual([]);
    expect(ctx.exitCode).toBe(0);
  });
});
