import { describe, expect, it } from 'vitest';
import { buildVariableScope, findPlaceholders, render } from '../../src/template/index.js';
import { rows } from './helpers.js';

const variables = buildVariableScope({
  workspace: { variables: rows({ name: 'Ada', host: 'example.com', 'a b': 'spaced', message: 'var-message' }) },
});
const fill = (text: string) => render(text, 'request', { variables });

describe('syntax rules of spec 8.2', () => {
  const cases: [rule: string, template: string, expected: string][] = [
    // 1. a name between {{ and }}, spaces around it allowed
    ['1: plain', 'Hi {{name}}!', 'Hi Ada!'],
    ['1: spaces around', 'Hi {{ name }}!', 'Hi Ada!'],
    ['1: several spaces and tabs', 'Hi {{  \tname\t  }}!', 'Hi Ada!'],
    ['1: spaces inside a name are part of it', '{{a b}} {{ a b }}', 'spaced spaced'],
    ['1: adjacent placeholders', '{{name}}{{host}}', 'Adaexample.com'],
    ['1: case-sensitive names', '{{Name}}', '{{Name}}'],
    // 2. never across lines; {{}} and unclosed {{ stay
    ['2: spans LF', '{{na\nme}}', '{{na\nme}}'],
    ['2: spans CRLF', '{{name\r\n}}', '{{name\r\n}}'],
    ['2: spans CR', '{{\rname}}', '{{\rname}}'],
    ['2: line break before, placeholder after', '{{x\n{{name}}', '{{x\nAda'],
    ['2: empty', '{{}}', '{{}}'],
    ['2: only spaces', '{{   }}', '{{   }}'],
    ['2: unclosed', 'a {{name', 'a {{name'],
    ['2: unclosed after a good one', '{{name}} {{host', 'Ada {{host'],
    ['2: single braces', '{name} {{name} {name}}', '{name} {{name} {name}}'],
    // 3. undefined stays as written (secret: see variables tests)
    ['3: undefined', '{{nobody}} and {{ nobody }}', '{{nobody}} and {{ nobody }}'],
    // 5. no escape syntax
    ['5: backslash is not an escape', '\\{{name}}', '\\Ada'],
    ['5: triple braces are not raw', '{{{name}}}', '{Ada}'],
    ['5: names nothing: unchanged', 'if (a) {{ b: 1 }}', 'if (a) {{ b: 1 }}'],
    // 6. innermost complete placeholder counts
    ['6: nested', '{{a{{name}}}}', '{{aAda}}'],
    ['6: nested with spaces', '{{ outer {{ name }} }}', '{{ outer Ada }}'],
    ['6: quadruple open', '{{{{name}}', '{{Ada'],
    ['6: extra closing', '{{name}}}}', 'Ada}}'],
    ['6: filled text is not scanned again', '{{{{name}}}}', '{{Ada}}'],
  ];
  it.each(cases)('rule %s', (_rule, template, expected) => {
    expect(fill(template)).toBe(expected);
  });

  it('finds each placeholder with its position and name', () => {
    expect(findPlaceholders('x {{ a }} {{b}}\n{{c')).toEqual([
      { start: 2, end: 9, name: 'a', tight: false },
      { start: 10, end: 15, name: 'b', tight: true },
    ]);
  });

  it('scans a line of many opening braces in linear time', () => {
    const text = '{{'.repeat(200_000) + 'name}}';
    expect(findPlaceholders(text)).toHaveLength(1);
    expect(fill(text)).toBe('{{'.repeat(199_999) + 'Ada');
  });

  it('scans many unclosed braces followed by a far closing brace', () => {
    const text = '{{x\n'.repeat(100_000) + '}}';
    expect(findPlaceholders(text)).toHaveLength(0);
  });
});
