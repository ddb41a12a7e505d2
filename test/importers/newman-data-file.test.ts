/**
 * A JSON data file whose rows hold values that are not text (an object, a list, a number, a
 * boolean, null), run through Newman (from node_modules) and through `ferry import` + `ferry run -d`
 * against one loopback server: what scripts read (`pm.iterationData.get`, `has`, `toObject`, the
 * legacy `data`, `pm.variables.get` and `replaceIn`) and what `{{name}}` sends in the URL, a header
 * and the body must agree, iteration by iteration. Newman fills a placeholder with the value's
 * String() ([object Object], a list joined by commas) and leaves a null's `{{name}}` as written,
 * even where the environment has the name.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { importedWorkspace, newmanConsole, recordingServer } from '../support/newman.js';
import type { Listening } from '../support/servers/listen.js';
import { tempDir } from '../support/temp.js';

let listening: Listening;
/** What the server got: the URL, the X-Row header and the body, one line each. */
const seen: string[] = [];
beforeAll(async () => {
  listening = await recordingServer((req, body) => seen.push(decodeURIComponent(req.url!), `header ${String(req.headers['x-row'])}`, `body ${body.toString('utf8')}`));
});
afterAll(async () => {
  await listening.close();
});

/** Two rows: every JSON type in the first; text (and a key left out) in the second. */
const ROWS = [
  { obj: { a: 1, b: 'x', n: { c: [1, 2] } }, arr: [1, 'two', { t: 3 }, null, [4, 5]], empty: [], num: 42.5, int: 7, no: false, yes: true, nul: null, str: 'text' },
  { obj: 'plain', arr: '1,2', num: '5', nul: 'given', str: '' },
];
const NAMES = Object.keys(ROWS[0]!);

/** A line with what a script reads of the variable: type and JSON from each reader, has, replaceIn. */
const read = (name: string) =>
  `{ const v = pm.iterationData.get('${name}'); const d = data['${name}']; const w = pm.variables.get('${name}'); ` +
  `console.log('${name}', typeof v, String(JSON.stringify(v)), typeof d, String(JSON.stringify(d)), typeof w, String(JSON.stringify(w)), pm.iterationData.has('${name}'), JSON.stringify(pm.variables.replaceIn('{{${name}}}'))); }`;

function collection(base: string) {
  const reads = [
    ...NAMES.map(read),
    "console.log('toObject', JSON.stringify(pm.iterationData.toObject()));",
    "console.log('data', JSON.stringify(data));",
  ];
  const query = NAMES.map((name) => `${name}={{${name}}}`).join('&');
  return {
    info: { name: 'Rows', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      {
        name: 'use',
        event: [{ listen: 'prerequest', script: { exec: reads } }],
        request: {
          method: 'POST',
          url: `${base}/use?${query}`,
          header: [{ key: 'X-Row', value: '{{obj}};{{nul}};{{no}};{{empty}}' }],
          body: { mode: 'raw', raw: '{{obj}}|{{arr}}|{{nul}}|{{num}}|{{no}}|{{yes}}|{{empty}}|{{nested}}' },
        },
      },
    ],
  };
}

/** A Newman run's console lines. */
async function runNewman(options: Record<string, unknown>): Promise<string[]> {
  // The legacy `data` global's deprecation notice is Newman's alone.
  return (await newmanConsole(options)).filter((line) => !line.startsWith('Using "data" is deprecated'));
}

describe('Newman and Ferry fill and read a JSON data file\'s values that are not text', () => {
  it('scripts read them with their type, {{name}} sends their String(), a null leaves {{name}} as written', async () => {
    const dir = await tempDir('ferry-newman-data-');
    const base = `http://127.0.0.1:${listening.port}`;
    const doc = collection(base);
    // The environment has `nul` and `nested`: a row's null hides the environment's value from {{nul}}, as in Newman.
    const env = { name: 'Env', values: [{ key: 'nul', value: 'fromEnv', enabled: true }, { key: 'nested', value: '<{{arr}}>', enabled: true }] };
    const [colFile, envFile, dataFile] = ['c.postman_collection.json', 'e.postman_environment.json', 'rows.json'].map((f) => path.join(dir, f)) as [string, string, string];
    await fs.writeFile(colFile, JSON.stringify(doc));
    await fs.writeFile(envFile, JSON.stringify(env));
    await fs.writeFile(dataFile, JSON.stringify(ROWS));

    const byNewman = await runNewman({ collection: doc, environment: env, iterationData: dataFile });
    const newmanSent = seen.splice(0);

    const root = await importedWorkspace(dir, colFile, envFile);
    const run = await ferry(['-w', root, 'run', '-e', 'Env', '-d', dataFile, '--timeout-ms', '5000', '-r', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const byFerry = (JSON.parse(run.stdout) as { results: { console: string[] }[] }).results.flatMap((r) => r.console);
    const ferrySent = seen.splice(0);

    // What scripts read, line by line, in both iterations.
    expect(byNewman).toHaveLength(2 * (NAMES.length + 2));
    expect(byFerry).toEqual(byNewman);
    // What went on the wire: URL, header and body of each iteration.
    expect(newmanSent).toHaveLength(6);
    expect(ferrySent).toEqual(newmanSent);
    // Spelled out, so a change on either side is seen here: the first row's values as Newman fills them.
    expect(ferrySent[0]).toBe('/use?obj=[object Object]&arr=1,two,[object Object],,4,5&empty=&num=42.5&int=7&no=false&yes=true&nul={{nul}}&str=text');
    expect(ferrySent[1]).toBe('header [object Object];{{nul}};false;');
    expect(ferrySent[2]).toBe('body [object Object]|1,two,[object Object],,4,5|{{nul}}|42.5|false|true||<1,two,[object Object],,4,5>');
    expect(byFerry[0]).toBe('obj object {"a":1,"b":"x","n":{"c":[1,2]}} object {"a":1,"b":"x","n":{"c":[1,2]}} object {"a":1,"b":"x","n":{"c":[1,2]}} true "[object Object]"');
    expect(byFerry).toContain('nul object null object null object null true "null"');
    // The second row: text as written; `nul` given; keys the row lacks fall to the environment.
    expect(ferrySent[3]).toBe('/use?obj=plain&arr=1,2&empty={{empty}}&num=5&int={{int}}&no={{no}}&yes={{yes}}&nul=given&str=');
  });
});
