/**
 * How each target's code is run on this machine, and whether its toolchain is here.
 * `.ci/install-peers.sh` installs every toolchain named here from Debian.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { httpieEnv } from '../support/httpie.js';
import type { Wire } from './wire.js';

export interface Runner {
  targetId: string;
  /** Why it cannot run here, or undefined when it can. */
  missing(): string | undefined;
  /** Command lines to run in `dir` after the code is written to the target's file name. */
  commands(file: string, dir: string): string[][];
  env?(dir: string): Record<string, string>;
  /** Compile-heavy toolchains run only these cases, to keep CI time down (the rest are simple for them). */
  cases?: string[];
  /** What the library is known to change, with the reason (documented in docs/codegen.md). */
  adjustExpected?(wire: Wire): Wire;
}

/** The HTML form-data rules make FormData send line breaks in text fields as CRLF. */
function formDataNewlines(wire: Wire): Wire {
  if (!Array.isArray(wire.body)) return wire;
  const parts = wire.body.map((p) =>
    p.filename === undefined ? { ...p, data: Buffer.from(p.data.toString('utf8').replace(/\r\n|\r|\n/g, '\r\n'), 'utf8') } : p,
  );
  return { ...wire, body: parts };
}

function has(command: string, args: string[] = ['--version']): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

const cache = new Map<string, string | undefined>();
function check(key: string, probe: () => string | undefined): () => string | undefined {
  return () => {
    if (!cache.has(key)) cache.set(key, probe());
    return cache.get(key);
  };
}

/** Debian's python3, which has python3-requests and python3-httpx from apt (PyPI is not reachable here). */
const PYTHON = '/usr/bin/python3';
const pythonModule = (mod: string, pkg: string) =>
  check(`python-${mod}`, () =>
    !existsSync(PYTHON) ? `${PYTHON} not found (apt-get install python3 ${pkg})` : has(PYTHON, ['-c', `import ${mod}`]) ? undefined : `Python module ${mod} not found (apt-get install ${pkg})`,
  );

const tool = (command: string, pkg: string, args?: string[]) =>
  check(command, () => (has(command, args) ? undefined : `${command} not found (apt-get install ${pkg})`));

/** Debian puts curl.h under the architecture's folder (x86_64-linux-gnu, aarch64-linux-gnu, ...). */
function curlHeaderFound(): boolean {
  if (existsSync('/usr/include/curl/curl.h')) return true;
  try {
    return readdirSync('/usr/include').some((dir) => existsSync(path.join('/usr/include', dir, 'curl', 'curl.h')));
  } catch {
    return false;
  }
}

const SLOW_CASES = ['hostile-text', 'binary', 'text-with-control-bytes', 'multipart', 'long-text', 'long-binary'];

export const REPO = path.resolve(import.meta.dirname, '../..');

export const RUNNERS: Runner[] = [
  { targetId: 'curl/bash', missing: tool('curl', 'curl'), commands: (f) => [['bash', f]] },
  { targetId: 'httpie/httpie', missing: tool('http', 'httpie'), commands: (f) => [['bash', f]], env: (dir) => httpieEnv(dir) },
  { targetId: 'wget/wget', missing: tool('wget', 'wget'), commands: (f) => [['bash', f]] },
  { targetId: 'javascript/fetch', missing: () => undefined, commands: (f) => [[process.execPath, f]], adjustExpected: formDataNewlines },
  {
    targetId: 'javascript/axios',
    missing: check('axios', () => (existsSync(path.join(REPO, 'node_modules/axios')) ? undefined : 'axios not installed (npm install)')),
    commands: (f) => [[process.execPath, f]],
    adjustExpected: formDataNewlines,
  },
  { targetId: 'python/requests', missing: pythonModule('requests', 'python3-requests'), commands: (f) => [[PYTHON, f]] },
  { targetId: 'python/httpx', missing: pythonModule('httpx', 'python3-httpx'), commands: (f) => [[PYTHON, f]] },
  {
    targetId: 'go/net-http',
    missing: tool('go', 'golang-go', ['version']),
    commands: (f) => [['go', 'run', f]],
    cases: SLOW_CASES,
    env: (dir) => ({ GOFLAGS: '-mod=mod', GOCACHE: path.join(dir, '..', 'gocache'), GOPATH: path.join(dir, '..', 'gopath'), GOPROXY: 'off', GOTOOLCHAIN: 'local', GO111MODULE: 'auto' }),
  },
  { targetId: 'java/httpclient', missing: tool('java', 'openjdk-17-jdk-headless'), commands: (f) => [['java', f]], cases: SLOW_CASES },
  { targetId: 'php/curl', missing: check('php-curl', () => (has('php', ['-r', 'exit(function_exists("curl_init") ? 0 : 1);']) ? undefined : 'php with the curl extension not found (apt-get install php-cli php-curl)')), commands: (f) => [['php', f]] },
  { targetId: 'ruby/net-http', missing: tool('ruby', 'ruby'), commands: (f) => [['ruby', f]] },
  {
    targetId: 'c/libcurl',
    missing: check('libcurl', () =>
      !has('gcc') ? 'gcc not found (apt-get install gcc)' : has('pkg-config', ['--exists', 'libcurl']) || curlHeaderFound() ? undefined : 'libcurl headers not found (apt-get install libcurl4-openssl-dev)',
    ),
    commands: (f, dir) => [['gcc', '-o', path.join(dir, 'request'), f, '-lcurl'], [path.join(dir, 'request')]],
  },
];

/**
 * Whether a missing toolchain fails the run instead of skipping its tests: in CI (where
 * `.ci/install-peers.sh` has installed them all), unless FERRY_ALLOW_MISSING_TOOLCHAINS is set.
 */
export function missingToolchainsFail(): boolean {
  return (process.env.CI === 'true' || process.env.CI === '1' || process.env.FERRY_REQUIRE_TOOLCHAINS === '1') && process.env.FERRY_ALLOW_MISSING_TOOLCHAINS !== '1';
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one command with a time limit; stdin is closed at once. */
export function run(argv: string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: stderr + String(e) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A folder for one run; axios is found through a node_modules link to the project's. */
export async function runFolder(root: string, name: string): Promise<string> {
  const dir = path.join(root, name);
  await fs.mkdir(dir, { recursive: true });
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir').catch(() => undefined);
  return dir;
}
