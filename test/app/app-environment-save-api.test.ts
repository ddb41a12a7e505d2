/**
 * The environment dialog's Save with a new name: the rename and the variables are one change
 * (PUT /api/environment/variables with `name`), written whole or not at all. Failures are made by
 * real means: a read-only environment file, the file changed on disk since the dialog read it, a
 * name another environment has. Each leaves the files, the list and this computer's secrets as
 * they were, and the answer says why.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EnvironmentVariableView } from '../../src/app/shared/api.js';
import { openedWorkspace } from '../runner/workspace.js';
import { appForTest } from './app-for-test.js';

async function stagingApp() {
  const { ws, app, call } = await appForTest({
    'environments/staging.yaml': 'name: Staging\nvariables:\n  - key: host\n    value: old.example.test\n  - key: token\n    secret: true\n',
    'environments/prod.yaml': { name: 'Prod', variables: [] },
  });
  const read = async (id: string) => (await call<{ name: string; variables: EnvironmentVariableView[]; mark: unknown }>('GET', `/api/environment/variables?id=${id}`)).body;
  const files = async () => (await fs.readdir(path.join(ws.root, 'environments'))).sort();
  return { app, call, read, files, file: path.join(ws.root, 'environments', 'staging.yaml') };
}

/** The dialog's edit: host changed, a secret value typed, a new variable. */
const edited = (base: EnvironmentVariableView[]) => [
  { key: 'host', value: 'new.example.test', enabled: true, secret: false },
  { key: 'token', value: 'S3CRET', enabled: true, secret: true },
  { key: 'region', value: 'eu', enabled: true, secret: false },
  ...base.filter((v) => !['host', 'token'].includes(v.key)),
];

describe('the environment dialog: a rename and its variables saved as one change', () => {
  it('renames and saves together: one file under the new name with the edits, the secret under the new id', async () => {
    const { call, read, files } = await stagingApp();
    const opened = await read('staging');
    const saved = await call<{ id: string }>('PUT', '/api/environment/variables', { id: 'staging', name: 'Stage EU', base: opened.variables, variables: edited(opened.variables), mark: opened.mark });
    expect(saved.status).toBe(200);
    expect(await files()).toEqual(['Stage EU.yaml', 'prod.yaml']);
    const after = await read('Stage EU');
    // The answer is what a read gives now: the dialog's base when it stays open with edits typed meanwhile.
    expect(saved.body).toEqual(after);
    expect(saved.body.id).toBe('Stage EU');
    expect(after.name).toBe('Stage EU');
    expect(after.variables.map((v) => [v.key, v.value, v.stored])).toEqual([['host', 'new.example.test', false], ['token', '', true], ['region', 'eu', false]]);
  });

  it('a read-only environment file: neither renamed nor saved, the file byte for byte as it was, no secret stored', async () => {
    const { call, read, files, file } = await stagingApp();
    const before = await fs.readFile(file, 'utf8');
    await fs.chmod(file, 0o444);
    const opened = await read('staging');
    const refused = await call<{ error: string }>('PUT', '/api/environment/variables', { id: 'staging', name: 'Stage EU', base: opened.variables, variables: edited(opened.variables), mark: opened.mark });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('is read-only (mode 0444), so it was not changed. Make it writable (chmod u+w), then try again.');
    expect(await files()).toEqual(['prod.yaml', 'staging.yaml']);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    const now = await read('staging');
    expect(now.name).toBe('Staging');
    expect(now.variables.find((v) => v.key === 'token')!.stored).toBe(false);
    // Made writable, the same Save goes through whole.
    await fs.chmod(file, 0o644);
    expect((await call('PUT', '/api/environment/variables', { id: 'staging', name: 'Stage EU', base: opened.variables, variables: edited(opened.variables), mark: opened.mark })).status).toBe(200);
    expect(await files()).toEqual(['Stage EU.yaml', 'prod.yaml']);
  });

  it('the file changed on disk since the dialog read it: a 409 with the file\'s variables, and no rename', async () => {
    const { call, read, files, file } = await stagingApp();
    const opened = await read('staging');
    const outside = (await fs.readFile(file, 'utf8')).replace('old.example.test', 'edited.outside.test');
    await fs.writeFile(file, outside);
    const refused = await call<{ error: string; variables: EnvironmentVariableView[] }>('PUT', '/api/environment/variables', { id: 'staging', name: 'Stage EU', base: opened.variables, variables: edited(opened.variables), mark: opened.mark });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('environments/staging.yaml changed on disk since the app read it; nothing was saved.');
    expect(refused.body.variables[0]!.value).toBe('edited.outside.test');
    expect(await files()).toEqual(['prod.yaml', 'staging.yaml']);
    expect(await fs.readFile(file, 'utf8')).toBe(outside);
  });

  it('a name another environment has, or one that cannot be saved: refused before anything is written', async () => {
    const { call, read, files, file } = await stagingApp();
    const before = await fs.readFile(file, 'utf8');
    const opened = await read('staging');
    const taken = await call<{ error: string }>('PUT', '/api/environment/variables', { id: 'staging', name: 'prod', base: opened.variables, variables: edited(opened.variables), mark: opened.mark });
    expect(taken).toEqual({ status: 400, body: { error: 'An environment named "Prod" exists already (environments/prod.yaml); give another name.' } });
    const hostile = await call<{ error: string }>('PUT', '/api/environment/variables', { id: 'staging', name: 'Stage\u202EUE', base: opened.variables, variables: edited(opened.variables), mark: opened.mark });
    expect(hostile.status).toBe(400);
    expect(hostile.body.error).toContain('A name cannot hold control characters or bidirectional overrides');
    expect(await files()).toEqual(['prod.yaml', 'staging.yaml']);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect((await read('staging')).variables.find((v) => v.key === 'token')!.stored).toBe(false);
  });

  it('a key no placeholder can name ({{, }} or a line break in it) is refused on save, naming the row; with a rename, nothing is renamed', async () => {
    const { call, read, files, file } = await stagingApp();
    const before = await fs.readFile(file, 'utf8');
    const opened = await read('staging');
    for (const [key, shown] of [['a{{b', 'a{{b'], ['two\nlines', 'two\\nlines'], ['x}}', 'x}}'], [' host', ' host']] as const) {
      const refused = await call<{ error: string }>('PUT', '/api/environment/variables', { id: 'staging', name: 'Stage EU', base: opened.variables, variables: [...opened.variables, { key, value: '1', enabled: true, secret: false }], mark: opened.mark });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(`Not saved: variables[2].key: ${JSON.stringify(key)} can never be used: {{${shown}}} does not name it, since a key cannot hold a line break, "{{" or "}}", nor start or end with a space, tab, "{" or "}"; rename the variable.`);
    }
    expect(await files()).toEqual(['prod.yaml', 'staging.yaml']);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    // The workspace variables are refused the same way; keys such as a.b, with-dash or "a b" are fine.
    expect((await call('PUT', '/api/workspace/variables', { variables: [{ key: 'a}}b', value: '' }] })).status).toBe(400);
    expect((await call('PUT', '/api/workspace/variables', { variables: [{ key: 'a.b', value: '1' }, { key: 'with-dash', value: '2' }, { key: 'a b', value: '3' }] })).status).toBe(200);
  });

  it('such a key in a hand-edited file is read as written, with a warning naming the file, line and key (a blank key is a blank row: no warning)', async () => {
    const { ws: opened } = await openedWorkspace({ 'environments/dev.yaml': 'name: Dev\nvariables:\n  - key: ""\n    value: 0\n  - key: ok\n    value: 1\n  - key: "a{{b"\n    value: 2\n' });
    expect(opened.environments.find((e) => e.id === 'dev')!.value.variables.map((v) => v.key)).toEqual(['', 'ok', 'a{{b']);
    expect(opened.warnings).toEqual([expect.objectContaining({
      file: 'environments/dev.yaml', line: 7,
      message: 'variables[2].key: "a{{b" can never be used: {{a{{b}} does not name it, since a key cannot hold a line break, "{{" or "}}", nor start or end with a space, tab, "{" or "}". The variable is read as it is; rename it (the app\'s variable editor refuses such keys).',
    })]);
  });

  it('two enabled variables of one key are refused (only the first would be used); one enabled beside a disabled one is saved', async () => {
    const { call, file } = await stagingApp();
    const before = await fs.readFile(file, 'utf8');
    const row = (value: string, enabled = true) => ({ key: 'host', value, enabled, secret: false });
    const refused = await call<{ error: string }>('PUT', '/api/environment/variables', { id: 'staging', variables: [row('a'), { key: 'x', value: '' }, row('b')] });
    expect(refused).toEqual({ status: 400, body: { error: 'Not saved: variables[2].key: "host" is also the key of variables[0], and both are enabled: only the first would be used. Remove one, or untick Enabled on one of them (enabled: false in the file).' } });
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect((await call('PUT', '/api/environment/variables', { id: 'staging', variables: [row('a', false), row('b')] })).status).toBe(200);
  });

  it('+ (a copy of another environment) refuses a hand-edited source with such keys, as ferry env new --copy-of: 400 naming the file and row, nothing written', async () => {
    const { app, call, files, file } = await stagingApp();
    await fs.writeFile(file, 'name: Staging\nvariables:\n  - key: host\n    value: a\n  - key: host\n    value: b\n');
    await app.state.reload();
    const refused = await call<{ error: string }>('POST', '/api/environments', { name: 'QA', copyOf: 'staging' });
    expect(refused).toEqual({ status: 400, body: { error: 'Not copied: environments/staging.yaml, variables[1].key: "host" is also the key of variables[0], and both are enabled: only the first would be used. Remove one, or untick Enabled on one of them (enabled: false in the file) in environments/staging.yaml, then copy it again.' } });
    expect(await files()).toEqual(['prod.yaml', 'staging.yaml']);
  });
});
