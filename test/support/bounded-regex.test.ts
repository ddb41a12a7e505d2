/** support/bounded-regex.ts: workspace patterns match as JavaScript's RegExp does, and none can stall the thread. */
import { describe, expect, it } from 'vitest';
import { boundedRegex, RegexTimeLimitError } from '../../src/support/bounded-regex.js';

const TEXTS = ['{"token":"abc"}', 'token=abc\r\nnext', 'a \u00a0b\u2028c', 'x, y\tz', 'id 42', 'bob@site.com', 'abc1', 'say "hi" ok', 'line1\nline2', 'é!😀', 'AB', 'aaa', 'b', 'a foo b', 'héllo', '1.2.3.4', 'a]a', '  ab cd', ''];

describe('boundedRegex', () => {
  it('matches as new RegExp does, group by group, on the linear engine where RE2 can run the pattern', () => {
    const linear: Array<[string, string]> = [
      ['"token":"([^"]+)"', ''], ['token=(.*)', ''], ['a\\s+b', ''], ['[\\s,]+(\\w+)', ''], ['(?<id>\\d+)', ''], ['^(\\w+)@(\\w+)\\.com$', 'u'],
      ['[^]+', ''], ['\\u00e9(.)', 'u'], ['\\x41', ''], ['a{2,3}', ''], ['(a)|b', ''], ['\\bfoo\\b', ''], ['\\p{L}+', 'u'], ['\\d{1,3}\\.\\d{1,3}', ''],
      ['\\S+', ''], ['x*', ''], ['(a+)+$', ''], ['AB|ab', 'i'], ['.', 'u'], ['\\/\\-\\.', ''],
    ];
    for (const [source, flags] of linear) {
      const bounded = boundedRegex(source, flags);
      expect(bounded.linear, source).toBe(true);
      const native = new RegExp(source, flags);
      for (const text of TEXTS) {
        const found = native.exec(text);
        expect(bounded.exec(text), `${source} on ${JSON.stringify(text)}`).toEqual(found ? [...found] : null);
        expect(bounded.test(text)).toBe(native.test(text));
      }
    }
  });

  it('runs on V8 (under its time limit) what RE2 lacks or reads otherwise: lookaround, backreferences, \\A, [[:…', () => {
    const watched = ['(?=.*\\d)(\\w+)', '(?<=say )"(\\w+)', '(["\'])(.*?)\\1', '(?<q>a)\\k<q>', '[]a', '[\\S]+', '\\A', '\\z', '[[:alpha:]]', 'a(?!b)', '\\x{41}'];
    for (const source of watched) {
      const bounded = boundedRegex(source);
      expect(bounded.linear, source).toBe(false);
      const native = new RegExp(source);
      for (const text of TEXTS) {
        const found = native.exec(text);
        expect(bounded.exec(text), `${source} on ${JSON.stringify(text)}`).toEqual(found ? [...found] : null);
      }
    }
  });

  it('throws the SyntaxError new RegExp throws for a pattern JavaScript cannot compile', () => {
    expect(() => boundedRegex('(unclosed')).toThrow(SyntaxError);
    expect(() => boundedRegex('(?i)abc')).toThrow(SyntaxError); // RE2 would take it; JavaScript (Node 20) does not
  });

  it('cannot stall: catastrophic patterns take milliseconds; one only V8 can run stops after its limit', () => {
    const hostile = `${'a'.repeat(50_000)}b`;
    // Run by the linear engine: on 50,001 characters V8's backtracking would not end in the test's
    // time, and would be stopped by the time limit (an error, not an answer).
    for (const [source, flags] of [['(a+)+$', ''], ['^(a|a)*$', 'u'], ['(\\w+\\s?)*$', 'i'], ['a.*a.*a.*a.*c', '']] as const) {
      const bounded = boundedRegex(source, flags);
      expect(bounded.linear, source).toBe(true);
      expect(bounded.test(hostile)).toBe(source === '(\\w+\\s?)*$');
    }
    expect(() => boundedRegex('(a+)+\\1$').exec(hostile)).toThrow(RegexTimeLimitError);
    // The thread goes on: the same pattern still runs on a short text.
    expect(boundedRegex('(a+)+\\1$').exec('aab')).toBeNull();
    expect(boundedRegex('(a+)\\1$').exec('aaaa')).toEqual(['aaaa', 'aa']);
  });
});
