/**
 * OpenAPI import benchmark, in one process (issues 7 and 24): Stripe (JSON, 3.9 MB), Kubernetes
 * (Swagger 2.0 JSON, 4.1 MB) and GitHub (YAML, 2.7 MB) from the corpus.
 *
 * - whole import: Ferry reads the file, converts it and writes the workspace files (`convertInput`
 *   + `commitImport` into a fresh workspace: what `ferry import FILE` does after start-up) against
 *   `openapi-to-postmanv2` 6.3.3 loaded in the same process doing what its CLI does: read the
 *   file, `convertV2` with its default options, write the collection as JSON. Target (issue 24): ≥ 3×.
 * - in memory (issue 7): `importOpenApiText` against the peer's `convert` (`folderStrategy: Tags`),
 *   both from the same text, nothing written.
 *
 * Contenders alternate round after round, so load from other work falls on both alike; medians of
 * wall time, and of CPU time (user + system of the process, its threads included), which moves
 * less when the machine is shared.
 *
 *   npx tsx bench/openapi-import.ts [rounds=3]
 *   DOCS=GitHub npx tsx bench/openapi-import.ts 5
 */
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitImport, convertInput } from '../src/importers/index.js';
import { importOpenApiText } from '../src/importers/openapi/index.js';
import { countNodes } from '../src/importers/types.js';
import { initWorkspace, openWorkspace } from '../src/workspace/index.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const CORPUS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'corpus', 'openapi');
const ALL_DOCUMENTS = [
  { name: 'Stripe', file: 'oas30-stripe-spec3.json' },
  { name: 'Kubernetes', file: 'swagger20-kubernetes.json' },
  { name: 'GitHub', file: 'oas30-github.yaml' },
];
const wanted = process.env.DOCS?.split(',').map((d) => d.trim().toLowerCase());
const DOCUMENTS = ALL_DOCUMENTS.filter((d) => !wanted || wanted.includes(d.name.toLowerCase()));
const BASE_URL = 'https://api.example.test';

type Result = { result: boolean; reason?: string; output?: Array<{ data: { item: unknown[] } }> };
type Convert = (input: { type: 'string'; data: string }, options: Record<string, unknown>, cb: (err: Error | null, result: Result) => void) => void;
const peer = createRequire(import.meta.url)('openapi-to-postmanv2') as { convert: Convert; convertV2: Convert };

interface Measured {
  wallMs: number;
  cpuMs: number;
  requests: number;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function measure(work: () => Promise<number>): Promise<Measured> {
  const wall = performance.now();
  const cpu = cpuMs();
  const requests = await work();
  return { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu, requests };
}

function countItems(items: unknown[]): number {
  let n = 0;
  for (const item of items as Array<{ item?: unknown[] }>) n += item.item ? countItems(item.item) : 1;
  return n;
}

function peerConvert(fn: Convert, text: string, options: Record<string, unknown>): Promise<Result> {
  return new Promise((resolve, reject) => {
    fn({ type: 'string', data: text }, options, (err, result) => {
      if (err) return reject(err);
      if (!result.result) return reject(new Error(result.reason));
      resolve(result);
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-openapi-'));
const previousDataDir = process.env.FERRY_DATA_DIR;
process.env.FERRY_DATA_DIR = path.join(work, 'data');
const before = os.loadavg();
const wholeRows: string[] = [];
const memoryRows: string[] = [];
try {
  for (const doc of DOCUMENTS) {
    const file = path.join(CORPUS, doc.file);
    const ferryWhole: Measured[] = [];
    const peerWhole: Measured[] = [];
    const ferryMemory: Measured[] = [];
    const peerMemory: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const root = await initWorkspace(path.join(work, `ws-${doc.name}-${round}`), 'Bench');
      const ws = await openWorkspace(root);
      ferryWhole.push(await measure(async () => {
        const result = await convertInput(file, { baseUrl: BASE_URL, workspaceRoot: root });
        return (await commitImport({ root, id: ws.id }, result)).requests;
      }));
      await fs.rm(root, { recursive: true, force: true });
      const out = path.join(work, `${doc.name}-${round}.json`);
      peerWhole.push(await measure(async () => {
        const result = await peerConvert(peer.convertV2, await fs.readFile(file, 'utf8'), {});
        await fs.writeFile(out, JSON.stringify(result.output![0]!.data));
        return countItems(result.output![0]!.data.item);
      }));
      await fs.rm(out, { force: true });
      const text = await fs.readFile(file, 'utf8');
      ferryMemory.push(await measure(async () => countNodes(importOpenApiText(text, { label: file }, { baseUrl: BASE_URL }).items).requests));
      peerMemory.push(await measure(async () => countItems((await peerConvert(peer.convert, text, { folderStrategy: 'Tags' })).output![0]!.data.item)));
    }
    const row = (ferry: Measured[], other: Measured[]) => {
      const wall = [median(ferry.map((m) => m.wallMs)), median(other.map((m) => m.wallMs))] as const;
      const cpu = [median(ferry.map((m) => m.cpuMs)), median(other.map((m) => m.cpuMs))] as const;
      return `| ${doc.name} (${ferry[0]!.requests} / ${other[0]!.requests} requests) | ${wall[0].toFixed(0)} ms | ${wall[1].toFixed(0)} ms | **${(wall[1] / wall[0]).toFixed(1)}×** | ${cpu[0].toFixed(0)} ms | ${cpu[1].toFixed(0)} ms | ${(cpu[1] / cpu[0]).toFixed(1)}× |`;
    };
    wholeRows.push(row(ferryWhole, peerWhole));
    memoryRows.push(row(ferryMemory, peerMemory));
  }
} finally {
  if (previousDataDir === undefined) delete process.env.FERRY_DATA_DIR;
  else process.env.FERRY_DATA_DIR = previousDataDir;
  await fs.rm(work, { recursive: true, force: true });
}
const after = os.loadavg();
const header = (ferry: string, other: string) => [
  `| document | ${ferry} wall | ${other} wall | Ferry faster by | ${ferry} CPU | ${other} CPU | by CPU |`,
  '|---|---|---|---|---|---|---|',
];
console.log(`openapi-import: ${ROUNDS} alternating rounds in one process, medians; ${os.cpus().length} CPUs, Node ${process.version}`);
console.log(`load average before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${after.map((l) => l.toFixed(2)).join(' ')}\n`);
console.log('Whole import: read, convert, write (target ≥ 3×)\n');
console.log([...header('Ferry', 'peer'), ...wholeRows].join('\n'));
console.log('\nIn memory: convert only\n');
console.log([...header('`importOpenApiText`', 'peer `convert`'), ...memoryRows].join('\n'));
