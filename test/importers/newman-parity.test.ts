/**
 * The same collection and environment run through Newman (Postman's runner, from node_modules) and
 * through `ferry import` + `ferry run`, against one loopback echo server that records every
 * request: what each sends must be the same, request by request (method, URL, headers, body).
 * The cases are the ones found to differ: bodies Postman does not send (pruned from GET, empty,
 * every form row switched off), `&`, `#` and line breaks in query parts, a repeated header, and a
 * variable given twice in the environment and in the collection (the last one is used).
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

interface NewmanRun {
  on(event: 'done', fn: (error: Error | null, summary: { run: { failures: unknown[] } }) => void): NewmanRun;
}
const newman = createRequire(import.meta.url)('newman') as { run(options: Record<string, unknown>): NewmanRun };

interface Seen { item: string; method: string; url: string; headers: string[]; body: string }

/** Headers each client adds on its own (User-Agent, Newman's Accept and Postman-Token), left out of the comparison. */
const OWN_HEADERS = /^(host|connection|user-agent|accept|accept-encoding|postman-token|cache-control|content-length|x-item):/;

let server: http.Server;
let listening: Listening;
const seen: Seen[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = req.rawHeaders;
      const lines = raw.flatMap((name, i) => (i % 2 === 0 ? [`${name.toLowerCase()}: ${raw[i + 1]}`] : []));
      const boundary = /boundary=(\S+)/.exec(String(req.headers['content-type'] ?? ''))?.[1];
      let body = Buffer.concat(chunks).toString('utf8');
      if (boundary) body = body.split(boundary).join('BOUNDARY');
      seen.push({
        item: String(req.headers['x-item']),
        method: req.method!,
        url: req.url!,
        headers: lines.filter((h) => !OWN_HEADERS.test(h)).map((h) => h.replace(/boundary=\S+/, 'boundary=BOUNDARY')),
        body,
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  listening = await listenLoopback(server, 'http');
});
afterAll(async () => {
  await listening.close();
});

function collection(base: string) {
  const item = (name: string, request: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name, ...extra, request: { ...request, header: [...((request.header as unknown[]) ?? []), { key: 'X-Item', value: name }] },
  });
  const url = (p: string, query: { key: string; value: string | null }[] = []) => ({ raw: `${base}/${p}`, protocol: 'http', host: ['127', '0', '0', '1'], port: String(listening.port), path: [p], query });
  return {
    info: { name: 'Parity', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'cv', value: 'first' }, { key: 'cv', value: 'last' }],
    item: [
      item('get with body', { method: 'GET', url: url('get'), body: { mode: 'raw', raw: '{"a":1}', options: { raw: { language: 'json' } } } }),
      item('get keeps body', { method: 'GET', url: url('keep'), body: { mode: 'raw', raw: 'x' } }, { protocolProfileBehavior: { disableBodyPruning: true } }),
      item('head with form', { method: 'HEAD', url: url('head'), body: { mode: 'formdata', formdata: [{ key: 'a', value: '1', type: 'text' }] } }),
      item('empty raw', { method: 'POST', url: url('empty'), body: { mode: 'raw', raw: '' } }),
      item('empty form', { method: 'PUT', url: url('form'), body: { mode: 'formdata', formdata: [] } }),
      item('rows off', { method: 'POST', url: url('off'), body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: '1', disabled: true }] } }),
      item('form sent', { method: 'POST', url: url('sent'), body: { mode: 'formdata', formdata: [{ key: 'a', value: '1', type: 'text' }, { key: 'b', value: '2', type: 'text', disabled: true }] } }),
      item('query parts', { method: 'GET', url: url('q', [{ key: 'b#a&r', value: null }, { key: 'x', value: 'a&b#c' }, { key: 'k=v', value: '1' }, { key: 'nl', value: '\nx\t' }]) }),
      item('repeated header', { method: 'GET', url: url('h'), header: [{ key: 'X-Tag', value: 'one' }, { key: 'X-Tag', value: 'two' }] }),
      item('variables', { method: 'GET', url: url('v', [{ key: 'env', value: '{{dup}}' }, { key: 'col', value: '{{cv}}' }]) }),
    ],
  };
}

const environment = { name: 'Env', values: [{ key: 'dup', value: '1', enabled: true }, { key: 'dup', value: '2', enabled: true }] };

describe('Newman and Ferry send the same requests for the same collection', () => {
  it('bodies, query parts, repeated headers and repeated variables', async () => {
    const dir = await tempDir('ferry-newman-parity-');
    const base = `http://127.0.0.1:${listening.port}`;
    const doc = collection(base);
    const colFile = path.join(dir, 'parity.postman_collection.json');
    const envFile = path.join(dir, 'env.postman_environment.json');
    await fs.writeFile(colFile, JSON.stringify(doc));
    await fs.writeFile(envFile, JSON.stringify(environment));

    const failures = await new Promise<unknown[]>((resolve, reject) => {
      newman.run({ collection: doc, environment, reporters: [], timeoutRequest: 5000 }).on('done', (error, summary) => (error ? reject(error) : resolve(summary.run.failures)));
    });
    expect(failures).toEqual([]);
    const byNewman = seen.splice(0);

    await isolatedDataDir();
    const root = path.join(dir, 'ws');
    expect((await ferry(['init', root, '--name', 'P'])).code).toBe(0);
    expect((await ferry(['-w', root, 'import', colFile])).code).toBe(0);
    expect((await ferry(['-w', root, 'import', envFile])).code).toBe(0);
    const run = await ferry(['-w', root, 'run', '-e', 'Env', '--timeout-ms', '5000']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const byFerry = seen.splice(0);

    expect(byNewman.map((s) => s.item)).toEqual(doc.item.map((i) => i.name));
    for (const [i, mine] of byFerry.entries()) expect(mine, mine.item).toEqual(byNewman[i]);
    expect(byFerry).toHaveLength(byNewman.length);
    // What the cases are about, as both sent it.
    const of = (name: string) => byFerry.find((s) => s.item === name)!;
    expect([of('get with body').body, of('empty form').body, of('rows off').body, of('head with form').body]).toEqual(['', '', '', '']);
    expect(of('get keeps body').body).toBe('x');
    expect(of('query parts').url).toBe('/q?b%23a%26r&x=a%26b%23c&k%3Dv=1&nl=%0Ax%09');
    expect(of('repeated header').headers).toEqual(['x-tag: one', 'x-tag: two']);
    expect(of('variables').url).toBe('/v?env=2&col=last');
  });
});
