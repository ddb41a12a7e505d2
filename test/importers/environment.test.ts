/** Environment and globals exports (spec 4.3): names, secrets, disabled and odd variables. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, decodeText, importEnvironment } from '../../src/importers/index.js';
import { buildVariableScope } from '../../src/template/index.js';
import { nameFromSource } from '../../src/importers/environment.js';
import { CORPUS } from '../support/corpus.js';


const nameless = { values: [{ key: 'a', value: '1' }] };

describe('the name of an environment export without one', () => {
  it('is the file name without its extension', async () => {
    const file = path.join(CORPUS, 'environments/env-missing-name.postman_environment.json');
    const result = await convert(decodeText(readFileSync(file)), { label: file, path: file });
    expect(result.name).toBe('env-missing-name');
    expect(result.environments[0]!.name).toBe('env-missing-name');
  });

  it('drops one extension, and Postman\'s double one', () => {
    expect(nameFromSource({ label: 'x', path: '/tmp/Staging.postman_environment.json' })).toBe('Staging');
    expect(nameFromSource({ label: 'x', path: '/tmp/prod.env.json' })).toBe('prod.env');
    expect(nameFromSource({ label: 'x', path: '/tmp/local' })).toBe('local');
    expect(nameFromSource({ label: 'x', path: 'C:\\exports\\QA.postman_environment.json' })).toBe('QA');
    expect(nameFromSource({ label: 'x', path: '/tmp/.json' })).toBe('.json');
    expect(nameFromSource({ label: 'x', url: 'https://h.test/envs/Dev%20box.json?raw=1' })).toBe('Dev box');
    expect(nameFromSource({ label: 'x', url: 'https://h.test/' })).toBeUndefined();
    expect(nameFromSource({ label: 'standard input' })).toBeUndefined();
  });

  it('falls back to "Imported environment" for standard input and pasted text', () => {
    expect(importEnvironment(nameless, 'environment', { source: { label: 'standard input' } }).name).toBe('Imported environment');
    expect(importEnvironment(nameless, 'environment').name).toBe('Imported environment');
  });

  it('a name in the export, or --name, wins over the file name', () => {
    const source = { label: 'f', path: '/tmp/file-name.json' };
    expect(importEnvironment({ ...nameless, name: 'Own' }, 'environment', { source }).name).toBe('Own');
    expect(importEnvironment({ ...nameless, name: '  ' }, 'environment', { source }).name).toBe('file-name');
    expect(importEnvironment(nameless, 'environment', { source, name: 'Given' }).name).toBe('Given');
  });

  it('a globals export without a name is "Globals", whatever its file is called (spec 4.3)', () => {
    expect(importEnvironment([{ key: 'a', value: '1' }], 'globals', { source: { label: 'f', path: '/tmp/g.postman_globals.json' } }).name).toBe('Globals');
  });
});

describe('repeated and switched-off variables', () => {
  it('a key given more than once takes the last enabled value, as Newman does: the earlier rows are kept switched off', async () => {
    // Newman, given this export: duplicate = 2, oneDisabled = 1, justDisabled undefined.
    const file = path.join(CORPUS, 'environments/env-disabled-duplicates.postman_environment.json');
    const result = await convert(decodeText(readFileSync(file)), { label: file, path: file });
    const variables = result.environments[0]!.variables;
    expect(variables.map((v) => [v.key, v.value, v.enabled !== false])).toEqual([
      ['justDisabled', '1', false], ['oneDisabled', '1', true], ['oneDisabled', '2', false], ['duplicate', '1', false], ['duplicate', '2', true],
    ]);
    const scope = buildVariableScope({ environment: { variables: variables.map((v) => ({ key: String(v.key), value: String(v.value ?? ''), enabled: v.enabled !== false, secret: false })) } });
    expect(['duplicate', 'oneDisabled', 'justDisabled'].map((k) => scope.resolve(k, { allowSecrets: false }))).toEqual(['2', '1', undefined]);
    expect(result.notes).toContain('Some variables appear more than once (duplicate); all were kept, and the last enabled one is used, as in Postman: the earlier ones were switched off.');
  });

  it('a secret key given more than once keeps, in the secret store, the value of the row that is used', () => {
    const result = importEnvironment({ name: 'S', values: [
      { key: 'token', value: 'used', type: 'secret', enabled: true },
      { key: 'token', value: 'switched-off', type: 'secret', enabled: false },
      { key: 'pair', value: 'old', type: 'secret' },
      { key: 'pair', value: 'new', type: 'secret' },
    ] }, 'environment');
    expect(result.secrets.map((s) => [s.key, s.value])).toEqual([['token', 'used'], ['pair', 'new']]);
  });
});
