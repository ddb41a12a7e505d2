/**
 * Import benchmark: a generated 5,000-request collection export (40 folders, headers, JSON
 * bodies, auth, scripts, saved responses) imported into a fresh workspace, end to end
 * (detect, convert, validate, write aside, rename into place). Target: under 2 seconds.
 *
 * The peer is a floor, measured in the same run: JSON.parse plus one plain YAML file written per
 * request with the same library, and no validation or staging. No third-party importer runs
 * on Node without pulling in its whole app.
 *
 *   npx tsx bench/import.ts [requests]
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { commitImport, convert } from '../src/importers/index.js';
import { initWorkspace, openWorkspace } from '../src/workspace/index.js';

const REQUESTS = Number(process.argv[2] ?? 5000);
const FOLDERS = 40;

function generate(): string {
  const folders = Array.from({ length: FOLDERS }, (_, f) => ({
    name: `Folder ${f}`,
    item: Array.from({ length: REQUESTS / FOLDERS }, (_, r) => ({
      name: `Request ${f}-${r}`,
      event: [{ listen: 'test', script: { exec: ['pm.test("ok", () => pm.response.to.have.status(200));'] } }],
      request: {
        method: r % 2 ? 'POST' : 'GET',
        header: [{ key: 'Accept', value: 'application/json' }, { key: 'X-Trace', value: `{{trace}}-${r}` }],
        auth: r % 5 === 0 ? { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] } : undefined,
        url: { raw: `{{baseUrl}}/folders/${f}/items/${r}?page=1`, query: [{ key: 'page', value: '1' }, { key: 'debug', value: '1', disabled: true }] },
        body: r % 2 ? { mode: 'raw', raw: JSON.stringify({ id: r, name: `item ${r}`, tags: ['a', 'b'] }), options: { raw: { language: 'json' } } } : undefined,
      },
      response: [{ name: 'OK', code: 200, header: [{ key: 'Content-Type', value: 'application/json' }], body: '{"ok":true}' }],
    })),
  }));
  return JSON.stringify({
    info: { name: 'Bench', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'baseUrl', value: 'http://127.0.0.1:1' }],
    item: folders,
  });
}

/** Wall time and this process's CPU time (user + system, threadpool included): on a busy machine the CPU figure moves less. */
interface Timing {
  ms: number;
  cpuMs: number;
}

async function timed(run: () => Promise<void>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
}

async function ferryRun(text: string, dir: string): Promise<Timing> {
  const root = await initWorkspace(dir);
  const ws = await openWorkspace(root);
  return timed(async () => {
    const result = await convert(text, { label: 'bench' });
    const summary = await commitImport({ root, id: ws.id }, result);
    if (summary.requests !== REQUESTS) throw new Error(`imported ${summary.requests} requests, expected ${REQUESTS}`);
  });
}

async function floorRun(text: string, dir: string): Promise<Timing> {
  return timed(() => floorWrite(text, dir));
}

async function floorWrite(text: string, dir: string): Promise<void> {
  const doc = JSON.parse(text) as { item: { name: string; item: { name: string; request: unknown }[] }[] };
  for (const folder of doc.item) {
    const folderDir = path.join(dir, folder.name);
    await fs.mkdir(folderDir, { recursive: true });
    await Promise.all(folder.item.map((item) => fs.writeFile(path.join(folderDir, `${item.name}.yaml`), stringify(item.request))));
  }
}

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-import-'));
process.env.FERRY_DATA_DIR = path.join(tmp, 'data');
try {
  const text = generate();
  console.log(`collection: ${REQUESTS} requests in ${FOLDERS} folders, ${(text.length / 1024 / 1024).toFixed(1)} MB`);
  await ferryRun(text, path.join(tmp, 'warm')); // warm-up: JIT and file system caches
  const ferry: Timing[] = [];
  const floor: Timing[] = [];
  for (let i = 0; i < 3; i++) {
    ferry.push(await ferryRun(text, path.join(tmp, `ferry-${i}`)));
    floor.push(await floorRun(text, path.join(tmp, `floor-${i}`)));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const f = median(ferry.map((t) => t.ms));
  const p = median(floor.map((t) => t.ms));
  const fc = median(ferry.map((t) => t.cpuMs));
  const pc = median(floor.map((t) => t.cpuMs));
  console.log(`Ferry import:        ${f.toFixed(0)} ms  (${Math.round((REQUESTS / f) * 1000)} requests/s)  target < 2000 ms: ${f < 2000 ? 'met' : 'MISSED'}  CPU ${fc.toFixed(0)} ms`);
  console.log(`floor (parse+write): ${p.toFixed(0)} ms  (${Math.round((REQUESTS / p) * 1000)} requests/s)  CPU ${pc.toFixed(0)} ms`);
  console.log(`ratio Ferry/floor:   ${(f / p).toFixed(2)}x wall, ${(fc / pc).toFixed(2)}x CPU`);
  console.log(`load average: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
} finally {
  await fs.rm(tmp, { recursive: true, force: true });
}
