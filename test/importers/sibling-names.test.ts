/**
 * SiblingNames gives the same file names as uniqueFileName called with every earlier sibling
 * (spec 2.1.4), only faster; and a big import writes within a bounded number of open files.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SiblingNames } from '../../src/importers/sibling-names.js';
import { uniqueFileName } from '../../src/workspace/index.js';

/** The slow reference: uniqueFileName against the names given so far. */
function reference(existing: string[], names: string[]): string[] {
  const taken = [...existing];
  return names.map((n) => {
    const name = uniqueFileName(n, taken);
    taken.push(name);
    return name;
  });
}

const ours = (existing: string[], names: string[]) => {
  const siblings = new SiblingNames(existing);
  return names.map((n) => siblings.take(n));
};

describe('SiblingNames', () => {
  it('agrees with uniqueFileName on repeats, case, dots, spaces, device names and long names', () => {
    const long = 'x'.repeat(79);
    const names = [
      'Get', 'get', 'GET', 'Get 2', 'Get', 'Get 3', 'Get', 'a.', 'a', 'a..', ' a', 'CON', 'con', 'con_', '_folder', 'untitled', '',
      long, long, `${long}y`, `${long.slice(0, 76)}. .x`, `${long.slice(0, 76)}. .x`, 'é'.repeat(90), 'é'.repeat(90), '😀'.repeat(85), '😀'.repeat(85), 'Caf\u00e9', 'Cafe\u0301', 'CAFE\u0301',
      ...Array(12).fill('Many'),
    ];
    expect(ours(['Get', 'Many 3'], names)).toEqual(reference(['Get', 'Many 3'], names));
    // Names that differ only by Unicode normalization (one file on macOS) are taken too.
    expect(ours(['Caf\u00e9'], ['Cafe\u0301', 'CAFE\u0301'])).toEqual(['Cafe\u0301 2', 'CAFE\u0301 3']);
  });

  it('agrees with uniqueFileName on generated sibling lists', () => {
    const piece = fc.constantFrom('a', 'A', 'b', ' ', '.', '2', '3', ' 2', 'x'.repeat(40), '/', 'con', '😀');
    const name = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 5 }), fc.array(name, { maxLength: 30 }), (existing, names) => {
        const existingBases = reference([], existing);
        expect(ours(existingBases, names)).toEqual(reference(existingBases, names));
      }),
      { numRuns: 300 },
    );
  });

  it('10,000 requests with one name get 10,000 different names', () => {
    const siblings = new SiblingNames();
    const names = Array.from({ length: 10_000 }, () => siblings.take('New Request'));
    expect(new Set(names).size).toBe(10_000);
    expect(names.slice(0, 3)).toEqual(['New Request', 'New Request 2', 'New Request 3']);
    expect(names.at(-1)).toBe('New Request 10000');
  });
});
