import { describe, expect, it } from 'vitest';
import { buildVariableScope, parseVarOption, parseVarOptions, render, VarOptionError } from '../../src/template/index.js';
import { rows } from './helpers.js';

describe('--var key=value', () => {
  const good: [text: string, key: string, value: string][] = [
    ['baseUrl=http://localhost:3000', 'baseUrl', 'http://localhost:3000'],
    ['a=b=c', 'a', 'b=c'],
    ['empty=', 'empty', ''],
    ['spaced= a value ', 'spaced', ' a value '],
    ['$uuid=fixed', '$uuid', 'fixed'],
    ['ünï=ç', 'ünï', 'ç'],
    ['multi=line\nvalue', 'multi', 'line\nvalue'],
  ];
  it.each(good)('%j', (text, key, value) => {
    expect(parseVarOption(text)).toEqual({ key, value });
  });

  const bad: [text: string, message: RegExp][] = [
    ['novalue', /expects key=value.*"novalue" \(no "="\)/],
    ['=value', /the key before "=" is empty/],
    ['', /no "="/],
    // The rule of every variable key, in the words of the app's save (unusableKeyProblem).
    [' key=v', /^--var " key=v": the key " key" can never be used: \{\{ key\}\} does not name it, since a key cannot hold a line break, "\{\{" or "\}\}", nor start or end with a space, tab, "\{" or "\}"; write the bare name, for example --var baseUrl=http:\/\/localhost:3000\.$/],
    ['key =v', /the key "key " can never be used/],
    ['a\nb=v', /the key "a\\nb" can never be used/],
    ['{{a}}=v', /the key "\{\{a\}\}" can never be used/],
    // Missed before the one rule was used: a key starting or ending with a brace.
    ['{a=v', /the key "\{a" can never be used/],
    ['a}=v', /the key "a\}" can never be used/],
  ];
  it.each(bad)('refuses %j with a message', (text, message) => {
    expect(() => parseVarOption(text)).toThrow(VarOptionError);
    expect(() => parseVarOption(text)).toThrow(message);
  });

  it('shortens a long bad value in the message', () => {
    expect(() => parseVarOption('x'.repeat(500))).toThrow(/x{60}…"/);
  });

  it('repeated: the last value of a key counts, and overrides win over every file', () => {
    const overrides = parseVarOptions(['host=one', 'port=1', 'host=two']);
    expect([...overrides]).toEqual([
      ['host', 'two'],
      ['port', '1'],
    ]);
    const scope = buildVariableScope({
      overrides,
      environment: { variables: rows({ host: 'env' }) },
      workspace: { variables: rows({ host: 'ws', port: '80' }) },
    });
    expect(render('{{host}}:{{port}}', 'mock.backendUrl', { variables: scope })).toBe('two:1');
  });
});
