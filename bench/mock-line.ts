/**
 * bench/mock-line: what writing one HTTP exchange's traffic line costs (`writeTrafficLine` with
 * `trafficLineMaxBytes`, as `ferry serve > file` does for each request of the mock), in a tight
 * loop, without the request, the traffic log or the file. bench/mock.ts's route: `GET /users/42 →
 * Get user`, 200, 104 bytes out, durations varying by hundredths of a millisecond.
 *
 *   npx tsx bench/mock-line.ts [--rounds 20] [--base DIR]
 *
 * Two cases, each in a fresh plain `node` over the built modules (`dist/`, after `npm run build`):
 * every request to the same URL (a load test, a client polling; bench/mock.ts's autocannon) and a
 * different path each time (`/users/0` … `/users/999`). `--base DIR` loads another built checkout
 * into the same process, measured in alternating rounds (every other round reversed). Medians and
 * minimums of nanoseconds per line; the load average before and after.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { option } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(option('rounds') ?? 20);
const BASE = option('base') !== undefined ? path.resolve(option('base')!) : undefined;

/** Run by a plain `node` in a child: argv[1] the path case, argv[2] the rounds, then the checkouts; prints one JSON line. */
const CHILD = `
const [paths, rounds, ...roots] = process.argv.slice(1);
const subjects = [];
for (const root of roots) {
  const { httpExchangeRecord } = await import(root + '/dist/servers/http-traffic.js');
  const { writeTrafficLine, trafficLineMaxBytes } = await import(root + '/dist/servers/format.js');
  const records = [];
  for (let i = 0; i < 1000; i++) {
    const path = paths === 'vary' ? '/users/' + i : '/users/42';
    records.push(httpExchangeRecord('http', 'users', performance.now(), 0.05 + (i % 50) / 100, { method: 'GET', path, route: 'Get user', status: 200 }, 0, 104));
  }
  subjects.push({ records, writeTrafficLine, trafficLineMaxBytes, samples: [] });
}
const out = Buffer.allocUnsafeSlow(65536);
const LINES = 1_000_000;
const run = (s) => {
  let at = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < LINES; i++) {
    const record = s.records[i % 1000];
    if (at + s.trafficLineMaxBytes(record) + 1 > out.length) at = 0;
    at = s.writeTrafficLine(record, out, at);
    out[at++] = 10;
  }
  return Number(process.hrtime.bigint() - start) / LINES;
};
for (let i = 0; i < 3; i++) for (const s of subjects) run(s); // warm-up
for (let round = 0; round < Number(rounds); round++) {
  for (const s of round % 2 === 0 ? subjects : [...subjects].reverse()) s.samples.push(run(s));
}
console.log(JSON.stringify(subjects.map((s) => s.samples)));
`;

function measure(paths: 'same' | 'vary', roots: string[]): number[][] {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, paths, String(ROUNDS), ...roots], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`bench/mock-line: the child failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as number[][];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const roots = [ROOT, ...(BASE !== undefined ? [BASE] : [])];
console.log(`bench/mock-line: load average at the start ${os.loadavg()[0]!.toFixed(2)}; ${ROUNDS} alternating rounds of 1,000,000 lines per checkout and case`);
for (const paths of ['same', 'vary'] as const) {
  const samples = measure(paths, roots);
  const label = paths === 'same' ? 'same URL every time' : 'a different path each time';
  roots.forEach((root, i) => console.log(`${label.padEnd(28)} ${path.basename(root).padEnd(12)} median ${median(samples[i]!).toFixed(1)} ns/line, min ${Math.min(...samples[i]!).toFixed(1)}`));
}
console.log(`load average at the end ${os.loadavg()[0]!.toFixed(2)}`);
