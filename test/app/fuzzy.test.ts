/** The command palette's fuzzy matching: order kept, the best alignment (name before path, word starts, runs); its times are targets of bench/app-text.ts. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyMatch, fuzzyScore } from '../../src/app/web/fuzzy.js';

/** The palette's texts (`Folder / Sub / Name`) of GitHub's and Stripe's imported workspaces (test/fixtures/palette/README.md). */
const BIG = readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'palette', 'github-stripe-texts.txt'), 'utf8').trim().split('\n');
const rank = (query: string, wanted: string) => fuzzyFilter(BIG, query, (t) => t, 50).indexOf(wanted) + 1;

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

  // Its time, and each keystroke's over the 1,095 texts, are targets of bench/app-text.ts.
  it('filters 10,000 items and returns at most the limit', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => `Area ${i % 10} / Folder ${i % 500} / Request ${i}`);
    const found = fuzzyFilter(items, 'f499r19', (n) => n, 50);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(50);
    expect(found[0]).toMatch(/Folder 499 \/ Request 19/);
  });
});

describe('the best alignment, not the first (GitHub and Stripe imported: 1,095 texts)', () => {
  it('finds the texts as the palette builds them', () => {
    expect(BIG).toHaveLength(1095);
    expect(BIG).toContain('GitHub v3 REST API / repos / Get a repository');
  });

  it('ranks the request named by the query first, not the one whose folder path holds its letters', () => {
    // The first-letter matcher took the G of "GitHub" and ranked these 17th and 6th.
    expect(rank('list pulls', 'GitHub v3 REST API / pulls / List pull requests')).toBe(1);
    // Only the names "get repo" begins ("Get repository content", "… permissions for a user") come before it.
    expect(rank('get repo', 'GitHub v3 REST API / repos / Get a repository')).toBe(3);
    expect(fuzzyFilter(BIG, 'get repo', (t) => t, 2)).toEqual([
      'GitHub v3 REST API / repos / Get repository content',
      'GitHub v3 REST API / repos / Get repository permissions for a user',
    ]);
    expect(rank('get a repository', 'GitHub v3 REST API / repos / Get a repository')).toBe(1);
    expect(rank('gus', 'GitHub v3 REST API / users / Get a user')).toBe(1);
    expect(rank('charges', 'Stripe API / GetCharges')).toBe(1);
  });

  it('gives the positions of the best alignment: the letters of the name, at its word starts', () => {
    const text = 'GitHub v3 REST API / repos / Get a repository';
    const { positions } = fuzzyMatch('get repo', text)!;
    expect(positions.map((p) => text[p]).join('')).toBe('Getrepo');
    expect(positions).toEqual([29, 30, 31, 35, 36, 37, 38]);
    // A run beats a scattered match at word starts: "List" whole, not "Lis" and the t of "to".
    const list = 'GitHub v3 REST API / issues / List issues assigned to the authenticated user';
    expect(fuzzyMatch('list', list)!.positions).toEqual([30, 31, 32, 33]);
    // Camel case and digits are word starts too.
    expect(fuzzyMatch('gcc', 'Stripe API / GetCustomersCustomer')!.positions).toEqual([13, 16, 25]);
  });

  it('puts matches in the name before matches in the folder path', () => {
    const texts = ['Repos / Create a thing', 'Misc / Get a repository'];
    expect(fuzzyFilter(texts, 'repo', (t) => t)).toEqual(['Misc / Get a repository', 'Repos / Create a thing']);
  });

  it('puts a name the query spells exactly, then one it begins, first; shorter name, then shorter path, on a tie', () => {
    const texts = ['Get user avatar', 'Get users', 'Admin / Get user', 'Users / Get a user'];
    expect(fuzzyFilter(texts, 'get user', (t) => t)).toEqual(['Admin / Get user', 'Get users', 'Get user avatar', 'Users / Get a user']);
    expect(fuzzyFilter(['A long folder / Get user', 'F / Get user'], 'gu', (t) => t)).toEqual(['F / Get user', 'A long folder / Get user']);
    // words typed apart are words: "get repo" does not begin "GetReportingReportRuns"
    expect(fuzzyFilter(['Stripe / GetReportingReportRuns', 'Misc / Get a repo'], 'get repo', (t) => t)[0]).toBe('Misc / Get a repo');
  });

  it('a name holding " / " is a name: given where it starts, the full name is found first and its own words count as the name', () => {
    // The request `Users / Admin` in folder `api`, and a request `Admin` in folder `api / Users`: the same text.
    const items = [
      { text: 'api / Users / Admin', nameAt: 'api / Users / '.length, name: 'Admin' },
      { text: 'api / Users / Admin', nameAt: 'api / '.length, name: 'Users / Admin' },
    ];
    const names = (query: string) => fuzzyFilter(items, query, (i) => i.text, 50, (i) => i.nameAt).map((i) => i.name);
    expect(names('Users / Admin')).toEqual(['Users / Admin', 'Admin']);
    expect(names('users admin')).toEqual(['Users / Admin', 'Admin']);
    expect(names('admin')).toEqual(['Admin', 'Users / Admin']);
    // The letters of "Users" are in the name: the name's start given, they score as the name's.
    expect(fuzzyMatch('us', 'api / Users / Admin', 6)!.score).toBeGreaterThan(fuzzyMatch('us', 'api / Users / Admin', 14)!.score);
  });

});

