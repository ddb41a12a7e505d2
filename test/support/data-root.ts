/**
 * Vitest's global set-up: one temporary folder for the whole test run, under which each test
 * process makes its data folder (data-dir.ts); removed when the run ends, however its workers ended.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ferry-test-data-'));
  process.env.FERRY_TEST_DATA_ROOT = root;
  return () => rmSync(root, { recursive: true, force: true });
}
