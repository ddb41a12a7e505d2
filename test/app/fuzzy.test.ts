/** The command palette's fuzzy matching: order kept, word starts first, 10,000 items in a few milliseconds. */
import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyScore } from '../../src/app/web/fuzzy.js';

describe('fuzzy matching', () => {
  it('matches the query characters in order, case-insensitively, spaces ignored', () => {
    expect(fuzzyScore('gus', 'Get user')).toBeDefined();
    expect(fuzzyScore('GET US', 'Get user')).toBeDefined();
    expect(fuzzyScore('sug', 'Get user')).toBeUndefined();
    expect(fuzzyScore('x', '')).toBeUndefined();
    expect(fuzzyScore('', 'anything')).toBe(0);
  });

  it('puts word starts and runs before scattered matches', () => {
    const names = ['Delete a pet by its owner', 'Pets / List pets', 'Update pet', 'Find pets by tags'];
    expect(fuzzyFilter(names, 'lp', (n) => n)[0]).toBe('Pets / List pets');
    expect(fuzzyFilter(names, 'update', (n) => n)).toEqual(['Update pet']);
    expect(fuzzyFilter(['Request 19', 'Request 1'], 'request 1', (n) => n)[0]).toBe('Request 1');
  });

  it('takes hostile input as plain text', () => {
    expect(fuzzyFilter(['a.*b', 'ab'], '.*', (n) => n)).toEqual(['a.*b']);
    expect(fuzzyFilter(['x'], '(((', (n) => n)).toEqual([]);
    expect(fuzzyFilter(['x'.repeat(10_000)], 'x'.repeat(5_000), (n) => n)).toHaveLength(1);
  });

  it('filters 10,000 items quickly and returns at most the limit', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => `Area ${i % 10} / Folder ${i % 500} / Request ${i}`);
    const started = performance.now();
    const found = fuzzyFilter(items, 'f499r19', (n) => n, 50);
    expect(performance.now() - started).toBeLessThan(500);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(50);
    expect(found[0]).toMatch(/Folder 499 \/ Request 19/);
  });
});
