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
    [' key=v', /starts or ends with a space/],
    ['key =v', /starts or ends with a space/],
    ['a\nb=v', /can't hold line breaks/],
    ['{{a}}=v', /can't hold line breaks, "\{\{" or "\}\}"/],
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
