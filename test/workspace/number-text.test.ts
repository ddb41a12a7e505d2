/**
 * Spec 2.1.1 (every file is YAML 1.2) meets hand-written text fields: `value: 007` is the number 7
 * in YAML, so Ferry sends 7. It says so, at the line, with the quotes that keep the text as typed;
 * numbers in number fields (`timeoutMs: 1e3`) and numbers written as JavaScript prints them
 * (`value: 42`) are not mentioned. Real files in a temporary folder, `ferry ls` and `ferry run`
 * against a server on 127.0.0.1.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResource } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startHttp1();
});
afterAll(() => peer.close());

async function readHeader(value: string) {
  const file = path.join(await tempDir(), 'R.yaml');
  await fs.writeFile(file, `name: R\nurl: http://127.0.0.1:9/\nsettings:\n  timeoutMs: 1e3\nheaders:\n  - key: X-Code\n    value: ${value}\n`);
  const outcome = await readResource('request', file, 'requests/R.yaml');
  if (!outcome.ok) throw new Error(outcome.warning.message);
  return { value: outcome.value.headers[0]!.value, warning: outcome.warning };
}

describe('a text field written as a number YAML reads otherwise (spec 2.1.1)', () => {
  it.each([
    ['007', '7'],
    ['1.10', '1.1'],
    ['0x1F', '31'],
    ['1e3', '1000'],
    ['+5', '5'],
    ['.5', '0.5'],
    ['12345678901234567890', '12345678901234567000'],
    ['0o17', '15'],
    // YAML 1.2's other plain numbers whose text changes (the sign, a zero fraction, a bare dot, an exponent).
    ['-0', '0'],
    ['+0', '0'],
    ['-0.0', '0'],
    ['+1', '1'],
    ['5.', '5'],
    ['1.0', '1'],
    ['-.5', '-0.5'],
    ['1E3', '1000'],
    ['0.0000001', '1e-7'],
    ['1e21', '1e+21'],
    ['0xff', '255'],
  ])('%s is read as %s, with a warning at its line saying to quote it', async (written, read) => {
    const { value, warning } = await readHeader(written);
    expect(value).toBe(read);
    expect(warning).toEqual({
      file: 'requests/R.yaml', line: 7, column: 12,
      message: `headers[0].value: ${written} is a number in YAML and is read as the text ${read}; write it in quotes ("${written}") to keep it as typed. The file is read as it is.`,
    });
  });

  it('after an anchor too (value: &zip 007)', async () => {
    const { value, warning } = await readHeader('&zip 007');
    expect(value).toBe('7');
    expect(warning).toMatchObject({ line: 7, column: 17, message: expect.stringMatching(/^headers\[0\]\.value: 007 is a number in YAML and is read as the text 7; write it in quotes \("007"\)/) });
  });

  it.each([
    ['.inf', 'infinity (.inf, or a number too large to hold, such as 1e400)'],
    ['-.Inf', '-infinity (.inf, or a number too large to hold, such as 1e400)'],
    ['.NaN', '.nan (not a number)'],
    ['1e400', 'infinity (.inf, or a number too large to hold, such as 1e400)'],
  ])('%s, a number no text stands for, is refused at its line, saying to quote it', async (written, got) => {
    const file = path.join(await tempDir(), 'R.yaml');
    await fs.writeFile(file, `name: R\nheaders:\n  - key: X-Code\n    value: ${written}\n`);
    const outcome = await readResource('request', file, 'requests/R.yaml');
    expect(outcome).toEqual({ ok: false, warning: { file: 'requests/R.yaml', line: 4, column: 12, message: `headers[0].value: expected text, got ${got}; write it in quotes ("${written}") to keep it as typed` } });
  });

  it('a tag yaml does not resolve (!!float 1) reads the text as written, and prints nothing on stderr', async () => {
    const file = path.join(await tempDir(), 'R.yaml');
    await fs.writeFile(file, 'name: R\nheaders:\n  - key: X-Code\n    value: !!float 1\n');
    const warned: unknown[] = [];
    const listen = (w: unknown) => void warned.push(w);
    process.on('warning', listen);
    try {
      const outcome = await readResource('request', file, 'requests/R.yaml');
      expect(outcome.ok && outcome.value.headers[0]!.value).toBe('1');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warned).toEqual([]);
    } finally {
      process.off('warning', listen);
    }
  });

  it('in a file with CRLF line ends too', async () => {
    const file = path.join(await tempDir(), 'R.yaml');
    await fs.writeFile(file, 'name: R\r\nheaders:\r\n  - key: X-Code\r\n    value: 007\r\n');
    const outcome = await readResource('request', file, 'requests/R.yaml');
    expect(outcome.warning?.message).toMatch(/^headers\[0\]\.value: 007 is a number in YAML and is read as the text 7;/);
  });

  // Text in YAML 1.2 (1_000, 0X1F, 0O17, -0x10, +0o7), or read back as typed (1.5e-10, 1e+21).
  it.each(['42', '"007"', "'1.10'", '2024-01-01', '127.0.0.1', '1.5', '-3', '-0x10', '+0o7', '1_000', '0X1F', '0O17', '1.5e-10', '1e+21', '0.5'])('%s: no warning (read as typed, or as JavaScript prints it)', async (written) => {
    expect((await readHeader(written)).warning).toBeUndefined();
  });

  it('numbers inside a block scalar (a JSON body) are text: no warning', async () => {
    const file = path.join(await tempDir(), 'B.yaml');
    await fs.writeFile(file, 'name: B\nurl: http://127.0.0.1:9/\nbody:\n  type: json\n  raw: |\n    {"price": 1.50, "zip": 007}\n    "rate": 0.10,\n');
    const outcome = await readResource('request', file, 'requests/B.yaml');
    expect(outcome.ok && outcome.warning).toBeUndefined();
    expect(outcome.ok && outcome.value.body.raw).toContain('"rate": 0.10,');
  });

  it('ferry ls names the file and line; ferry run sends what YAML read', async () => {
    await isolatedDataDir();
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: number-text\nname: N\n');
    await fs.mkdir(path.join(root, 'requests'));
    await fs.writeFile(path.join(root, 'requests', 'Zip.yaml'), `name: Zip\nurl: ${peer.url}/echo\nheaders:\n  - key: X-Zip\n    value: 02134\n`);
    const listed = await ferry(['ls'], root);
    expect(listed.stdout + listed.stderr).toContain('requests/Zip.yaml:5:12: headers[0].value: 02134 is a number in YAML and is read as the text 2134; write it in quotes ("02134") to keep it as typed.');
    const run = await ferry(['run'], root);
    expect(run.code).toBe(0);
    expect(peer.seen.at(-1)?.headers['x-zip']).toBe('2134');
  });
});
