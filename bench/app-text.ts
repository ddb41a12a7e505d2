/**
 * The app's text work in the page, timed (moved here from test/app: timings are targets, not test
 * assertions): the command palette's fuzzy filter — each keystroke of a query over the 1,095 texts of
 * GitHub's and Stripe's workspaces (target: median under 30 ms, the palette's budget from keystroke
 * to painted list) and 10,000 items (target: under 500 ms) — and the XML viewer's re-indent of a
 * 20,000-element document (target: under 5 s). Medians over RUNS runs.
 * Run: npx tsx bench/app-text.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fuzzyFilter } from '../src/app/web/fuzzy.js';
import { prettyXml } from '../src/app/web/pretty-xml.js';

const RUNS = Number(process.env.RUNS ?? 7);
const BIG = readFileSync(path.join(import.meta.dirname, '..', 'test', 'fixtures', 'palette', 'github-stripe-texts.txt'), 'utf8').trim().split('\n');

function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

const query = 'get a repository';
fuzzyFilter(BIG, query, (t) => t); // compiled once, as the page is after its first keystroke
const keystrokes = Array.from({ length: query.length }, (_, n) => timed(() => fuzzyFilter(BIG, query.slice(0, n + 1), (t) => t)));

const items = Array.from({ length: 10_000 }, (_, i) => `Area ${i % 10} / Folder ${i % 500} / Request ${i}`);
const tenThousand = Array.from({ length: RUNS }, () => timed(() => fuzzyFilter(items, 'f499r19', (n) => n, 50)));

const big = `<list>${'<item id="1"><name>x</name></item>'.repeat(20_000)}</list>`;
const xml = Array.from({ length: RUNS }, () => timed(() => prettyXml(big)));

const rows: Array<[string, number, number]> = [
  ['palette keystroke, 1,095 texts (median of the query\'s keystrokes)', median(keystrokes), 30],
  ['palette filter, 10,000 items', median(tenThousand), 500],
  ['XML re-indent, 20,000 elements', median(xml), 5_000],
];
for (const [what, ms, target] of rows) console.log(`${what}: ${ms.toFixed(1)} ms (target ≤ ${target} ms: ${ms <= target ? 'met' : 'NOT met'})`);
