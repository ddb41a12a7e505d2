/**
 * OpenAPI import benchmark: the largest document of the corpus (the Kubernetes Swagger 2.0
 * document, 4.1 MB, 1,123 operations) turned into requests by Ferry and into a collection by
 * `openapi-to-postmanv2` (the converter Postman uses), both in memory from the same text, in one
 * run. Target: Ferry at least 3× faster. Also shown: Ferry's whole import written to a fresh
 * workspace (1,100+ files), which is what `ferry import` waits for.
 *
 *   npx tsx bench/openapi-import.ts [runs]
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { commitImport } from '../src/importers/commit.js';
import { importOpenApiText } from '../src/importers/openapi/index.js';
import { countNodes } from '../src/importers/types.js';
import { initWorkspace, openWorkspace } from '../src/workspace/index.js';

const RUNS = Number(process.argv[2] ?? 5);
const CORPUS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'corpus', 'openapi');

type Converter = { convert(input: { type: 'string'; data: string }, options: Record<string, unknown>, cb: (err: Error | null, result: { result: boolean; reason?: string; output?: Array<{ data: { item: unknown[] } }> }) => void): void };
const peer = createRequire(import.meta.url)('openapi-to-postmanv2') as Converter;

async function largestDocument(): Promise<string> {
  const files = (await fs.readdir(CORPUS)).filter((f) => /\.(json|ya?ml)$/.test(f));
  const sizes = await Promise.all(files.map(async (f) => ({ f, size: (await fs.stat(path.join(CORPUS, f))).size })));
  return path.join(CORPUS, sizes.sort((a, b) => b.size - a.size)[0]!.f);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function countItems(items: unknown[]): number {
  let n = 0;
  for (const item of items as Array<{ item?: unknown[] }>) n += item.item ? countItems(item.item) : 1;
  return n;
}

function runPeer(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    peer.convert({ type: 'string', data: text }, { folderStrategy: 'Tags' }, (err, result) => {
      if (err) return reject(err);
      if (!result.result) return reject(new Error(result.reason));
      resolve(countItems(result.output![0]!.data.item));
    });
  });
}

const file = await largestDocument();
const text = await fs.readFile(file, 'utf8');
const ferryTimes: number[] = [];
const peerTimes: number[] = [];
let ferryRequests = 0;
let peerRequests = 0;
for (let run = 0; run < RUNS; run++) {
  let start = performance.now();
  const result = importOpenApiText(text, { label: file }, { baseUrl: 'https://kubernetes.example.test' });
  ferryTimes.push(performance.now() - start);
  ferryRequests = countNodes(result.items).requests;
  start = performance.now();
  peerRequests = await runPeer(text);
  peerTimes.push(performance.now() - start);
}
// The whole import as `ferry import` does it: converted and written into a fresh workspace.
const diskTimes: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-openapi-'));
  try {
    await initWorkspace(dir, 'Bench');
    const ws = await openWorkspace(dir);
    const start = performance.now();
    await commitImport({ root: dir, id: ws.id }, importOpenApiText(text, { label: file }, { baseUrl: 'https://kubernetes.example.test' }));
    diskTimes.push(performance.now() - start);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
const disk = median(diskTimes);
const ferry = median(ferryTimes);
const other = median(peerTimes);
console.log(`document: ${path.basename(file)} (${(text.length / 1048576).toFixed(1)} MB), median of ${RUNS} runs`);
console.log(`ferry importOpenApi:          ${ferry.toFixed(0)} ms  (${ferryRequests} requests)`);
console.log(`openapi-to-postmanv2 convert: ${other.toFixed(0)} ms  (${peerRequests} requests)`);
console.log(`ratio: Ferry is ${(other / ferry).toFixed(1)}x faster (target: at least 3x)`);
console.log(`ferry import written to disk: ${disk.toFixed(0)} ms  (still ${(other / disk).toFixed(1)}x faster than the in-memory conversion)`);
