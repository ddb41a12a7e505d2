/**
 * What `ferry ls` loads (bin/ferry.js as built: run `npm run build` first). A listing the listing
 * cache answers whole loads no schema, YAML parser, lock or string-width (issue 21: they were
 * most of its start-up), and prints what a listing that reads every file prints.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { modulesLoadedBy } from '../support/loaded-modules.js';
import { tempDir } from '../support/temp.js';

const NOT_WHEN_CACHED = ['zod', 'js-yaml', 'yaml', 'string-width'];

describe('ferry ls (bin/ferry.js)', () => {
  it('loads no schema or YAML parser when every file comes from the listing cache, and lists the same', async () => {
    const ws = path.join(await tempDir(), 'ws');
    const env = { FERRY_DATA_DIR: path.join(await tempDir(), 'data') };
    expect((await ferry(['init', ws])).code).toBe(0);
    await fs.mkdir(path.join(ws, 'requests', 'Users'));
    await fs.writeFile(path.join(ws, 'requests', 'Users', '_folder.yaml'), 'name: People\nseq: 1\n');
    await fs.writeFile(path.join(ws, 'requests', 'Users', 'List.yaml'), 'name: List users\nurl: http://127.0.0.1:9/users\n');
    await fs.writeFile(path.join(ws, 'requests', 'Users', 'Broken.yaml'), 'name: [unclosed\n');
    await fs.writeFile(path.join(ws, 'requests', 'Ping.yaml'), 'name: Ping\nkind: dns\n');
    await fs.writeFile(path.join(ws, 'environments', 'local.yaml'), 'name: Local\nvariables:\n  - key: token\n    value: written-by-mistake\n    secret: true\n');
    // Files changed in the last 3 s are read but not kept (the racy interval): let them age.
    await new Promise((resolve) => setTimeout(resolve, 3_200));

    const cold = await modulesLoadedBy(['-w', ws, 'ls'], { env });
    expect(cold.code, cold.stdout).toBe(0);
    expect(cold.packages.has('zod')).toBe(true);
    expect(cold.stdout).toContain('List users');
    expect(cold.stdout).toContain('the secret variable "token" has a value in the file');

    const warm = await modulesLoadedBy(['-w', ws, 'ls'], { env });
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(cold.stdout);
    for (const name of NOT_WHEN_CACHED) expect(warm.packages.has(name), name).toBe(false);
    const json = await modulesLoadedBy(['-w', ws, 'ls', '--json'], { env });
    expect(json.packages.has('zod')).toBe(false);
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'ws', environments: [{ id: 'local', name: 'Local' }] });

    // A file edited: read (the parsers load) and listed as it is now.
    await fs.writeFile(path.join(ws, 'requests', 'Ping.yaml'), 'name: Pong\nkind: dns\n');
    const edited = await modulesLoadedBy(['-w', ws, 'ls'], { env });
    expect(edited.stdout).toBe(cold.stdout.replace('Ping', 'Pong'));
    expect(edited.packages.has('zod')).toBe(true);
  }, 60_000);
});
