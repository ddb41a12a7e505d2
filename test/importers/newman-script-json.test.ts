/**
 * What scripts log of the variable scopes (`toJSON()` of pm.iterationData, pm.environment,
 * pm.collectionVariables, pm.globals and pm.variables), of a GraphQL body (`pm.request.body`, its
 * `toJSON()`, String() and the legacy `request.data`) and what `replaceIn` makes of deeply nested
 * values, run through Newman (from node_modules) and through `ferry import` + `ferry run` against
 * one loopback server. The lines must agree but for the ids Newman makes up (a fresh UUID per
 * script) and the nesting depth (spec 8.1: 10 levels in Ferry, for requests and `replaceIn` alike).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { importedWorkspace, newmanConsole, recordingServer } from '../support/newman.js';
import type { Listening } from '../support/servers/listen.js';
import { tempDir } from '../support/temp.js';

let listening: Listening;
/** What the server got: the URL, then the body, for each request. */
const seen: string[] = [];
beforeAll(async () => {
  listening = await recordingServer((req, body) => seen.push(decodeURIComponent(req.url!), body.toString('utf8')));
});
afterAll(async () => {
  await listening.close();
});

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Newman's console lines, without its deprecation notices for the legacy globals. */
async function runNewman(options: Record<string, unknown>): Promise<string[]> {
  return (await newmanConsole(options)).filter((line) => !/^Using "\w+" is deprecated/.test(line));
}

/** `ferry run` of the workspace made from `files` (`-e Env` when an environment is among them): its scripts' console lines. */
async function runFerry(dir: string, files: string[], args: string[] = []): Promise<string[]> {
  const root = await importedWorkspace(dir, ...files);
  const run = await ferry(['-w', root, 'run', ...args, '--timeout-ms', '5000', '-r', 'json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { results: { console: string[] }[] }).results.flatMap((r) => r.console);
}

/** Writes each document as JSON into `dir`; the paths, in order. */
async function writeAll(dir: string, files: Record<string, unknown>): Promise<string[]> {
  return Promise.all(
    Object.entries(files).map(async ([name, doc]) => {
      const file = path.join(dir, name);
      await fs.writeFile(file, JSON.stringify(doc));
      return file;
    }),
  );
}

describe("the variable scopes' toJSON() as Newman's", () => {
  /** Logs each scope's JSON, one line each, after `tag`. */
  const logScopes = (tag: string) =>
    ['iterationData', 'environment', 'collectionVariables', 'globals', 'variables'].map((scope) => `console.log('${tag} ${scope}', JSON.stringify(pm.${scope}.toJSON()));`);
  const PRE = [
    ...logScopes('before'),
    "pm.environment.set('n', 5); pm.environment.set('o', { a: [1, 'two'] }); pm.environment.set('host', 'changed'); pm.environment.unset('user');",
    "pm.environment.set('n', 6); pm.environment.set('gone', 1); pm.environment.unset('gone');",
    "pm.collectionVariables.set('c2', true); pm.globals.set('g', 'one'); pm.globals.set('g2', null); pm.globals.clear(); pm.globals.set('g3', 'three');",
    "pm.variables.set('local', [1]); pm.variables.set('d', new Date(0).toISOString());",
    ...logScopes('after'),
    // The same ids for the rest of the script, as Newman's.
    "console.log('same ids', ['iterationData', 'environment', 'collectionVariables', 'globals', 'variables'].every((s) => pm[s].toJSON().id === pm[s].toJSON().id));",
    "console.log('keys', Object.keys(pm.environment.toJSON()).join(), Object.keys(pm.iterationData.toJSON()).join(), Object.keys(pm.environment.toJSON().values[0]).join());",
  ];
  // A later script starts with no mutations and sees what the one before left.
  const TEST = logScopes('test');

  it('iterationData, environment, collectionVariables, globals and variables give the same JSON, ids aside', async () => {
    const dir = await tempDir('ferry-newman-json-');
    const base = `http://127.0.0.1:${listening.port}`;
    const collection = {
      info: { name: 'Scopes', schema: SCHEMA },
      variable: [{ key: 'c1', value: 'one' }, { key: 'c2', value: 'two' }],
      item: [
        {
          name: 'scopes',
          event: [{ listen: 'prerequest', script: { exec: PRE } }, { listen: 'test', script: { exec: TEST } }],
          request: { method: 'GET', url: `${base}/scopes` },
        },
      ],
    };
    const environment = { id: '5b1d2b35-0b8e-4a7f-9e1b-4c3f2a1d0e9f', name: 'Env', values: [{ key: 'host', value: 'h', enabled: true }, { key: 'user', value: 'ann', enabled: true }, { key: 'empty', value: '', enabled: true }] };
    const rows = [{ s: 'text', n: 1.5, b: false, nul: null, o: { k: [1] } }];
    const [colFile, envFile, dataFile] = await writeAll(dir, { 'c.postman_collection.json': collection, 'e.postman_environment.json': environment, 'rows.json': rows }) as [string, string, string];

    const byNewman = await runNewman({ collection, environment, iterationData: dataFile });
    const byFerry = await runFerry(dir, [colFile, envFile], ['-e', 'Env', '-d', dataFile]);

    const ids = (lines: string[]) => lines.map((line) => line.match(/"id":"([^"]*)"/)?.[1]).filter((id) => id !== undefined);
    const withoutIds = (lines: string[]) => lines.map((line) => line.replace(/"id":"[^"]*"/, '"id":"…"'));
    expect(byNewman).toHaveLength(5 + 5 + 2 + 5);
    expect(withoutIds(byFerry)).toEqual(withoutIds(byNewman));
    // Ids: the environment's own (Newman: the export's, Ferry: the environment's file name); a fresh UUID for the others, as Newman makes.
    const envLines = (lines: string[]) => lines.filter((line) => / environment /.test(line));
    expect(ids(envLines(byNewman))).toEqual([environment.id, environment.id, environment.id]);
    expect(ids(envLines(byFerry))).toEqual(['Env', 'Env', 'Env']); // environments/Env.yaml
    for (const id of ids(byFerry.filter((line) => !/ environment /.test(line)))) expect(id).toMatch(UUID);
    for (const id of ids(byNewman.filter((line) => !/ environment /.test(line)))) expect(id).toMatch(UUID);

    // Spelled out, so a change on either side is seen here.
    expect(byFerry).toContain('before iterationData ' + JSON.stringify({ id: ids(byFerry)[0], values: [{ type: 'any', value: 'text', key: 's' }, { type: 'any', value: 1.5, key: 'n' }, { type: 'any', value: false, key: 'b' }, { type: 'any', value: null, key: 'nul' }, { type: 'any', value: { k: [1] }, key: 'o' }] }));
    const after = (scope: string) => JSON.parse(byFerry.find((line) => line.startsWith(`after ${scope} `))!.slice(`after ${scope} `.length)) as Record<string, unknown>;
    expect(after('environment')).toEqual({
      id: 'Env',
      name: 'Env',
      mutations: { autoCompact: true, stream: [], compacted: { n: ['n', 6], o: ['o', { a: [1, 'two'] }], host: ['host', 'changed'], user: ['user'], gone: ['gone'] } },
      values: [{ type: 'any', value: 'changed', key: 'host' }, { type: 'any', value: '', key: 'empty' }, { type: 'any', value: 6, key: 'n' }, { type: 'any', value: { a: [1, 'two'] }, key: 'o' }],
    });
    expect(Object.keys(after('globals'))).toEqual(['id', 'mutations', 'values']);
    expect(after('globals').mutations).toEqual({ autoCompact: true, stream: [], compacted: { g: ['g'], g2: ['g2'], g3: ['g3', 'three'] } });
    expect(after('variables').values).toEqual([{ type: 'any', value: [1], key: 'local' }, { type: 'any', value: '1970-01-01T00:00:00.000Z', key: 'd' }]);
    expect(byFerry).toContain('same ids true');
    expect(byFerry).toContain('keys id,name,mutations,values id,values type,value,key');
    const test = JSON.parse(byFerry.find((line) => line.startsWith('test collectionVariables '))!.slice('test collectionVariables '.length)) as Record<string, unknown>;
    expect(test.mutations).toEqual({ autoCompact: true, stream: [], compacted: {} });
    expect(test.values).toEqual([{ type: 'any', value: 'one', key: 'c1' }, { type: 'any', value: true, key: 'c2' }]);
  });

  it('with no environment and no data file: ids and no name, as Newman', async () => {
    const dir = await tempDir('ferry-newman-json-');
    const collection = {
      info: { name: 'Bare', schema: SCHEMA },
      item: [{ name: 'bare', event: [{ listen: 'prerequest', script: { exec: logScopes('bare') } }], request: { method: 'GET', url: `http://127.0.0.1:${listening.port}/bare` } }],
    };
    const [colFile] = await writeAll(dir, { 'c.postman_collection.json': collection });
    const byNewman = await runNewman({ collection });
    const byFerry = await runFerry(dir, [colFile!]);
    const withoutIds = (lines: string[]) => lines.map((line) => line.replace(/"id":"[0-9a-f-]{36}"/, '"id":"…"'));
    expect(byNewman).toHaveLength(5);
    expect(withoutIds(byFerry)).toEqual(withoutIds(byNewman));
    expect(byFerry[1]).toMatch(/^bare environment \{"id":"[0-9a-f-]{36}","mutations":\{"autoCompact":true,"stream":\[\],"compacted":\{\}\},"values":\[\]\}$/);
  });
});

describe('a GraphQL body in scripts as Newman\'s', () => {
  /** What a script reads of the body: pm.request.body's JSON, toJSON(), the graphql object's keys, String() and the legacy request.data. */
  const READ = [
    "console.log(pm.info.eventName, 'body', JSON.stringify(pm.request.body));",
    "console.log(pm.info.eventName, 'toJSON', JSON.stringify(pm.request.toJSON().body));",
    "console.log(pm.info.eventName, 'keys', Object.keys(pm.request.body.graphql).join());",
    "console.log(pm.info.eventName, 'string', JSON.stringify(String(pm.request.body)), JSON.stringify(pm.request.body.toString()));",
    "console.log(pm.info.eventName, 'data', typeof request.data, JSON.stringify(request.data));",
  ];

  it('no operationName where the request has none, String() empty and request.data {}, before and after the send', async () => {
    const dir = await tempDir('ferry-newman-graphql-');
    const base = `http://127.0.0.1:${listening.port}`;
    const bodies = [
      { query: 'query Q($k: String) { a(x: "{{v}}") }', variables: '{"k": "{{v}}"}' },
      { query: 'query Q { a }\nquery R { b }', variables: '', operationName: 'R' },
    ];
    const collection = {
      info: { name: 'GraphQL', schema: SCHEMA },
      variable: [{ key: 'v', value: 'filled' }],
      item: bodies.map((graphql, i) => ({
        name: `g${i}`,
        event: [{ listen: 'prerequest', script: { exec: READ } }, { listen: 'test', script: { exec: READ } }],
        request: { method: 'POST', url: `${base}/graphql`, body: { mode: 'graphql', graphql } },
      })),
    };
    const [colFile] = await writeAll(dir, { 'c.postman_collection.json': collection });
    const byNewman = await runNewman({ collection });
    seen.splice(0);
    const byFerry = await runFerry(dir, [colFile!]);
    seen.splice(0);
    expect(byNewman).toHaveLength(2 * 2 * READ.length);
    expect(byFerry).toEqual(byNewman);
    // Spelled out: the first request before and after the send (its variables filled there).
    expect(byFerry[0]).toBe('prerequest body {"mode":"graphql","graphql":{"query":"query Q($k: String) { a(x: \\"{{v}}\\") }","variables":"{\\"k\\": \\"{{v}}\\"}"}}');
    expect(byFerry).toContain('test body {"mode":"graphql","graphql":{"query":"query Q($k: String) { a(x: \\"filled\\") }","variables":"{\\"k\\": \\"filled\\"}"}}');
    expect(byFerry).toContain('prerequest keys query,operationName,variables');
    expect(byFerry).toContain('test string "" ""');
    expect(byFerry).toContain('test data object {}');
    expect(byFerry).toContain('prerequest body {"mode":"graphql","graphql":{"query":"query Q { a }\\nquery R { b }","operationName":"R","variables":""}}');
  });
});

describe('replaceIn and {{name}} of values nested deeper than 10 levels', () => {
  it('Ferry fills 10 levels (spec 8.1) in replaceIn as in the request it sends; Newman goes deeper; past the limit both leave the placeholder as written', async () => {
    const dir = await tempDir('ferry-newman-nesting-');
    const base = `http://127.0.0.1:${listening.port}`;
    // c0 → x{{c1}} → x{{c2}} … → c29 = END.
    const chain = Array.from({ length: 30 }, (_, i) => ({ key: `c${i}`, value: i === 29 ? 'END' : `x{{c${i + 1}}}` }));
    const collection = {
      info: { name: 'Nesting', schema: SCHEMA },
      variable: chain,
      item: [
        {
          name: 'deep',
          event: [
            {
              listen: 'prerequest',
              // {{c(29-n)}} needs n+1 levels to reach END: 1 to 25 levels.
              script: { exec: ["for (let n = 0; n < 25; n++) console.log('levels', n + 1, pm.variables.replaceIn('{{c' + (29 - n) + '}}'));", "console.log('url', pm.variables.replaceIn(pm.request.url.toString()));"] },
            },
          ],
          request: { method: 'GET', url: `${base}/deep?q={{c0}}` },
        },
      ],
    };
    const [colFile] = await writeAll(dir, { 'c.postman_collection.json': collection });
    const byNewman = await runNewman({ collection });
    const newmanSent = seen.splice(0)[0]!;
    const byFerry = await runFerry(dir, [colFile!]);
    const ferrySent = seen.splice(0)[0]!;

    /** The levels each side filled: the x's before what was left (END reached: all of them, plus END's one). */
    const filled = (text: string) => (text.endsWith('END') ? text.length - 2 : text.indexOf('{{'));
    const depth = (lines: string[]) => lines.filter((line) => line.startsWith('levels ')).map((line) => line.split(' ')[2]!).filter((text) => text.endsWith('END')).length;
    expect(depth(byFerry)).toBe(10);
    const newmanDepth = depth(byNewman);
    expect(newmanDepth).toBeGreaterThan(10);
    // Up to 10 levels the two agree; deeper, each stops at its limit, the rest as written.
    expect(byFerry.slice(0, 10)).toEqual(byNewman.slice(0, 10));
    expect(byFerry[10]).toBe(`levels 11 ${'x'.repeat(10)}{{c29}}`);
    expect(byNewman[newmanDepth]).toBe(`levels ${newmanDepth + 1} ${'x'.repeat(newmanDepth)}{{c29}}`);
    // What each sent is what its replaceIn gives for the URL: Ferry's replaceIn tells what goes out.
    expect(ferrySent).toBe(`/deep?q=${'x'.repeat(10)}{{c10}}`);
    expect(byFerry.at(-1)).toBe(`url ${base}${ferrySent}`);
    expect(filled(newmanSent.slice('/deep?q='.length))).toBe(newmanDepth);
    expect(byNewman.at(-1)).toBe(`url ${base}${newmanSent}`);
  });
});
