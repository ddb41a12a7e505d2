/**
 * The limits of spec 7 and 8.1 on imports, through `ferry import` as a user runs it, at the limit
 * and one over. An import file or download larger than 50 MB is refused (the exact words, nothing
 * written): a file, standard input, and a download over real loopback HTTP, with a Content-Length
 * and without one (refused as it arrives). A name is at most 200 characters (2.1.5): an export's
 * longer name is cut to 200, with a note. Folders nest 32 levels deep at most (2.1.8): a collection
 * reaching level 32 is imported, one reaching 33 refused.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry, initedWorkspace } from '../support/cli.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { tempDir } from '../support/temp.js';

const LIMIT = 50 * 1024 * 1024;
const REFUSED = (what: string) => `ferry: ${what} is 52,428,801 bytes; imports are limited to 50 MB. Split it, or import a smaller export.\n`;

/** A collection of one request, padded with trailing spaces (still JSON) to exactly 50 MB. */
const head = JSON.stringify({
  info: { name: 'Big', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [{ name: 'One', request: { method: 'GET', url: 'http://127.0.0.1:1/one' } }],
});
const atLimit = Buffer.alloc(LIMIT, 0x20);
atLimit.write(head);
const oneOver = Buffer.from(' ');

let server: Listening;

beforeAll(async () => {
  server = await listenLoopback(http.createServer((req, res) => {
    res.on('error', () => {});
    res.setHeader('content-type', 'application/json');
    // With a Content-Length: the size is known before the body is read.
    if (req.url === '/sized/at-limit') return void res.writeHead(200, { 'content-length': LIMIT }).end(atLimit);
    if (req.url === '/sized/over') {
      res.writeHead(200, { 'content-length': LIMIT + 1 });
      res.write(atLimit);
      return void res.end(oneOver);
    }
    // Without one (chunked): counted as it arrives, the last byte the one too many.
    if (req.url === '/streamed/at-limit') return void res.end(atLimit);
    if (req.url === '/streamed/over') {
      res.write(atLimit);
      return void res.end(oneOver);
    }
    res.writeHead(404).end();
  }), 'http');
});
afterAll(() => server.close());

async function requestFiles(ws: string): Promise<string[]> {
  return (await fs.readdir(path.join(ws, 'requests'), { recursive: true })).map(String).sort();
}

describe('ferry import: 50 MB (spec 7, 8.1)', () => {
  it('a file of exactly 50 MB is imported; one byte more is refused with its size, and nothing is written', async () => {
    const { ws } = await initedWorkspace();
    const dir = await tempDir();
    const fine = path.join(dir, 'at-limit.json');
    const over = path.join(dir, 'over.json');
    await fs.writeFile(fine, atLimit);
    await fs.writeFile(over, Buffer.concat([atLimit, oneOver]));
    expect((await fs.stat(fine)).size).toBe(LIMIT);

    const refused = await ferry(['-w', ws, 'import', over]);
    expect(refused).toEqual({ code: 2, stdout: '', stderr: REFUSED(`The file ${over}`) });
    expect(await requestFiles(ws)).toEqual([]);

    const imported = await ferry(['-w', ws, 'import', fine]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported "Big": 1 request, 1 folder, 0 environments, 0 workspace variables$/m);
    expect(await requestFiles(ws)).toEqual(['Big', path.join('Big', 'One.yaml')]);
  });

  it('standard input (ferry import -): 50 MB is imported, one byte more refused', async () => {
    const { ws } = await initedWorkspace();
    const text = atLimit.toString('utf8');
    const refused = await ferry(['-w', ws, 'import', '-'], process.cwd(), `${text} `);
    expect(refused).toEqual({ code: 2, stdout: '', stderr: REFUSED('Standard input') });
    expect(await requestFiles(ws)).toEqual([]);
    const imported = await ferry(['-w', ws, 'import', '-'], process.cwd(), text);
    expect(imported.code, imported.stderr).toBe(0);
    expect(await requestFiles(ws)).toEqual(['Big', path.join('Big', 'One.yaml')]);
  });

  for (const way of ['sized', 'streamed'] as const) {
    it(`a download of exactly 50 MB is imported; one byte more is refused (${way === 'sized' ? 'by its Content-Length' : 'chunked, as it arrives'})`, async () => {
      const { ws } = await initedWorkspace();
      const overUrl = `${server.url}/${way}/over`;
      const refused = await ferry(['-w', ws, 'import', overUrl]);
      expect(refused).toEqual({ code: 2, stdout: '', stderr: REFUSED(`The download ${overUrl}`) });
      expect(await requestFiles(ws)).toEqual([]);
      const imported = await ferry(['-w', ws, 'import', `${server.url}/${way}/at-limit`]);
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      expect(await requestFiles(ws)).toEqual(['Big', path.join('Big', 'One.yaml')]);
    });
  }
});

describe('ferry import: names of at most 200 characters (spec 2.1.5, 8.1)', () => {
  const long = (length: number, letter: string) => `${letter.repeat(39)}${'é'.repeat(length - 39)}`;
  const cutNote = (letter: string) => `The name "${letter.repeat(39)}é…" was longer than 200 characters and was cut.`;

  it('a collection, folder or request named with 200 characters keeps its name; 201 is cut to 200 with a note', async () => {
    const { ws } = await initedWorkspace();
    const file = path.join(await tempDir(), 'names.json');
    await fs.writeFile(file, JSON.stringify({
      info: { name: long(201, 'c'), schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        { name: long(201, 'f'), item: [{ name: long(200, 'r'), request: { method: 'GET', url: 'http://127.0.0.1:1/' } }] },
        { name: long(201, 'r'), request: { method: 'GET', url: 'http://127.0.0.1:1/' } },
      ],
    }));
    const imported = await ferry(['-w', ws, 'import', file, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ name: long(200, 'c'), notes: [cutNote('c'), cutNote('f'), cutNote('r')] });
    // The files hold the names, cut or whole; the file names are cut to 80 characters (2.1.4).
    const root = path.join(ws, 'requests', long(80, 'c'));
    const folder = path.join(root, long(80, 'f'));
    expect(await fs.readFile(path.join(folder, '_folder.yaml'), 'utf8')).toBe(`name: ${long(200, 'f')}\n`);
    expect(await fs.readFile(path.join(folder, `${long(80, 'r')}.yaml`), 'utf8')).toMatch(new RegExp(`^name: ${long(200, 'r')}\n`));
    expect(await fs.readFile(path.join(root, `${long(80, 'r')}.yaml`), 'utf8')).toMatch(new RegExp(`^name: ${long(200, 'r')}\n`));
  });

  it('an environment export named with 201 characters is cut to 200 with a note (it was cut without one); 200 is kept whole', async () => {
    const { ws } = await initedWorkspace();
    const dir = await tempDir();
    for (const [file, length] of [['over.json', 201], ['at.json', 200]] as const) {
      await fs.writeFile(path.join(dir, file), JSON.stringify({ name: long(length, length === 201 ? 'e' : 'a'), values: [{ key: 'k', value: 'v' }], _postman_variable_scope: 'environment' }));
    }
    const over = await ferry(['-w', ws, 'import', path.join(dir, 'over.json'), '--json']);
    expect(over.code, over.stderr).toBe(0);
    expect(JSON.parse(over.stdout)).toMatchObject({ name: long(200, 'e'), environments: 1, notes: [cutNote('e')] });
    const at = await ferry(['-w', ws, 'import', path.join(dir, 'at.json'), '--json']);
    expect(JSON.parse(at.stdout)).toMatchObject({ name: long(200, 'a'), notes: [] });
    const files = (await fs.readdir(path.join(ws, 'environments'))).sort();
    expect(files).toEqual([`${long(80, 'a')}.yaml`, `${long(80, 'e')}.yaml`]);
    expect(await fs.readFile(path.join(ws, 'environments', files[1]!), 'utf8')).toMatch(new RegExp(`^name: ${long(200, 'e')}\n`));
  });
});

describe('ferry import: 32 folder levels (spec 2.1.8, 8.1)', () => {
  /** A collection (level 1) whose folders nest to `levels`, a request in the deepest. */
  const nested = (levels: number) => {
    let item: Record<string, unknown> = { name: 'Leaf', request: { method: 'GET', url: 'http://127.0.0.1:1/' } };
    for (let level = levels; level >= 2; level--) item = { name: `l${level}`, item: [item] };
    return JSON.stringify({ info: { name: 'l1', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [item] });
  };
  const folders = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `l${from + i}`);

  it('a collection nesting folders 32 levels deep is imported and its request read (it was refused); 33 levels are refused, nothing written', async () => {
    const { ws } = await initedWorkspace();
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'd32.json'), nested(32));
    await fs.writeFile(path.join(dir, 'd33.json'), nested(33));
    const refused = await ferry(['-w', ws, 'import', path.join(dir, 'd33.json')]);
    expect(refused).toEqual({
      code: 2, stdout: '',
      stderr: `ferry: The collection nests folders more than 32 levels deep (at "${folders(1, 33).join('/')}"); Ferry reads requests at most 32 folder levels deep. Flatten the collection and import again.\n`,
    });
    expect(await requestFiles(ws)).toEqual([]);
    const imported = await ferry(['-w', ws, 'import', path.join(dir, 'd32.json')]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^Imported "l1": 1 request, 32 folders, /);
    const listed = await ferry(['-w', ws, 'ls', '--json']);
    expect(listed.stdout).toContain(`${folders(1, 32).join('/')}/Leaf.yaml`);
  });

  it('--into a folder counts its levels: under one folder, 31 levels are imported and 32 refused', async () => {
    const { ws } = await initedWorkspace();
    await fs.mkdir(path.join(ws, 'requests', 'Top'));
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'd31.json'), nested(31));
    await fs.writeFile(path.join(dir, 'd32.json'), nested(32));
    const refused = await ferry(['-w', ws, 'import', path.join(dir, 'd32.json'), '--into', 'Top']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`ferry: The collection nests folders more than 31 levels deep (at "${folders(1, 32).join('/')}"); Ferry reads requests at most 32 folder levels deep. Flatten the collection and import again.\n`);
    const imported = await ferry(['-w', ws, 'import', path.join(dir, 'd31.json'), '--into', 'Top']);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await ferry(['-w', ws, 'ls', '--json'])).stdout).toContain(`Top/${folders(1, 31).join('/')}/Leaf.yaml`);
  });
});
