/**
 * Every test process gets a data folder of its own (FERRY_DATA_DIR) when the test has not set one,
 * so no test reads or leaves listing caches, locks or tokens in the user's real data folder
 * (~/.local/share/ferry). It is made under the run's folder (data-root.ts), removed when the run
 * ends. Tests that need a fresh one call `isolatedDataDir()` (temp.ts); tests that put "unset"
 * back afterwards get this one again before the next test.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach } from 'vitest';

let processDataDir: string | undefined;

function useProcessDataDir(): void {
  if (process.env.FERRY_DATA_DIR) return;
  processDataDir ??= mkdtempSync(path.join(process.env.FERRY_TEST_DATA_ROOT ?? os.tmpdir(), 'data-'));
  process.env.FERRY_DATA_DIR = processDataDir;
}

// Before the file's own beforeAll hooks (which may start `ferry` processes), and again before each test.
useProcessDataDir();
beforeEach(useProcessDataDir);
