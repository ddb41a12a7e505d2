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
import { TARGETS, toCode } from '../../src/codegen/index.js';
import { startEchoServer, type EchoServer } from './echo-server.js';
import { ALL_BYTES, executionCases } from './fixtures.js';
import { RUNNERS, run, runFolder } from './runners.js';
import { expectedWire, receivedWire } from './wire.js';

let root: string;
let server: EchoServer;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-codegen-'));
  await fs.writeFile(path.join(root, 'my photo.png'), Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from(ALL_BYTES)]));
  server = await startEchoServer();
});

afterAll(async () => {
  await server?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
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
