/**
 * Fuzzy matching for the command palette: the query's characters in order, not necessarily
 * together ("gus" finds "Get user"). Matches at word starts and runs of adjacent characters
 * score higher, so the likely item comes first; shorter texts win ties.
 */

/** The score of `text` for `query` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, text: string): number | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (q === '') return 0;
  const t = text.toLowerCase();
  let score = 0;
  let at = 0;
  let previous = -2;
  for (const ch of q) {
    const found = t.indexOf(ch, at);
    if (found < 0) return undefined;
    const before = found === 0 ? ' ' : t[found - 1]!;
    if (found === previous + 1) score += 5; // a run
    if (!/[a-z0-9]/.test(before) || (text[found] !== t[found] && text[found - 1] === t[found - 1])) score += 8; // a word start or a capital
    score -= Math.min(found - at, 10) * 0.1; // a gap
    previous = found;
    at = found + 1;
  }
  return score - text.length * 0.01;
}

/** The items that match, best first, at most `limit`. */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string, limit = 50): T[] {
  if (query.trim() === '') return items.slice(0, limit);
  const scored: Array<{ item: T; score: number }> = [];
  for (const item of items) {
    const score = fuzzyScore(query, text(item));
    if (score !== undefined) scored.push({ item, score });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, limit).map((s) => s.item);
}
