/**
 * A kind's refusal (made when it compiles a server file, after the format checks passed) says
 * `file:line:col:` as the format checks do, so an editor can jump to the field; the words are kept.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveUntil } from '../../src/cli/serve.js';
import { placeRefusal } from '../../src/servers/refusal-place.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir } from '../support/temp.js';
import { eventually, makeWorkspace, send, writeServer } from './helpers.js';

// As text, so each line and column below can be counted in the file.
const FILES = {
  // Line 6, after `      status: `.
  interim: 'name: Interim\nhttp:\n  routes:\n    - path: /ok\n    - path: /c\n      status: 100\n',
  // The record's `value` (line 9), not the record's start: the refusal is about that field.
  names: 'name: Names\nkind: dns\ndns:\n  records:\n    - name: ok.test\n      value: 127.0.0.1\n    - name: b.test\n      type: A\n      value: not an address\n',
  // The tool's `inputSchema` (line 7).
  tools: 'name: Tools\nkind: mcp\nmcp:\n  tools:\n    - name: t\n    - name: u\n      inputSchema: "{"\n',
  // The rule's `pattern` (line 7); a list item's first key starts at its dash's column + 2.
  chat: 'name: Chat\nkind: websocket\nwebsocket:\n  mode: rules\n  rules:\n    - match: regex\n      pattern: "("\n',
};

describe('server refusals with a line and column', () => {
  it('ferry serve says file:line:col for refusals of the mock, DNS, MCP and WebSocket kinds, the words unchanged', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: FILES });
    const run = await ferry(['serve'], root);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n').sort();
    expect(lines).toEqual([
      'ferry: No server could start.',
      expect.stringMatching(/^ferry: server chat did not start: servers\/chat\.yaml:7:16: websocket\.rules\[0\]: pattern "\(" is not a regular expression Ferry can run \(/),
      'ferry: server interim did not start: servers/interim.yaml:6:15: http.routes[1].status: 100 is an interim status (1xx) that cannot end a request; give 200 to 999.',
      'ferry: server names did not start: servers/names.yaml:9:14: dns.records[1] (b.test A): value "not an address" is not an IPv4 address such as 127.0.0.1.',
      expect.stringMatching(/^ferry: server tools did not start: servers\/tools\.yaml:7:20: mcp\.tools\[1\] \(u\): inputSchema is not JSON \(/),
    ]);
  });

  it('an edit a running server refuses is said with the line and column too, and the server keeps answering', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: { api: 'name: API\nhttp:\n  routes:\n    - path: /ok\n      body: ok\n' } });
    const err: string[] = [];
    const out: string[] = [];
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: true }, { out: (t) => void out.push(t), err: (t) => void err.push(t), color: false }, new Promise((r) => (stop = r)));
    await eventually(async () => out.some((l) => /http:\/\/127\.0\.0\.1:\d+/.test(l)));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out.join('\n'))![0];
    await writeServer(root, 'api', 'name: API\nhttp:\n  routes:\n    - path: /ok\n      body: ok\n      status: 101\n');
    await eventually(async () => err.length > 0);
    expect(err).toEqual([
      'ferry: servers/api.yaml:6:15: http.routes[0].status: 101 is an interim status (1xx) that cannot end a request; give 200 to 999. — the server keeps its previous settings.',
    ]);
    expect((await send(`${url}/ok`)).body).toBe('ok');
    stop();
    expect(await done).toBe(0);
  });

  it('a field the file does not hold points at its nearest part; a refusal naming no field, or a file that no longer parses, is left as it was', async () => {
    const root = await makeWorkspace({ servers: { api: 'name: API\nhttp:\n  fallback: proxy\n', gone: 'name: [broken\n' } });
    // proxyUrl is not written: the http section it belongs in (line 3).
    expect(placeRefusal('servers/api.yaml: http.proxyUrl: proxyUrl is empty.', 'servers/api.yaml', root)).toBe('servers/api.yaml:3:3: http.proxyUrl: proxyUrl is empty.');
    // A port's refusal is a sentence, not a field.
    const taken = 'servers/api.yaml: port 4010 on 127.0.0.1 is already in use by another program.';
    expect(placeRefusal(taken, 'servers/api.yaml', root)).toBe(taken);
    // A section the file has not at all: nowhere to point.
    const absent = 'servers/api.yaml: tls: a UDP server has no TLS; set tls.enabled to false.';
    expect(placeRefusal(absent, 'servers/api.yaml', root)).toBe(absent);
    const broken = 'servers/gone.yaml: http.routes[0].status: 100 is an interim status.';
    expect(placeRefusal(broken, 'servers/gone.yaml', root)).toBe(broken);
    await fs.rm(path.join(root, 'servers', 'api.yaml'));
    expect(placeRefusal('servers/api.yaml: http.proxyUrl: x.', 'servers/api.yaml', root)).toBe('servers/api.yaml: http.proxyUrl: x.');
  });
});
