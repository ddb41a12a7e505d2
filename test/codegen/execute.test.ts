/**
 * Runs the generated code of every target whose toolchain is on this machine against a
 * real echo server, and compares what it sent with what Ferry sends for the same prepared
 * request: method, path and query, headers (less those the rules leave to the library),
 * body bytes or multipart parts.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TARGETS, toCode, type LibraryRules } from '../../src/codegen/index.js';
import { HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import { startRecordingServer, type RecordingServer } from '../support/servers/index.js';
import { ALL_BYTES, executionCases } from './fixtures.js';
import { missingToolchainsFail, RUNNERS, run, runFolder } from './runners.js';
import { expectedWire, receivedWire } from './wire.js';

let root: string;
let server: RecordingServer;

/** Ferry's own HTTP client as a sender: it keeps repeated headers and sends one Cookie line. */
const FERRY: { rules: LibraryRules } = {
  rules: { repeatedHeaders: 'keep', joinedHeaders: ['cookie'], decompresses: false, noBodyWith: [], addsHeaders: ['connection', 'user-agent', 'accept', 'accept-encoding'] },
};

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-codegen-'));
  await fs.writeFile(path.join(root, 'my photo.png'), Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from(ALL_BYTES)]));
  await fs.writeFile(path.join(root, 'notes.txt'), 'plain text\n');
  server = await startRecordingServer();
});

afterAll(async () => {
  await server?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

// The code is compared with the prepared request; this proves the prepared request is what
// Ferry's own client puts on the wire, so the code sends what Ferry sends.
describe('Ferry itself', () => {
  test.each(executionCases('/unused').map((c) => c.name))('%s: Ferry sends the prepared request', async (caseName) => {
    const testCase = executionCases(root).find((c) => c.name === caseName)!;
    const tag = `/ferry-${caseName}`;
    const prepared = testCase.request(server.base + tag);
    const agents = new HttpAgents();
    try {
      const result = await sendHttp(prepared, { agents });
      expect(result.status).toBe(200);
    } finally {
      await agents.close();
    }
    const recorded = server.requests.filter((r) => r.url.startsWith(tag));
    expect(recorded).toHaveLength(1);
    const expected = expectedWire(prepared, FERRY);
    expect({ ...receivedWire(recorded[0]!, FERRY, expected) }).toEqual({ ...expected });
  });
});

test('every target listed as executed in docs/codegen.md has a runner', async () => {
  const docs = await fs.readFile(path.join(import.meta.dirname, '../../docs/codegen.md'), 'utf8');
  const executed = docs.split('\n').filter((line) => /^\| .* \| executed/.test(line)).map((line) => /\(`([^`]+)` \/ `([^`]+)`\)/.exec(line)).map((m) => `${m![1]}/${m![2]}`);
  expect(executed.length).toBeGreaterThan(0);
  expect(executed.sort()).toEqual(RUNNERS.map((r) => r.targetId).sort());
});

/** Two programs at a time: the machine has two cores. */
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  while (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

const CASE_NAMES = executionCases('/unused').map((c) => c.name);

for (const runner of RUNNERS) {
  const target = TARGETS.find((t) => t.id === runner.targetId)!;
  const reason = runner.missing();
  // In CI (.ci/run installs every toolchain) a missing one is a failure, not a silent skip.
  if (reason !== undefined && missingToolchainsFail()) {
    test(`${target.id} toolchain is installed`, () => {
      throw new Error(`${target.id}: ${reason}. .ci/install-peers.sh installs it; FERRY_ALLOW_MISSING_TOOLCHAINS=1 skips instead.`);
    });
    continue;
  }
  describe.skipIf(reason !== undefined)(`${target.id}${reason ? ` (skipped: ${reason})` : ''}`, () => {
    test.concurrent.each(runner.cases ?? CASE_NAMES)('%s sends what Ferry sends', async (caseName) => {
      const testCase = executionCases(root).find((c) => c.name === caseName)!;
      const dir = await runFolder(root, `${target.id.replace('/', '-')}-${caseName}`);
      // The path tells the server's log which run a request came from.
      const tag = `/${target.id.replace('/', '-')}-${caseName}`;
      const prepared = testCase.request(server.base + tag);
      const code = toCode(prepared, target);
      const file = path.join(dir, target.fileName);
      await fs.writeFile(file, code);
      const env = runner.env?.(dir) ?? {};
      for (const argv of runner.commands(file, dir)) {
        const result = await slot(() => run(argv, dir, env, 90_000));
        expect(result.code, `${argv.join(' ')} failed:\n${result.stderr}\n--- code ---\n${code}`).toBe(0);
      }
      const recorded = server.requests.filter((r) => r.url.startsWith(tag));
      expect(recorded, `the ${target.id} code sent ${recorded.length} requests\n${code}`).toHaveLength(1);
      const exact = expectedWire(prepared, target);
      const expected = runner.adjustExpected?.(exact) ?? exact;
      const received = receivedWire(recorded[0]!, target, expected);
      // The tag is the first path segment on both sides.
      expect({ ...received }, `--- code ---\n${code}`).toEqual({ ...expected });
    });
  });
}
