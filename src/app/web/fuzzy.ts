/**
 * Fuzzy matching for the command palette: the query's characters in order, not necessarily
 * together ("gus" finds "Get user"). The matcher finds the best-scoring alignment of the query in
 * the text, not the first one: letters in the name (from `nameAt`, the folder path before it; the
 * palette says where, since a name may hold " / " itself) score more than letters in the path, word starts and runs of adjacent letters
 * more than scattered ones, and a name the query spells exactly, or begins, comes first. Equal
 * scores: the shorter name, then the shorter text.
 */

/** A match: its score (higher is better) and the positions in the text of the query's letters. */
export interface FuzzyMatch {
  score: number;
  positions: number[];
}

// Integer weights, so equal alignments tie exactly and the tie-breaks decide.
const LETTER = 100;
const WORD_START = 800; // the text's start, after a space or punctuation, a capital after a small letter, a digit after a letter
const RUN = 500; // right after the previous query letter
const IN_NAME = 300; // in the name, not the folder path
const GAP_OPEN = 20; // letters skipped before a letter not at a word start: 20, and 5 for each after the first
const GAP_EACH = 5;
const LEADING_EACH = 2; // letters before the first query letter (in the name, when it is there), counted up to 20
const NAME_EXACT = 100_000;
const NAME_PREFIX = 50_000;
/** Above this many query letters × text letters the first alignment is scored, not the best (a hostile input stays linear). */
const MAX_CELLS = 100_000;

/**
 * Where the name starts in a text given without it (`Folder / Sub / Name`): after the last " / ".
 * Only a guess: a request named `Users / Admin` holds " / " itself, so the palette gives the name's
 * start with each text.
 */
function nameStart(text: string): number {
  const slash = text.lastIndexOf(' / ');
  return slash < 0 ? 0 : slash + 3;
}

const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** A word start: the text's start, after a space or punctuation, a capital after a small letter (camelCase), a digit after a letter. */
function isWordStart(text: string, lower: string, j: number): boolean {
  if (j === 0) return true;
  const before = lower.charCodeAt(j - 1);
  if (!isLower(before) && !isDigit(before) && before < 128) return true;
  const ch = text.charCodeAt(j);
  if (ch !== lower.charCodeAt(j) && text.charCodeAt(j - 1) === before && isLower(before)) return true;
  return isDigit(ch) && isLower(before);
}

/** The alignment table, reused from one text to the next (a keystroke aligns the query with every entry). */
let tableSize = 0;
let tables = { best: new Float64Array(0), from: new Int32Array(0), run: new Int32Array(0) };
function table(cells: number): typeof tables {
  if (cells > tableSize) {
    tableSize = Math.max(cells, tableSize * 2, 1024);
    tables = { best: new Float64Array(tableSize), from: new Int32Array(tableSize), run: new Int32Array(tableSize) };
  }
  tables.best.fill(-Infinity, 0, cells);
  return tables;
}

/**
 * The best alignment of `q` (lower case, no spaces) in `text`, or undefined when there is none;
 * `wordAt[i]`: the query had a space before letter i.
 */
function align(q: string, wordAt: readonly boolean[], text: string, lower: string, nameAt: number): FuzzyMatch | undefined {
  const m = q.length;
  const n = lower.length;
  // The first alignment: no match ends there; where each query letter can end at the latest bounds the table.
  const last: number[] = new Array(m);
  let at = n;
  for (let i = m - 1; i >= 0; i--) {
    at = lower.lastIndexOf(q[i]!, at - 1);
    if (at < 0) return undefined;
    last[i] = at;
  }
  const first: number[] = new Array(m);
  at = 0;
  for (let i = 0; i < m; i++) {
    at = lower.indexOf(q[i]!, at);
    if (at < 0) return undefined;
    first[i] = at++;
  }
  // Letters before the first query letter: of the name when it is there (the path's length does not count).
  const leading = (j: number) => LEADING_EACH * Math.min(j >= nameAt ? j - nameAt : j, 20);
  const wordBonus = (j: number) => (isWordStart(text, lower, j) ? WORD_START : 0);
  const place = (j: number) => LETTER + (j >= nameAt ? IN_NAME : 0);
  // Skipping letters costs, unless the skip ends at a word start ("get repo" in "Get a repository").
  const gap = (k: number, j: number, bonus: number) => (bonus > 0 || j === k + 1 ? 0 : GAP_OPEN + GAP_EACH * (j - k - 2));
  if (m * n > MAX_CELLS) {
    let score = 0;
    let run = 0;
    for (let i = 0; i < m; i++) {
      const j = first[i]!;
      const bonus = wordBonus(j);
      if (i > 0 && j === first[i - 1]! + 1 && !wordAt[i]) {
        run = Math.max(run, bonus);
        score += place(j) + run + RUN;
      } else {
        run = bonus;
        score += place(j) + bonus - (i === 0 ? leading(j) : gap(first[i - 1]!, j, bonus));
      }
    }
    return { score, positions: first };
  }
  // best[i*n + j]: the best score with query letter i at text letter j (-Infinity: impossible);
  // from[i*n + j]: where letter i-1 is in that alignment; run[i*n + j]: the word bonus of the
  // first letter of the run letter i ends, which every letter of the run earns ("List" in
  // "List teams" scores more than "Lis" and the "t" of "to").
  const NONE = -Infinity;
  const { best, from, run } = table(m * n);
  for (let i = 0; i < m; i++) {
    const ch = q[i]!;
    const row = i * n;
    const above = row - n;
    // Over row i-1 at k ≤ j-2: the best less the gap to j (gapBest, at gapFrom) and the best (freeBest, at freeFrom).
    let gapBest = NONE;
    let gapFrom = -1;
    let freeBest = NONE;
    let freeFrom = -1;
    // from just after the previous letter's first place: the gaps start there
    for (let j = i === 0 ? first[0]! : first[i - 1]! + 1; j <= last[i]!; j++) {
      if (i > 0 && j >= 2) {
        gapBest -= GAP_EACH;
        const k = j - 2;
        const there = best[above + k]!;
        if (there - GAP_OPEN > gapBest) { gapBest = there - GAP_OPEN; gapFrom = k; }
        if (there > freeBest) { freeBest = there; freeFrom = k; }
      }
      if (lower[j] !== ch) continue;
      const bonus = wordBonus(j);
      if (i === 0) {
        best[j] = place(j) + bonus - leading(j);
        run[j] = bonus;
        continue;
      }
      let score = bonus > 0 ? freeBest : gapBest;
      let previous = bonus > 0 ? freeFrom : gapFrom;
      let runBonus = bonus;
      if (j >= 1 && best[above + j - 1]! > NONE) {
        // A letter typed after a space starts a word of its own: next to the last one, it is no run.
        const carried = wordAt[i] ? bonus : Math.max(bonus, run[above + j - 1]!);
        const adjacent = best[above + j - 1]! + (wordAt[i] ? 0 : RUN + carried - bonus);
        if (adjacent >= score) { score = adjacent; previous = j - 1; runBonus = carried; }
      }
      if (score === NONE) continue;
      best[row + j] = score + place(j) + bonus;
      from[row + j] = previous;
      run[row + j] = runBonus;
    }
  }
  let end = -1;
  let top = NONE;
  for (let j = first[m - 1]!; j <= last[m - 1]!; j++) {
    const s = best[(m - 1) * n + j]!;
    // the earliest of equal ends: the alignment a reader expects
    if (s > top) { top = s; end = j; }
  }
  if (end < 0) return undefined;
  const positions: number[] = new Array(m);
  for (let i = m - 1, j = end; i >= 0; i--) {
    positions[i] = j;
    j = from[i * n + j]!;
  }
  return { score: top, positions };
}

/**
 * The best match of `query` in `text`, or undefined when the query's letters are not all in it, in
 * order. `nameAt`: where the name starts in `text` (what comes before is its folder path).
 */
export function fuzzyMatch(query: string, text: string, nameAt = nameStart(text)): FuzzyMatch | undefined {
  const words = query.toLowerCase().trim().split(/\s+/);
  const q = words.join('');
  if (q === '') return { score: 0, positions: [] };
  const wordAt: boolean[] = [];
  for (const word of words) for (let i = 0; i < word.length; i++) wordAt.push(i === 0 && wordAt.length > 0);
  let lower = text.toLowerCase();
  // A letter whose lower case is longer (İ) would shift the positions: it is kept as it is.
  if (lower.length !== text.length) lower = Array.from(text, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
  const found = align(q, wordAt, text, lower, nameAt);
  if (!found) return undefined;
  // The name spelt exactly (spaces aside), or begun with the query's words ("get repo" begins
  // "Get repository content", not "GetReportingReportRuns").
  const name = lower.slice(nameAt);
  if (name.replace(/\s+/g, '') === q) found.score += NAME_EXACT;
  else if (name.trim().replace(/\s+/g, ' ').startsWith(words.join(' '))) found.score += NAME_PREFIX;
  return found;
}

/** The score of `text` for `query` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, text: string): number | undefined {
  return fuzzyMatch(query, text)?.score;
}

/**
 * The items that match, best first (equal scores: shorter name, then shorter text), at most `limit`.
 * `nameAt`: where the item's name starts in its text (default: after the last " / ").
 */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string, limit = 50, nameAt?: (item: T) => number): T[] {
  if (query.trim() === '') return items.slice(0, limit);
  const scored: Array<{ item: T; score: number; name: number; length: number }> = [];
  for (const item of items) {
    const t = text(item);
    const at = nameAt ? nameAt(item) : nameStart(t);
    const found = fuzzyMatch(query, t, at);
    if (found) scored.push({ item, score: found.score, name: t.length - at, length: t.length });
  }
  scored.sort((a, b) => b.score - a.score || a.name - b.name || a.length - b.length);
  return scored.slice(0, limit).map((s) => s.item);
}
