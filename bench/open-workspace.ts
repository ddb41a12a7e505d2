/**
 * Opening a generated workspace of 10,000 requests in 500 folders.
 * Target (issue 2): under 1 second on a 2-core machine. Prints time per 1,000 requests.
 * Run: npx tsx bench/open-workspace.ts
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWorkspace, walkRequests } from '../src/workspace/index.js';

const FOLDERS = 500;
const PER_FOLDER = 20;
const RUNS = 5;

async function generate(root: string): Promise<void> {
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: bench\nname: Bench\n');
  for (let f = 0; f < FOLDERS; f++) {
    const dir = path.join(root, 'requests', `Area ${Math.floor(f / 50)}`, `Folder ${f}`);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, '_folder.yaml'), `name: Folder ${f}\nseq: ${f}\nheaders:\n  - key: X-Folder\n    value: "${f}"\n`);
    await Promise.all(
      Array.from({ length: PER_FOLDER }, (_, r) =>
        fs.writeFile(
          path.join(dir, `Request ${r}.yaml`),
          [
            `name: Request ${r}`,
            `seq: ${r}`,
            'method: POST',
            `url: "{{baseUrl}}/things/${f}/${r}?verbose=1"`,
            'headers:',
            '  - key: Accept',
            '    value: application/json',
            'body:',
            '  type: json',
            '  text: |',
            `    {"folder": ${f}, "request": ${r}}`,
            'scripts:',
            '  postResponse: |',
            '    pm.test("ok", () => pm.response.to.have.status(200));',
            '',
          ].join('\n'),
        ),
      ),
    );
  }
}

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-open-'));
try {
  await generate(root);
  const times: number[] = [];
  let count = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const ws = await openWorkspace(root);
    times.push(performance.now() - start);
    count = [...walkRequests(ws.tree)].length;
    if (ws.warnings.length) throw new Error(`unexpected warnings: ${JSON.stringify(ws.warnings.slice(0, 3))}`);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`);
  console.log(`requests: ${count} in ${FOLDERS} folders`);
  console.log(`open (first, cold cache): ${times.length ? Math.max(...times).toFixed(0) : '?'} ms; median of ${RUNS}: ${median.toFixed(0)} ms`);
  console.log(`per 1,000 requests: ${(median / (count / 1000)).toFixed(1)} ms`);
  console.log(`target: < 1000 ms -> ${median < 1000 ? 'MET' : 'NOT MET'}`);
} finally {
  await fs.rm(root, { recursive: true, force: true });
}
