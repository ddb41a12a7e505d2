/** Temporary folders for tests, removed afterwards; and a FERRY_DATA_DIR of their own. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(async () => {
  while (made.length) {
    const dir = made.pop()!;
    await fs.chmod(dir, 0o755).catch(() => {});
    await fs.rm(dir, { recursive: true, force: true });
  }
});

export async function tempDir(prefix = 'ferry-test-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Copies a fixture folder from test/fixtures into a fresh temporary folder. */
export async function copyFixture(name: string): Promise<string> {
  const dir = await tempDir();
  await fs.cp(path.join(import.meta.dirname, '..', 'fixtures', name), dir, { recursive: true });
  return dir;
}

/** Points the data folder at a fresh temporary folder for the current test. */
export async function isolatedDataDir(): Promise<string> {
  const dir = await tempDir('ferry-data-');
  process.env.FERRY_DATA_DIR = dir;
  return dir;
}

/**
 * Every file and folder under `root` with its content (folders as `name/`: '(folder)'), to prove
 * that a refused or undone operation changed nothing, not even an empty folder.
 */
export async function folderSnapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        out[`${path.relative(root, full)}/`] = '(folder)';
        await walk(full);
      } else out[path.relative(root, full)] = await fs.readFile(full, 'utf8');
    }
  };
  await walk(root);
  return out;
}
