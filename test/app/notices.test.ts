/** The page's notices (src/app/web/notices.ts): several at once, none hiding another. */
import { describe, expect, it } from 'vitest';
import { noticesAfter } from '../../src/app/web/notices.js';

describe('the page\'s notices', () => {
  it('a second notice is said below the first, never in its place; the same text is not said twice', () => {
    const one = noticesAfter([], 'secrets.json in the data folder could not be read (…); it was moved to …');
    const two = noticesAfter(one, 'cookies.json in the data folder could not be read (…); it was moved to …');
    expect(two).toEqual([one[0], 'cookies.json in the data folder could not be read (…); it was moved to …']);
    expect(noticesAfter(two, two[0]!)).toEqual([two[1], two[0]]);
  });

  it('a request\'s newer "Not saved" takes the place of its older one; a save that goes through takes it away, and the others stay', () => {
    let shown = noticesAfter([], 'Not deleted: Could not delete requests/Locked/Kept.yaml (nothing was removed): …');
    shown = noticesAfter(shown, 'Not saved: A name cannot be empty; give a name of 1 to 200 characters.');
    shown = noticesAfter(shown, 'Not saved: The workspace is busy … tries again in 3 s (Ctrl+S: now).');
    expect(shown).toEqual(['Not deleted: Could not delete requests/Locked/Kept.yaml (nothing was removed): …', 'Not saved: The workspace is busy … tries again in 3 s (Ctrl+S: now).']);
    expect(noticesAfter(shown, (n) => (n?.startsWith('Not saved:') ? null : n))).toEqual(['Not deleted: Could not delete requests/Locked/Kept.yaml (nothing was removed): …']);
    expect(noticesAfter(shown, null)).toEqual([]);
  });

  it('at most five show: the oldest go first', () => {
    const shown = ['a', 'b', 'c', 'd', 'e', 'f'].reduce<string[]>((list, n) => noticesAfter(list, n), []);
    expect(shown).toEqual(['b', 'c', 'd', 'e', 'f']);
  });
});
