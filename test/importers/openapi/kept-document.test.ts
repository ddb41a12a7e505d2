/**
 * The document an OpenAPI import keeps under `specs/` holds the text as read, in UTF-8: the file's
 * own bytes when they are UTF-8, else the decoded text (byte order mark dropped, UTF-16 converted,
 * invalid bytes as U+FFFD).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitImport, convertInput, readInput } from '../../../src/importers/index.js';
import { openWorkspace } from '../../../src/workspace/index.js';
import { tempDir, tempWorkspace } from './helpers.js';

const YAML = [
  'openapi: 3.0.3',
  'info:',
  '  title: Kept',
  '  description: It’s “quoted”, café, 日本語, 🚀',
  'servers:',
  '  - url: https://api.example.test',
  'paths:',
  '  /a:',
  '    get:',
  '      summary: A',
  '      responses:',
  "        '200':",
  '          description: ok',
  '',
].join('\n');

const cleanup: string[] = [];
afterEach(async () => {
  for (const dir of cleanup.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

/** Imports `bytes` (written to a file) into a fresh workspace and returns the kept document's bytes. */
async function keptBytes(bytes: Buffer): Promise<Buffer> {
  const dir = await tempDir('kept-src');
  const root = await tempWorkspace();
  cleanup.push(dir, root);
  const file = path.join(dir, 'api.yaml');
  await fs.writeFile(file, bytes);
  const ws = await openWorkspace(root);
  const summary = await commitImport({ root, id: ws.id }, await convertInput(file, { workspaceRoot: root }));
  const spec = summary.written?.find((w) => w.startsWith('specs/'));
  expect(spec).toBe('specs/Kept.yaml');
  return fs.readFile(path.join(root, spec!));
}

describe('the kept document', () => {
  it('is the file byte for byte when it is UTF-8', async () => {
    const bytes = Buffer.from(YAML, 'utf8');
    expect(await keptBytes(bytes)).toEqual(bytes);
    const dir = await tempDir('kept-read');
    cleanup.push(dir);
    await fs.writeFile(path.join(dir, 'api.yaml'), bytes);
    expect((await readInput(path.join(dir, 'api.yaml'))).text).toBe(YAML);
  });

  it('drops a UTF-8 byte order mark, as the text read does', async () => {
    const kept = await keptBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(YAML, 'utf8')]));
    expect(kept).toEqual(Buffer.from(YAML, 'utf8'));
  });

  it('is written in UTF-8 when the file is UTF-16 with a byte order mark', async () => {
    const kept = await keptBytes(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(YAML, 'utf16le')]));
    expect(kept).toEqual(Buffer.from(YAML, 'utf8'));
  });

  it('holds U+FFFD for bytes that are not UTF-8, as the text read does', async () => {
    const latin1 = Buffer.from(YAML.replace('It’s “quoted”, café, 日本語, 🚀', 'caf\u00e9 in Latin-1'), 'latin1');
    const kept = await keptBytes(latin1);
    expect(kept.toString('utf8')).toContain('caf\uFFFD in Latin-1');
    expect(kept).toEqual(Buffer.from(latin1.toString('utf8'), 'utf8'));
  });
});
