/**
 * What an OpenAPI import writes, byte for byte: each document below is read, converted and
 * committed into a fresh workspace (as `ferry import FILE` does), and every file it wrote under
 * requests/, specs/ and environments/ is hashed. The snapshot was taken before the import was
 * made faster (issue 24); a change here means the written workspace changed, which a speed-up
 * must never do. When a change is meant, update the snapshot (`npx vitest run -u` on this file)
 * and say why in the commit.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitImport, convertInput } from '../../../src/importers/index.js';
import { openWorkspace } from '../../../src/workspace/index.js';
import { CORPUS, tempWorkspace } from './helpers.js';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-output-snapshot-data-'));
const previousDataDir = process.env.FERRY_DATA_DIR;
process.env.FERRY_DATA_DIR = dataDir;
const cleanups: string[] = [dataDir];

afterAll(async () => {
  if (previousDataDir === undefined) delete process.env.FERRY_DATA_DIR;
  else process.env.FERRY_DATA_DIR = previousDataDir;
  for (const dir of cleanups) await fs.rm(dir, { recursive: true, force: true });
});

/** `path sha256` lines for every file under the workspace's imported areas, sorted by path. */
async function writtenFiles(root: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else lines.push(`${path.relative(root, full).split(path.sep).join('/')} ${createHash('sha256').update(await fs.readFile(full)).digest('hex')}`);
    }
  };
  for (const area of ['requests', 'specs', 'environments']) await walk(path.join(root, area)).catch(() => {});
  return lines.sort();
}

async function importInto(file: string): Promise<string[]> {
  const root = await tempWorkspace();
  cleanups.push(root);
  const ws = await openWorkspace(root);
  const result = await convertInput(path.join(CORPUS, file), { baseUrl: 'https://api.example.test', workspaceRoot: root });
  await commitImport({ root, id: ws.id }, result);
  return writtenFiles(root);
}

const digest = (lines: string[]) => createHash('sha256').update(lines.join('\n')).digest('hex');

describe('the files an OpenAPI import writes', () => {
  // Whole listing for a small document read through `yaml` (it has anchors and aliases).
  it('oas30-redoc-demo.yaml: every file and its hash', async () => {
    expect(await importInto('oas30-redoc-demo.yaml')).toMatchSnapshot();
  }, 60_000);

  // Large documents: the count and one hash over the whole listing (paths and file hashes).
  for (const file of ['oas30-github.yaml', 'swagger20-kubernetes.json', 'oas30-stripe-spec3.json', 'swagger20-petstore.json']) {
    it(`${file}: file count and hash of the listing`, async () => {
      const lines = await importInto(file);
      expect({ files: lines.length, sha256: digest(lines) }).toMatchSnapshot();
    }, 120_000);
  }
});
