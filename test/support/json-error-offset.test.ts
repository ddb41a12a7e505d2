/**
 * jsonErrorOffset (jsonc-parser held to strict JSON) agrees with JSON.parse on what is JSON, and
 * names the place JSON.parse names where it names one (Node 20 names none for a stray token: the
 * reason it is asked).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../src/support/json-error-offset.js';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonErrorOffset', () => {
  it('finds the stray token JSON.parse leaves unplaced', () => {
    expect(jsonErrorOffset('{"a": }')).toBe(6);
    expect(jsonErrorOffset('[1,]')).toBe(3);
    expect(jsonErrorOffset('[tru]')).toBe(4);
    expect(jsonErrorOffset('[trux]')).toBe(4);
    expect(jsonErrorOffset('[x]')).toBe(1);
    expect(jsonErrorOffset('{"item": [\n  {"x": 1},\n  ]}')).toBe(25);
  });

  it('gives the position JSON.parse gives, where it gives one, for a token out of place', () => {
    for (const text of ['[1,2', '{"a":1,}', '{"a" 1}', '[1 2]', '{a:1}', '{"a":1}x', '[01]', '{"a":1 "b":2}', '{,}']) {
      let message = '';
      try {
        JSON.parse(text);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(jsonErrorOffset(text), text).toBe(Number(/position (\d+)/.exec(message)![1]));
    }
    // Inside a string, the string's start: its line and column are where to look.
    expect(jsonErrorOffset('{"a": "x\ny"}')).toBe(6);
    expect(jsonErrorOffset('')).toBe(0);
    expect(jsonErrorOffset('[[[')).toBe(3);
  });

  it('names no place, and does not throw, for nesting deeper than the parser follows', () => {
    expect(jsonErrorOffset('['.repeat(100_000) + ']'.repeat(100_000))).toBeUndefined();
    expect(jsonErrorOffset('['.repeat(100_000) + '}')).toBeUndefined();
    expect(jsonErrorOffset('['.repeat(100) + '}')).toBe(100);
  });

  it('says valid exactly when JSON.parse does, for JSON and JSON cut or changed at one place', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', '}', ']', ',', ':', '"', '\\', 'x', '0', '-', '.', 'e', ' ', '\n', '\u0001'), (json, at, insert) => {
        const cut = at % (json.length + 1);
        for (const text of [json, json.slice(0, cut), json.slice(0, cut) + insert + json.slice(cut), json.slice(0, cut) + insert + json.slice(cut + 1)]) {
          expect(jsonErrorOffset(text) === undefined, JSON.stringify(text)).toBe(parses(text));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
