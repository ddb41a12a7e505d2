import { describe, expect, it } from 'vitest';
import {
  buildVariableScope,
  compile,
  render,
  requestValuesFromHttp,
  TEMPLATE_LIMITS,
} from '../../src/template/index.js';
import { rows } from './helpers.js';

const MB = 1024 * 1024;

describe('limits of spec 8.1', () => {
  it('are the spec values', () => {
    expect(TEMPLATE_LIMITS.maxNestingLevels).toBe(10);
    expect(TEMPLATE_LIMITS.maxExpansionBytes).toBe(16 * MB);
    expect(TEMPLATE_LIMITS.maxRenderedBytes).toBe(32 * MB);
  });
});

describe('one placeholder expansion: up to 16 MB', () => {
  const scopeOf = (spec: Record<string, string>) => buildVariableScope({ workspace: { variables: rows(spec) } });

  const cases: [what: string, spec: () => Record<string, string>, filled: boolean][] = [
    ['a value of exactly 16 MB', () => ({ big: 'x'.repeat(16 * MB) }), true],
    ['a value of 16 MB + 1 byte', () => ({ big: 'x'.repeat(16 * MB + 1) }), false],
    ['16 MB counted in UTF-8 bytes: 8 Mi two-byte characters', () => ({ big: 'é'.repeat(8 * MB) }), true],
    ['16 MB counted in UTF-8 bytes: one more two-byte character', () => ({ big: 'é'.repeat(8 * MB) + 'é' }), false],
    ['nested parts adding up to exactly 16 MB', () => ({ big: '{{half}}{{half}}', half: 'y'.repeat(8 * MB) }), true],
    ['nested parts adding up to 16 MB + 2 bytes', () => ({ big: '{{half}}{{half}}', half: 'y'.repeat(8 * MB + 1) }), false],
  ];
  it.each(cases)('%s', (_what, spec, filled) => {
    const values = spec();
    const out = render('<{{big}}>', 'mock.body', { variables: scopeOf(values) });
    if (filled) {
      expect(out.length).toBeGreaterThan(8 * MB);
      expect(out.startsWith('<') && out.endsWith('>')).toBe(true);
    } else {
      expect(out).toBe('<{{big}}>');
    }
  });

  it('a too-big inner expansion stays as written inside its outer value', () => {
    const scope = scopeOf({ outer: 'a {{inner}} b', inner: 'z'.repeat(16 * MB + 1) });
    expect(render('{{outer}}', 'request', { variables: scope })).toBe('a {{inner}} b');
  });

  it('exponential definitions ("billion laughs") stop at the cap, quickly', () => {
    const spec: Record<string, string> = { l0: 'lol'.repeat(10) };
    for (let i = 1; i <= 9; i++) spec[`l${i}`] = `{{l${i - 1}}}`.repeat(10);
    const scope = scopeOf(spec);
    // l5 is 3 MB: filled. l6 is 30 MB: too big, so l7 (10 × l6) holds ten l6 placeholders as written.
    expect(render('{{l5}}', 'mock.body', { variables: scope })).toHaveLength(3 * 10 ** 6);
    expect(render('{{l6}}', 'mock.body', { variables: scope })).toBe('{{l6}}');
    expect(render('{{l9}}', 'mock.body', { variables: scope })).toBe('{{l6}}'.repeat(1000));
  });

  it('exponential definitions over dynamic values (not cacheable) end too', () => {
    const spec: Record<string, string> = { d0: '{{$uuid}}'.repeat(20) };
    for (let i = 1; i <= 8; i++) spec[`d${i}`] = `{{d${i - 1}}}`.repeat(20);
    const out = render('{{d8}}', 'mock.body', { variables: scopeOf(spec) });
    expect(out.length).toBeLessThanOrEqual(32 * MB);
    expect(out).toContain('{{d');
  });

  it('wide cycles end too', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    const spec = Object.fromEntries(names.map((n) => [n, names.map((m) => `{{${m}}}`).join('').repeat(20)]));
    const out = render('{{a}}', 'mock.body', { variables: scopeOf(spec) });
    expect(out.length).toBeGreaterThan(0);
    expect(out.length).toBeLessThanOrEqual(32 * MB);
  });
});

describe('a rendered answer: up to 32 MB, placeholders past that stay as written', () => {
  const scope = buildVariableScope({ workspace: { variables: rows({ ten: '0123456789', one: '1' }) } });

  it('a placeholder that ends exactly at 32 MB is filled', () => {
    const text = 'x'.repeat(32 * MB - 10) + '{{ten}}';
    const out = compile(text, 'mock.body').render({ variables: scope });
    expect(out.length).toBe(32 * MB);
    expect(out.endsWith('0123456789')).toBe(true);
  });

  it('one byte more: it and every later placeholder stay as written', () => {
    const text = 'x'.repeat(32 * MB - 9) + '{{ten}}-{{one}}';
    const out = compile(text, 'mock.body').render({ variables: scope });
    expect(out.endsWith('{{ten}}-{{one}}')).toBe(true);
    expect(out.length).toBe(text.length);
  });

  it('literal text past the cap is kept whole; its placeholders stay as written', () => {
    const text = '{{one}}' + 'x'.repeat(33 * MB) + '{{one}}';
    const out = render(text, 'mock.body', { variables: scope });
    expect(out.startsWith('1x')).toBe(true);
    expect(out.endsWith('x{{one}}')).toBe(true);
  });

  it('client values count toward the cap', () => {
    const body = 'b'.repeat(20 * MB);
    const request = requestValuesFromHttp({ method: 'POST', url: '/', body: Buffer.from(body) });
    const out = render('{{request.body}}|{{request.body}}|{{request.method}}', 'mock.body', { request });
    expect(out).toBe(`${body}|{{request.body}}|{{request.method}}`);
  });

  it('applies to greetings and events too', () => {
    const big = buildVariableScope({ workspace: { variables: rows({ big: 'g'.repeat(16 * MB) }) } });
    for (const place of ['ws.greeting', 'sse.event'] as const) {
      const out = render('{{big}}{{big}}{{big}}', place, { variables: big });
      expect(out.length).toBe(32 * MB + '{{big}}'.length);
      expect(out.endsWith('g{{big}}')).toBe(true);
    }
  });
});
