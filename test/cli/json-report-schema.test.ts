/**
 * `ferry run -r json` on stdout, read by a CI job that checks it against the published schema
 * (docs/json-report.schema.json): what comes out matches it, also when the run failed or was refused.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { startHttp1, type Peer } from '../support/servers/index.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startHttp1();
});
afterAll(() => peer.close());

async function schemaCheck() {
  const schema = JSON.parse(await fs.readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'json-report.schema.json'), 'utf8'));
  return new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
}

describe('ferry run -r json against docs/json-report.schema.json', () => {
  it('a failed run (exit 1) and every refusal on stdout (exit 2) match the schema; a malformed error object does not', async () => {
    await isolatedDataDir();
    const validate = await schemaCheck();
    const ws = path.join(await tempDir(), 'ws');
    expect((await ferry(['init', ws])).code).toBe(0);
    await fs.writeFile(path.join(ws, 'requests', 'missing.yaml'), `name: missing\nurl: ${peer.url}/status?code=404\n`);
    const outside = await tempDir();
    const cases: Array<[string[], string, number]> = [
      [['-w', ws, 'run', '-r', 'json'], ws, 1],
      [['-w', ws, 'run', '-r', 'json', 'Nope'], ws, 2],
      [['-w', ws, 'run', '--out-json', '-', '-e', 'nope'], ws, 2],
      [['-w', ws, 'run', '-r', 'json', '--no-such-option'], ws, 2],
      [['-w', ws, 'run', '-r', 'json', '-n', 'many'], ws, 2],
      [['run', '-r', 'json'], outside, 2],
    ];
    for (const [args, cwd, code] of cases) {
      const result = await ferry(args, cwd);
      const label = args.join(' ');
      expect(result.code, label).toBe(code);
      expect(validate(JSON.parse(result.stdout)), `${label}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // The error object is held to its shape too.
    expect(validate({ error: { message: 'x' } })).toBe(false);
    expect(validate({ error: { message: 'x', exitCode: '2' } })).toBe(false);
    expect(validate({})).toBe(false);
  });
});
