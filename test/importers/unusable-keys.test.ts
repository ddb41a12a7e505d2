/**
 * Variable keys no placeholder can name (`" api key"`, `a}}b`), which Postman takes: an import
 * keeps them as written (scripts still read them by key) and its notes name each one, per file.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry, initedWorkspace } from '../support/cli.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { tempDir } from '../support/temp.js';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures', 'import-keys');
const RULE = 'since a key cannot hold a line break, "{{" or "}}", nor start or end with a space, tab, "{" or "}"';

let server: Listening;
let base: string;

beforeAll(async () => {
  server = await listenLoopback(http.createServer((req, res) => res.end(req.url)), 'http');
  base = server.url;
});
afterAll(() => server.close());

describe('importing variable keys no placeholder can name', () => {
  it('an environment export keeps them as written, enabled as they were, with a note naming each', async () => {
    const { ws } = await initedWorkspace();
    const result = await ferry(['-w', ws, 'import', '--json', path.join(FIXTURES, 'odd-keys.postman_environment.json')]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).notes).toEqual([
      `environments/Odd keys.yaml: no placeholder can name these 3 variable keys " api key", "a}}b", "line\\nbreak", ${RULE}. ` +
        'They were imported as written (Postman takes any key), so scripts still read them (pm.environment.get(" api key")); ' +
        "to use them as {{placeholders}}, rename them in environments/Odd keys.yaml and in the scripts (the app's variable editor will not save them as they are).",
    ]);
    const text = await fs.readFile(path.join(ws, 'environments', 'Odd keys.yaml'), 'utf8');
    expect(text).toBe([
      'name: Odd keys', 'variables:',
      '  - key: " api key"', '    value: k-1',
      '  - key: a}}b', '    value: two',
      '  - key: token', '    secret: true',
      '  - key: |-', '      line', '      break', '    value: four', '    enabled: false', '',
    ].join('\n'));
  });

  it('collection variables go to ferry.yaml as written, with a note; a script reads them by key in a run', async () => {
    const { ws } = await initedWorkspace();
    expect((await ferry(['-w', ws, 'import', path.join(FIXTURES, 'odd-keys.postman_environment.json')])).code).toBe(0);
    const result = await ferry(['-w', ws, 'import', '--json', path.join(FIXTURES, 'odd-keys.postman_collection.json')]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { variables: number; notes: string[] };
    expect(summary.variables).toBe(3);
    expect(summary.notes).toEqual([
      `ferry.yaml: no placeholder can name these 2 variable keys "{x}", "trailing ", ${RULE}. ` +
        'They were imported as written (Postman takes any key), so scripts still read them (pm.collectionVariables.get("{x}")); ' +
        "to use them as {{placeholders}}, rename them in ferry.yaml and in the scripts (the app's variable editor will not save them as they are).",
    ]);
    expect(await fs.readFile(path.join(ws, 'ferry.yaml'), 'utf8')).toContain('  - key: "{x}"\n    value: braced\n  - key: usable\n    value: plain\n  - key: "trailing "\n    value: spaced\n');
    // The keys were kept for the scripts that read them: the imported request's tests pass.
    const run = await ferry(['-w', ws, 'run', 'Odd keys', '-e', 'Odd keys', '--var', `baseUrl=${base}`]);
    expect(run.stdout).toMatch(/✓ the collection variable named \{x\} is read by key\n.*✓ the environment variable " api key" is read by key\n.*✓ a usable key still works as a placeholder\n[^]*PASSED/);
    expect(run.code).toBe(0);
    // And the run says what the note said: the file is read with a warning to rename the key.
    expect(run.stdout).toContain('! ferry.yaml:5:10: variables[0].key: "{x}" can never be used');
  });

  it('OpenAPI: server variables are filled in, and path parameters become keys a placeholder names', async () => {
    const { ws } = await initedWorkspace();
    const result = await ferry(['-w', ws, 'import', '--json', path.join(FIXTURES, 'odd-names.openapi.yaml')]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).notes.filter((n: string) => n.includes('placeholder'))).toEqual([]);
    const text = await fs.readFile(path.join(ws, 'environments', 'Odd names.yaml'), 'utf8');
    const keys = [...text.matchAll(/- key: (.*)/g)].map((m) => m[1]);
    expect(keys).toEqual(['baseUrl', 'itemId', 'a']);
    expect(text).toContain('value: https://api.example.test/v1');
  });

  it('an import whose keys are all usable gets no such note', async () => {
    const { ws } = await initedWorkspace();
    const file = path.join(await tempDir(), 'plain.postman_environment.json');
    await fs.writeFile(file, JSON.stringify({ name: 'Plain', values: [{ key: 'api_key', value: '1' }, { key: 'fo/o', value: '2' }], _postman_variable_scope: 'environment' }));
    const result = await ferry(['-w', ws, 'import', '--json', file]);
    expect(JSON.parse(result.stdout).notes).toEqual([]);
  });
});
