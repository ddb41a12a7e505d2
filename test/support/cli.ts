/** Runs `ferry` in-process, capturing what it prints. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isolatedDataDir, tempDir } from './temp.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `stdin`: the command's standard input (`ferry import -`, `ferry update --from -`, `ferry secret set`), read to its end; none given: the test process's own. */
export async function ferry(args: string[], cwd = process.cwd(), stdin?: string): Promise<CliResult> {
  return capture(args, cwd, stdin, undefined);
}

/**
 * What a test of a command starts from: a workspace made by `ferry init` as `ws` in a fresh
 * temporary folder (other files may go beside it), and a fresh data folder of its own (`data`,
 * FERRY_DATA_DIR from now on).
 */
export async function initedWorkspace(): Promise<{ ws: string; data: string }> {
  const data = await isolatedDataDir();
  const ws = path.join(await tempDir(), 'ws');
  const made = await ferry(['init', ws]);
  expect(made.code, made.stderr).toBe(0);
  return { ws, data };
}

/**
 * As `ferry`, with stderr a terminal: what the status line drew (progress of long work) is
 * returned too, as the raw writes it made.
 */
export async function ferryOnTerminal(args: string[], cwd = process.cwd()): Promise<CliResult & { status: string[] }> {
  const status: string[] = [];
  const result = await capture(args, cwd, undefined, { write: (text) => void status.push(text) });
  return { ...result, status };
}

/**
 * As `ferry`, started: `printed(pattern)` resolves once stdout matches it (a run in its pause, say),
 * so a test acts on what the command has said, not after a guessed wait.
 */
export function ferryStarted(args: string[], cwd = process.cwd()): { done: Promise<CliResult>; printed(pattern: RegExp): Promise<void> } {
  const waiting: { pattern: RegExp; resolve(): void }[] = [];
  let seen = '';
  const onOut = (stdout: string) => {
    seen = stdout;
    for (const w of [...waiting]) if (w.pattern.test(stdout)) (waiting.splice(waiting.indexOf(w), 1), w.resolve());
  };
  const done = capture(args, cwd, undefined, undefined, onOut);
  const printed = (pattern: RegExp) => (pattern.test(seen) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ pattern, resolve })));
  return { done, printed };
}

async function capture(args: string[], cwd: string, stdin: string | undefined, status: { write(text: string): void } | undefined, onOut?: (stdout: string) => void): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    stdin: stdin === undefined ? undefined : Readable.from([Buffer.from(stdin)]),
    output: {
      out: (t) => {
        stdout += t.endsWith('\n') ? t : `${t}\n`;
        onOut?.(stdout);
      },
      err: (t) => (stderr += t.endsWith('\n') ? t : `${t}\n`),
      color: false,
      ...(status ? { status } : {}),
    },
  });
  return { code, stdout, stderr };
}

/** `ferry ARGS` in a process of its own (bin/ferry.js as shipped); killed after `limitMs` at most. */
export interface FerryProcess {
  child: ChildProcessWithoutNullStreams;
  /** What it has printed so far. */
  output: { stdout: string; stderr: string };
  /** Its exit code (null when a signal ended it). */
  done: Promise<number | null>;
}

export function ferryProcess(args: string[], env: NodeJS.ProcessEnv, limitMs = 60_000): FerryProcess {
  const bin = new URL('../../bin/ferry.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (output.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output.stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const done = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve(code)));
  });
  return { child, output, done };
}

/**
 * `ferry ARGS` as shipped (ferryProcess) with `dataDir` its data folder and `stdin` (nothing unless
 * given) on its standard input, run to its end: its exit code and what it printed. `until` (on
 * stdout) sends Ctrl-C once seen (for `serve`). One not ended after `limitMs` is killed and fails
 * the test, naming it.
 */
export async function ferryBin(args: string[], dataDir: string, { until, limitMs = 30_000, stdin = '' }: { until?: RegExp; limitMs?: number; stdin?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = ferryProcess(args, { FERRY_DATA_DIR: dataDir }, limitMs);
  run.child.stdin.end(stdin);
  if (until) {
    const onOut = () => {
      if (!until.test(run.output.stdout)) return;
      run.child.stdout.off('data', onOut);
      run.child.kill('SIGINT');
    };
    run.child.stdout.on('data', onOut);
  }
  const code = await run.done;
  if (run.child.signalCode === 'SIGKILL') throw new Error(`ferry ${args.join(' ')} did not end in ${limitMs / 1000} s; stderr: ${run.output.stderr}`);
  return { code, ...run.output };
}
