/**
 * Scripts that set a variable declared secret: the value goes to this computer's encrypted
 * secret store (never to state.json), is sent by later runs, and stays out of reports and history.
 * Real workspace files, a real data folder and a real HTTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { CliReporter, JsonReporter, JunitReporter, runRequests, type Reporter, type RunEvent, type RunOptions } from '../../src/runner/index.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { openedWorkspace } from './workspace.js';

let peer: Peer;
let base = '';

beforeAll(async () => {
  peer = await startHttp1();
  base = peer.url;
});
afterAll(() => peer.close());
const setup = openedWorkspace;

/** One run as `ferry run` does it: a fresh data-folder handle each time, as a new process would have. */
async function run(s: Awaited<ReturnType<typeof setup>>, options: Partial<RunOptions> = {}) {
  const events: RunEvent[] = [];
  const first = peer.seen.length;
  const outcome = await runRequests({
    workspace: s.ws,
    dataFolder: new WorkspaceData(s.ws.id, s.ws.root),
    settings: DEFAULT_SETTINGS,
    ...options,
    reporters: [{ onEvent: (e) => events.push(e) }, ...(options.reporters ?? [])],
  });
  return { ...outcome, events, sent: peer.seen.slice(first) };
}

/** The JSON, JUnit and terminal reports of a run, as text. */
function reportsOf(): { reporters: Reporter[]; text: () => string } {
  let json = '';
  let xml = '';
  let cli = '';
  return {
    reporters: [new JsonReporter((t) => void (json += t)), new JunitReporter((t) => void (xml += t)), new CliReporter({ write: (t) => void (cli += t), color: false })],
    text: () => {
      expect(json).not.toBe('');
      expect(xml).not.toBe('');
      expect(cli).not.toBe('');
      return `${json}\n${xml}\n${cli}`;
    },
  };
}

/** A data-folder file's text; '' when it was never written. */
const readText = (file: string) => fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? '' : Promise.reject(error)));
const query = (url: string) => new URL(url, 'http://x').searchParams;

describe('script-set values of secret variables', () => {
  it('go to the encrypted secret store, not state.json; the next run sends them; reports and history never show them', async () => {
    const secret = 's3cr3t-Tok3n-9f2a';
    const s = await setup({
      'environments/local.yaml': {
        name: 'Local',
        variables: [
          { key: 'token', value: '', secret: true },
          { key: 'plain', value: 'file-plain' },
        ],
      },
      'requests/1 set.yaml': {
        name: 'set',
        seq: 1,
        url: `${base}/set?t={{token}}&p={{plain}}`,
        headers: [{ key: 'Authorization', value: 'Bearer {{token}}' }],
        scripts: { preRequest: `pm.environment.set('token', '${secret}'); pm.environment.set('plain', 'script-plain');` },
      },
      'requests/2 read.yaml': {
        name: 'read',
        seq: 2,
        url: `${base}/read?t={{token}}`,
        scripts: { postResponse: `pm.test('scripts read the secret', () => pm.expect(pm.environment.get('token')).to.eql('${secret}'));` },
      },
    });
    const reports = reportsOf();
    const first = await run(s, { environment: 'local', reporters: reports.reporters });
    expect(first.summary.failedRequests).toBe(0);
    // Sent at once, within the run that set it.
    expect(first.sent.map((r) => query(r.url).get('t'))).toEqual([secret, secret]);
    expect(first.sent[0]!.headers.authorization).toBe(`Bearer ${secret}`);
    expect(query(first.sent[0]!.url).get('p')).toBe('script-plain');

    const state = await readText(path.join(s.data.dir, 'state.json'));
    expect(state).not.toContain(secret);
    expect(state).toContain('script-plain'); // non-secret values stay script values
    expect(await s.data.scriptValues('environment:local')).toEqual({ plain: 'script-plain' });
    const sealed = await readText(path.join(s.data.dir, 'secrets.json'));
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64'));
    expect(await s.data.secrets.get('local', 'token')).toBe(secret);

    // Reports and history: masked.
    expect(first.results.map((r) => r.url)).toEqual([`${base}/set?t=***&p=script-plain`, `${base}/read?t=***`]);
    expect(reports.text()).not.toContain(secret);
    const history = await readText(path.join(s.data.dir, 'history.json'));
    expect(history).not.toContain(secret);
    expect(JSON.parse(history)).toHaveLength(2);

    // The next run reads it back as the secret's value.
    const second = await run(s, { environment: 'local', paths: ['2 read'] });
    expect(second.summary.failedTests).toBe(0);
    expect(second.summary.tests).toBe(1);
    expect(query(second.sent[0]!.url).get('t')).toBe(secret);
    expect(await readText(path.join(s.data.dir, 'state.json'))).not.toContain(secret);
  });

  it('win over the older stored secret within the run and in the next; unset removes the stored value', async () => {
    const s = await setup({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', secret: true }] },
      'requests/1 before.yaml': { name: 'before', seq: 1, url: `${base}/x?t={{token}}` },
      'requests/2 set.yaml': { name: 'set', seq: 2, url: `${base}/x?t={{token}}`, scripts: { preRequest: "pm.environment.set('token', 'new-from-script'); pm.environment.set('note', 'plain')" } },
      'requests/3 after.yaml': { name: 'after', seq: 3, url: `${base}/x?t={{token}}` },
      'requests/4 unset.yaml': {
        name: 'unset',
        seq: 4,
        url: `${base}/x?t={{token}}`,
        scripts: { preRequest: "pm.environment.unset('token')", postResponse: "pm.test('gone for scripts', () => pm.expect(pm.environment.has('token')).to.be.false)" },
      },
    });
    await s.data.secrets.set('local', 'token', 'old-stored');
    const first = await run(s, { environment: 'local', paths: ['1 before', '2 set', '3 after'] });
    expect(first.sent.map((r) => query(r.url).get('t'))).toEqual(['old-stored', 'new-from-script', 'new-from-script']);
    expect(await s.data.secrets.get('local', 'token')).toBe('new-from-script');
    expect(await s.data.scriptValues('environment:local')).toEqual({ note: 'plain' });
    expect(await readText(path.join(s.data.dir, 'state.json'))).not.toContain('new-from-script');

    const second = await run(s, { environment: 'local', paths: ['3 after'] });
    expect(query(second.sent[0]!.url).get('t')).toBe('new-from-script');

    const unset = await run(s, { environment: 'local', paths: ['4 unset', '3 after'] });
    expect(unset.summary.failedTests).toBe(0);
    // No value: the placeholder stays as written, within the run and after it.
    expect(unset.sent.map((r) => query(r.url).get('t'))).toEqual(['{{token}}', '{{token}}']);
    expect(await s.data.secrets.get('local', 'token')).toBeUndefined();
    const later = await run(s, { environment: 'local', paths: ['3 after'] });
    expect(query(later.sent[0]!.url).get('t')).toBe('{{token}}');
    expect(await readText(path.join(s.data.dir, 'state.json'))).not.toContain('new-from-script');
  });

  it('workspace variables declared secret in ferry.yaml: pm.collectionVariables.set goes to the workspace secrets', async () => {
    const s = await setup(
      {
        'requests/1 set.yaml': {
          name: 'set',
          seq: 1,
          url: `${base}/c`,
          scripts: { postResponse: "pm.collectionVariables.set('apiKey', 'ws-key-7731'); pm.collectionVariables.set('region', 'us'); pm.collectionVariables.set('count', 3);" },
        },
        'requests/2 use.yaml': { name: 'use', seq: 2, url: `${base}/c?k={{apiKey}}&r={{region}}&n={{count}}` },
      },
      { variables: [{ key: 'apiKey', secret: true }, { key: 'region', value: 'eu' }] },
    );
    const first = await run(s);
    expect(query(first.sent[1]!.url).toString()).toBe('k=ws-key-7731&r=us&n=3');
    expect(await s.data.secrets.get('workspace', 'apiKey')).toBe('ws-key-7731');
    // Kept with their type (JSON data), as Newman's --export-environment writes them.
    expect(await s.data.scriptValues('collection')).toEqual({ region: 'us', count: 3 });
    expect(await readText(path.join(s.data.dir, 'state.json'))).not.toContain('ws-key-7731');
    expect(await readText(path.join(s.data.dir, 'secrets.json'))).not.toContain('ws-key-7731');

    const second = await run(s, { paths: ['2 use'] });
    expect(query(second.sent[0]!.url).toString()).toBe('k=ws-key-7731&r=us&n=3');
    expect(second.results[0]!.url).toBe(`${base}/c?k=***&r=us&n=3`);
  });

  it('a plain copy an older Ferry kept in state.json still wins, and the run moves it to the secret store', async () => {
    const s = await setup({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', secret: true }, { key: 'other', value: 'file' }] },
      'requests/use.yaml': { name: 'use', url: `${base}/l?t={{token}}&o={{other}}` },
    });
    await s.data.secrets.set('local', 'token', 'older-stored');
    await s.data.updateScriptValues('environment:local', { token: 'legacy-plain-5521', other: 'scripted' });
    const first = await run(s, { environment: 'local' });
    expect(query(first.sent[0]!.url).toString()).toBe('t=legacy-plain-5521&o=scripted');
    expect(await readText(path.join(s.data.dir, 'state.json'))).not.toContain('legacy-plain-5521');
    expect(await s.data.scriptValues('environment:local')).toEqual({ other: 'scripted' });
    expect(await s.data.secrets.get('local', 'token')).toBe('legacy-plain-5521');
    const second = await run(s, { environment: 'local' });
    expect(query(second.sent[0]!.url).get('t')).toBe('legacy-plain-5521');
  });

  it('one row marked secret makes every row of that name secret: the value never lands in state.json', async () => {
    const s = await setup({
      'environments/local.yaml': {
        name: 'Local',
        variables: [
          { key: 'token', value: 'typed-in-file' },
          { key: 'token', secret: true },
        ],
      },
      'requests/set.yaml': { name: 'set', url: `${base}/d?t={{token}}`, scripts: { postResponse: "pm.environment.set('token', 'dup-secret-3390'); pm.environment.set('other', 'plain-1')" } },
    });
    await run(s, { environment: 'local' });
    const state = await readText(path.join(s.data.dir, 'state.json'));
    expect(state).toContain('plain-1');
    expect(state).not.toContain('dup-secret-3390');
    expect(await s.data.secrets.get('local', 'token')).toBe('dup-secret-3390');
    const second = await run(s, { environment: 'local' });
    expect(query(second.sent[0]!.url).get('t')).toBe('dup-secret-3390');
  });

  it('clear() forgets the scope\'s script-set values but keeps stored secret values (their only copy)', async () => {
    const s = await setup({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', secret: true }, { key: 'plain', value: 'file' }] },
      'requests/1 clear.yaml': { name: 'clear', seq: 1, url: `${base}/e`, scripts: { postResponse: 'pm.environment.clear()' } },
      'requests/2 after.yaml': { name: 'after', seq: 2, url: `${base}/e?t={{token}}&p={{plain}}` },
    });
    await s.data.secrets.set('local', 'token', 'stored-before');
    await s.data.updateScriptValues('environment:local', { plain: 'scripted' });
    const { sent } = await run(s, { environment: 'local' });
    // The next request of the run still has the secret; the plain value is gone, the script-set one
    // and, for the rest of the run, the file's too (as Newman's clear; the next run reads the file again).
    expect(query(sent[1]!.url).get('t')).toBe('stored-before');
    expect(query(sent[1]!.url).get('p')).toBe('{{plain}}');
    expect(await s.data.secrets.get('local', 'token')).toBe('stored-before');
    expect(await s.data.scriptValues('environment:local')).toEqual({});
  });

  it('non-secret variables keep using script values exactly as before', async () => {
    const s = await setup({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'plain', value: 'file' }] },
      'requests/set.yaml': { name: 'set', url: `${base}/f?p={{plain}}`, scripts: { postResponse: "pm.environment.set('plain', 'p-2'); pm.environment.set('fresh', 'new')" } },
    });
    await run(s, { environment: 'local' });
    expect(await s.data.scriptValues('environment:local')).toEqual({ plain: 'p-2', fresh: 'new' });
    expect(await fs.stat(path.join(s.data.dir, 'secrets.json')).catch(() => undefined)).toBeUndefined();
    const second = await run(s, { environment: 'local' });
    expect(query(second.sent[0]!.url).get('p')).toBe('p-2');
    expect(second.results[0]!.url).toBe(`${base}/f?p=p-2`);
  });

  it('a secret store that cannot be written: the run warns, and the value is not kept in plain text instead', async () => {
    const s = await setup({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', secret: true }] },
      'requests/set.yaml': { name: 'set', url: `${base}/w?t={{token}}`, scripts: { preRequest: "pm.environment.set('token', 'unsaved-4410'); pm.environment.set('plain', 'p')" } },
    });
    // Once the run has read the store, a folder takes the place of its file.
    const breakStore: Reporter = { onEvent: (e) => void (e.type === 'request' && mkdirSync(path.join(s.data.dir, 'secrets.json'), { recursive: true })) };
    const { events, sent } = await run(s, { environment: 'local', reporters: [breakStore] });
    expect(query(sent[0]!.url).get('t')).toBe('unsaved-4410'); // the run itself used it
    const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(warnings).toEqual([expect.stringMatching(/^the values scripts set of this run could not be saved in the data folder: .*EISDIR/)]);
    expect(await readText(path.join(s.data.dir, 'state.json'))).not.toContain('unsaved-4410');
  });

  it('hostile names (__proto__, constructor) stay ordinary secret names: no prototype change, no plain copy', async () => {
    const s = await setup({
      'environments/local.yaml': { name: 'Local', variables: [{ key: '__proto__', secret: true }, { key: 'constructor', secret: true }, { key: 'toString', secret: true }] },
      'requests/1 set.yaml': {
        name: 'set',
        seq: 1,
        url: `${base}/h?a={{__proto__}}&b={{constructor}}&c={{toString}}`,
        scripts: {
          preRequest: "pm.environment.set('__proto__', 'proto-val-1'); pm.environment.set('constructor', 'ctor-val-2');",
          postResponse: "pm.test('scripts see them', () => { pm.expect(pm.environment.get('constructor')).to.eql('ctor-val-2'); pm.expect(pm.environment.get('toString')).to.be.undefined; })",
        },
      },
      'requests/2 use.yaml': { name: 'use', seq: 2, url: `${base}/h?b={{constructor}}` },
    });
    const first = await run(s, { environment: 'local', paths: ['1 set'] });
    expect(first.summary.failedTests).toBe(0);
    // toString has no value: it stays as written (not Object.prototype.toString's text).
    expect(query(first.sent[0]!.url).toString()).toBe('a=proto-val-1&b=ctor-val-2&c=%7B%7BtoString%7D%7D');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    const state = await readText(path.join(s.data.dir, 'state.json'));
    expect(state).not.toContain('proto-val-1');
    expect(state).not.toContain('ctor-val-2');
    expect(await s.data.secrets.get('local', 'constructor')).toBe('ctor-val-2');
    expect(await s.data.secrets.get('local', '__proto__')).toBe('proto-val-1');
    const second = await run(s, { environment: 'local', paths: ['2 use'] });
    expect(query(second.sent[0]!.url).get('b')).toBe('ctor-val-2');
  });

  it('are masked in URLs (in any encoding), errors, test messages, warnings and history, scripts’ console lines included', async () => {
    const secret = 'p@ss wörd+&=Q7';
    const s = await setup({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', secret: true }] },
      'requests/1 use.yaml': {
        name: 'use',
        seq: 1,
        url: `${base}/p/{{token}}?q={{token}}`,
        scripts: {
          preRequest: `pm.environment.set('token', ${JSON.stringify(secret)})`,
          postResponse: [
            "console.log('token is ' + pm.environment.get('token'));",
            "pm.test('compare', () => pm.expect(pm.environment.get('token')).to.eql('other'));",
            "postman.setNextRequest(pm.environment.get('token'));",
            "throw new Error('bad ' + pm.environment.get('token'));",
          ].join('\n'),
        },
      },
    });
    const reports = reportsOf();
    const { results, events, sent } = await run(s, { environment: 'local', reporters: reports.reporters });
    const target = sent[0]!.url;
    expect(decodeURIComponent(target.split('?')[0]!)).toBe(`/p/${secret}`);
    const r = results[0]!;
    expect(r.url).toBe(`${base}/p/***?q=***`);
    expect(r.error).toMatch(/bad \*\*\*/);
    expect(r.tests[0]!.message).toContain('***');
    expect(r.console).toEqual(['token is ***']);
    const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(warnings).toEqual([expect.stringContaining('setNextRequest("***")')]);
    const text = reports.text();
    for (const form of [secret, encodeURIComponent(secret), target.slice(3, target.indexOf('?'))]) expect(text).not.toContain(form);
    expect(text).toContain('token is ***');
    const history = await readText(path.join(s.data.dir, 'history.json'));
    expect(history).not.toContain(encodeURIComponent(secret));
    expect(history).not.toContain(target.slice(3, target.indexOf('?')));
    expect(JSON.parse(history)[0].url).toBe(`${base}/p/***?q=***`);
  });
});
