/**
 * curl's HTTP version options ask for less than Ferry's `httpVersion` does (found in a journey:
 * the corpus's `curl --http2 localhost:28139`, imported and run against a server that speaks
 * HTTP/1.1, failed where curl had worked). The import keeps spec 4.6's mapping and says so in a
 * note; the note's advice makes the request work. A real HTTP/1.1 server on 127.0.0.1, `ferry
 * import --curl` and `ferry run` in a real workspace.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToRequest } from '../../src/importers/curl/index.js';
import { ferry } from '../support/cli.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

let server: http.Server;
let base: string;
let temp: TempWorkspace;

beforeAll(async () => {
  server = http.createServer((req, res) => res.end(`HTTP/${req.httpVersion}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  temp = await makeWorkspace({});
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  server.close();
  await temp.cleanup();
});

describe('curl HTTP version options', () => {
  it('--http2 is imported as httpVersion http2 with a note; the run fails as the note says, and works with auto', async () => {
    const imported = await ferry(['-w', temp.root, 'import', '--curl', `curl --http2 ${base}/v`, '--name', 'Two', '--json']);
    expect(imported.code).toBe(0);
    const note = JSON.parse(imported.stdout).notes.find((n: string) => n.startsWith('curl --http2'));
    expect(note).toContain('Set the request\'s httpVersion to auto for curl\'s behaviour.');
    const file = path.join(temp.root, 'requests', 'Two.yaml');
    expect(await fs.readFile(file, 'utf8')).toContain('httpVersion: http2');

    const refused = await ferry(['-w', temp.root, 'run', 'Two', '-r', 'json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).results[0].error).toMatch(/did not answer in HTTP\/2/);

    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('httpVersion: http2', 'httpVersion: auto'));
    const works = await ferry(['-w', temp.root, 'run', 'Two', '-r', 'json', '--report-bodies']);
    expect(works.code).toBe(0);
    expect(JSON.parse(works.stdout).results[0].response.body).toBe('HTTP/1.1');
  });

  it('--http2-prior-knowledge asks for what http2 does: no note', () => {
    const { request, notes } = curlToRequest(`curl --http2-prior-knowledge ${base}/v`);
    expect(request.settings).toEqual({ httpVersion: 'http2' });
    expect(notes).toEqual([]);
  });

  it('-0 says that HTTP/1.1 is sent; the last version option decides, with its note', () => {
    expect(curlToRequest(`curl -0 ${base}/v`).notes).toEqual(['curl -0 (--http1.0) speaks HTTP/1.0; Ferry has no HTTP/1.0 and sends HTTP/1.1 (httpVersion http1).']);
    const last = curlToRequest(`curl --http2 --http1.1 ${base}/v`);
    expect(last.request.settings).toEqual({ httpVersion: 'http1' });
    expect(last.notes).toEqual([]);
  });
});
