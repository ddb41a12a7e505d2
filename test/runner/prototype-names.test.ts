/**
 * Variables named `__proto__`, `constructor` and `prototype` that scripts set are saved as
 * ordinary keys in every scope that persists (environment, collection, globals, and the secret
 * store for a variable declared secret), and the next run reads them back and sends them.
 * Real workspace files, a real data folder, a real HTTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { runRequests, type RunOptions } from '../../src/runner/index.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { openedWorkspace } from './workspace.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startHttp1();
});
afterAll(() => peer.close());

async function run(s: Awaited<ReturnType<typeof openedWorkspace>>, options: Partial<RunOptions> = {}) {
  const first = peer.seen.length;
  // A fresh data-folder handle each run, as a new `ferry run` process has.
  const outcome = await runRequests({ workspace: s.ws, dataFolder: new WorkspaceData(s.ws.id, s.ws.root), settings: DEFAULT_SETTINGS, environment: 'local', ...options });
  return { ...outcome, sent: peer.seen.slice(first) };
}

const NAMES = ['__proto__', 'constructor', 'prototype'];
const SCOPES = { environment: 'e', collectionVariables: 'c', globals: 'g' } as const;

describe('script-set variables with the names of object internals', () => {
  it('are saved as ordinary keys in every scope and read back by the next run', async () => {
    const set = Object.entries(SCOPES).flatMap(([scope, tag]) => NAMES.map((name) => `pm.${scope}.set(${JSON.stringify(name)}, '${tag}-${name}');`)).join('\n');
    const checks = Object.entries(SCOPES).flatMap(([scope, tag]) => NAMES.map((name) =>
      `pm.test('${scope} ${name}', () => pm.expect(pm.${scope}.get(${JSON.stringify(name)})).to.eql('${tag}-${name}'));`)).join('\n');
    const s = await openedWorkspace({
      // `prototype` is declared secret here: its value goes to the secret store.
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'prototype', value: '', secret: true }] },
      'requests/1 set.yaml': { name: 'set', seq: 1, url: `${peer.url}/set`, scripts: { preRequest: set } },
      'requests/2 read.yaml': {
        name: 'read',
        seq: 2,
        url: `${peer.url}/read?a={{__proto__}}&b={{constructor}}&c={{prototype}}`,
        scripts: { postResponse: checks },
      },
    });
    const first = await run(s, { paths: ['1 set'] });
    expect(first.summary.failedRequests).toBe(0);

    // On disk, as plain keys of plain objects.
    const state = JSON.parse(await fs.readFile(path.join(s.data.dir, 'state.json'), 'utf8')) as { scriptValues: Record<string, Record<string, string>> };
    expect(Object.entries(state.scriptValues['environment:local']!).sort()).toEqual([['__proto__', 'e-__proto__'], ['constructor', 'e-constructor']]);
    expect(Object.entries(state.scriptValues.collection!).sort()).toEqual(NAMES.map((n) => [n, `c-${n}`]).sort());
    expect(Object.entries(state.scriptValues.globals!).sort()).toEqual(NAMES.map((n) => [n, `g-${n}`]).sort());
    expect(await s.data.secrets.get('local', 'prototype')).toBe('e-prototype');
    expect(Object.getPrototypeOf(await s.data.scriptValues('collection'))).toBe(Object.prototype);

    // The next run (a new data-folder handle) reads every one back, in scripts and in {{ }}.
    const second = await run(s, { paths: ['2 read'] });
    expect(second.summary.tests).toBe(9);
    expect(second.summary.failedTests).toBe(0);
    const sent = new URL(second.sent[0]!.url, 'http://x').searchParams;
    expect([sent.get('a'), sent.get('b'), sent.get('c')]).toEqual(['e-__proto__', 'e-constructor', 'e-prototype']);
  });
});
