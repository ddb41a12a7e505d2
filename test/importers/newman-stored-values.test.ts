/**
 * Values scripts store that are not text (pm.request.url, an object, a list, a Date, a number, a
 * boolean, null, undefined, NaN, a function) in each scope, run through Newman (from node_modules)
 * and through `ferry import` + `ferry run` against one loopback server: what later scripts read
 * back (type and JSON), what `replaceIn` and `{{name}}` in the next request give, and what is kept
 * (Newman's --export-environment and --export-globals files, Ferry's data folder) must agree. A
 * second run reads the kept values back: Newman given its exported files, Ferry its data folder.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceData } from '../../src/appdata/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { importedWorkspace, newmanConsole } from '../support/newman.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

let server: http.Server;
let listening: Listening;
const seen: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(decodeURIComponent(req.url!));
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  listening = await listenLoopback(server, 'http');
});
afterAll(async () => {
  await listening.close();
});

/** The values a script stores, as JavaScript; `url` is the request's Url object. */
const VALUES: Record<string, string> = {
  url: 'pm.request.url',
  obj: '({ a: 1, b: "x", n: { c: [1, 2] } })',
  arr: '[1, "two", { t: 3 }, null]',
  empty: '[]',
  date: 'new Date("2020-01-02T03:04:05Z")',
  nested: '({ d: new Date("2020-01-02T03:04:05Z"), u: undefined, f() {} })',
  num: '42.5',
  bool: 'false',
  nul: 'null',
  undef: 'undefined',
  nan: 'NaN',
  fn: '(function f() { return 1; })',
  str: '"text"',
};
/** The scopes, by the prefix of their variables' names. */
const SCOPES: Record<string, string> = { e: 'environment', c: 'collectionVariables', g: 'globals', v: 'variables' };
const names = Object.keys(SCOPES).flatMap((prefix) => Object.keys(VALUES).map((value) => `${prefix}_${value}`));
/**
 * Where Ferry differs on purpose (scripts.md): `pm.variables` keeps `undefined` as `null` (Newman
 * keeps `undefined` there, filled as nothing); a function stored with `pm.variables` is `null`
 * (Newman's is `{}`).
 */
const APART = new Set(['v_undef', 'v_fn']);

/** `read(name)`: a line with what a script reads of the variable: its type, JSON, `has`, and `replaceIn`. */
const read = (name: string, scope: string) =>
  `{ const v = pm.${scope}.get('${name}'); console.log('${name}', typeof v, Object.prototype.toString.call(v), String(JSON.stringify(v)), pm.${scope}.has('${name}'), JSON.stringify(pm.variables.replaceIn('{{${name}}}'))); }`;

function collection(base: string, setting: boolean) {
  const sets = names.map((name) => `pm.${SCOPES[name[0]!]}.set('${name}', ${VALUES[name.slice(2)]});`);
  const reads = names.filter((name) => !APART.has(name)).map((name) => read(name, SCOPES[name[0]!]!));
  const query = names.filter((name) => !APART.has(name)).map((name) => `${name}={{${name}}}`).join('&');
  return {
    info: { name: 'Stored', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      ...(setting ? [{ name: 'set', event: [{ listen: 'test', script: { exec: sets } }], request: { method: 'GET', url: `${base}/set/:id?x=1` } }] : []),
      { name: 'use', event: [{ listen: 'prerequest', script: { exec: [...reads, "console.log('collection', JSON.stringify(pm.collectionVariables.toObject()));"] } }], request: { method: 'GET', url: `${base}/use?${query}` } },
    ],
  };
}

/** A Newman run's console lines. */
/** The collection variables a run's last script logged (`collection {…}`). */
const collectionLogged = (lines: string[]) => JSON.parse(lines.at(-1)!.replace(/^collection /, '')) as Record<string, unknown>;

async function runFerry(root: string, paths: string[] = []): Promise<string[]> {
  const run = await ferry(['-w', root, 'run', ...paths, '-e', 'Env', '--timeout-ms', '5000', '-r', 'json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { results: { console: string[] }[] }).results.flatMap((r) => r.console);
}

const exported = async (file: string) => Object.fromEntries((JSON.parse(await fs.readFile(file, 'utf8')) as { values: { key: string; value: unknown }[] }).values.map((v) => [v.key, v.value]));

describe('Newman and Ferry keep and read back values scripts store that are not text', () => {
  it('later scripts, replaceIn and {{name}} read them as Newman does, and they are kept with their type', async () => {
    const dir = await tempDir('ferry-newman-stored-');
    const base = `http://127.0.0.1:${listening.port}`;
    const doc = collection(base, true);
    const env = { name: 'Env', values: [{ key: 'keep', value: 'k', enabled: true }] };
    const [colFile, envFile, envOut, globalsOut] = ['c.postman_collection.json', 'e.postman_environment.json', 'env-out.json', 'globals-out.json'].map((f) => path.join(dir, f)) as [string, string, string, string];
    await fs.writeFile(colFile, JSON.stringify(doc));
    await fs.writeFile(envFile, JSON.stringify(env));

    const byNewman = await newmanConsole({ collection: doc, environment: env, exportEnvironment: envOut, exportGlobals: globalsOut });
    const newmanSent = seen.splice(0);

    const root = await importedWorkspace(dir, colFile, envFile);
    const byFerry = await runFerry(root);
    const ferrySent = seen.splice(0);

    // What a later script reads, and what replaceIn gives, line by line.
    expect(byNewman).toHaveLength(names.length - APART.size + 1);
    expect(byFerry).toEqual(byNewman);
    // The next request's {{name}}: Postman's text of each value ([object Object], a list joined by commas).
    expect(ferrySent).toEqual(newmanSent);
    // Kept: Newman's exported environment and globals, Ferry's data folder, value for value (JSON data).
    const ws = await openWorkspace(root);
    const data = new WorkspaceData(ws.id, ws.root);
    expect(await data.scriptValues('environment:Env')).toEqual(Object.fromEntries(Object.entries(await exported(envOut)).filter(([key]) => key !== 'keep')));
    expect(await data.scriptValues('globals')).toEqual(await exported(globalsOut));
    // (Newman exports no collection variables a script created: those its last script read.)
    expect(await data.scriptValues('collection')).toEqual(collectionLogged(byNewman));

    // A second run reads them back: Newman from its exported files, Ferry from its data folder.
    const again = collection(base, false);
    const newmanAgain = await newmanConsole({ collection: { ...again, variable: Object.entries(collectionLogged(byNewman)).map(([key, value]) => ({ key, value, type: 'any' })) }, environment: envOut, globals: globalsOut });
    const newmanAgainSent = seen.splice(0);
    const ferryAgain = await runFerry(root, ['Stored/use']);
    const ferryAgainSent = seen.splice(0);
    // Read back with their type (pm.variables values last one run: gone in both).
    expect(ferryAgain).toEqual(newmanAgain);
    expect(ferryAgainSent).toEqual(newmanAgainSent);

    // What the cases are about, as both give them.
    expect(byFerry).toContain('e_url object [object Object] ' + JSON.stringify({ protocol: 'http', port: String(listening.port), path: ['set', ':id'], host: ['127', '0', '0', '1'], query: [{ key: 'x', value: '1' }], variable: [{ type: 'any', key: 'id' }] }) + ' true "[object Object]"');
    expect(byFerry).toContain('c_arr object [object Array] [1,"two",{"t":3},null] true "1,two,[object Object],"');
    expect(byFerry).toContain('g_date string [object String] "2020-01-02T03:04:05.000Z" true "2020-01-02T03:04:05.000Z"');
    expect(byFerry).toContain('e_undef object [object Null] null true "null"');
    expect(ferryAgain).toContain('e_num number [object Number] 42.5 true "42.5"');
  });

  it('a value JSON cannot hold (a cycle) is not stored, and the script says which', async () => {
    const dir = await tempDir('ferry-stored-cycle-');
    await isolatedDataDir();
    const root = path.join(dir, 'ws');
    expect((await ferry(['init', root, '--name', 'P'])).code).toBe(0);
    await fs.writeFile(path.join(root, 'requests', 'Cycle.yaml'), [
      'name: Cycle',
      `url: http://127.0.0.1:${listening.port}/cycle?c={{cyc}}&ok={{ok}}`,
      'scripts:',
      '  preRequest: |',
      "    const c = { a: 1 }; c.self = c;",
      "    pm.environment.set('cyc', c); pm.environment.set('ok', [1, 2]);",
      "    console.log('same script', pm.environment.get('cyc') === c);",
      '  postResponse: |',
      "    console.log('after', pm.environment.has('cyc'), JSON.stringify(pm.environment.get('ok')));",
      '',
    ].join('\n'));
    const run = await ferry(['-w', root, 'run', '-r', 'json']);
    const report = JSON.parse(run.stdout) as { results: { console: string[]; error: string | null }[] };
    expect(report.results[0]!.error).toBe('requests/Cycle.yaml: preRequest: TypeError: pm.environment.set("cyc"): the value cannot be kept for later scripts and requests (circular reference); it was not stored. Store JSON data: plain objects, lists, text, numbers, booleans');
    expect(report.results[0]!.console).toEqual(['same script true', 'after false [1,2]']);
    expect(seen.splice(0)).toEqual(['/cycle?c={{cyc}}&ok=1,2']);
  });
});
