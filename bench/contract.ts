/**
 * Contract check speed: one 1 MB JSON response checked against an OpenAPI 3.1 schema with
 * nested `$ref`s, `allOf` and `oneOf`, by Ferry's check and by ajv (compiled once) in the same
 * run. Both figures include parsing the body text. Target: ≤ 10 ms per check.
 *
 *   npx tsx bench/contract.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ContractDocuments, contractTestFor } from '../src/contract/index.js';
import { Problems } from '../src/contract/schema-check.js';

const TARGET_MS = 10;
const WARMUP = 20;
const RUNS = 100;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const schemas = {
  Entity: { type: 'object', required: ['id', 'createdAt'], properties: { id: { type: 'string', minLength: 8 }, createdAt: { type: 'string' } } },
  Address: { type: 'object', required: ['street', 'city', 'country'], properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: ['string', 'null'] }, country: { type: 'string', enum: ['DE', 'FR', 'NL', 'US', 'JP'] } } },
  Customer: { allOf: [ref('Entity'), { type: 'object', required: ['name', 'address'], properties: { name: { type: 'string', maxLength: 100 }, email: { type: 'string' }, address: ref('Address') } }] },
  LineItem: { type: 'object', required: ['sku', 'quantity', 'price'], additionalProperties: false, properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 }, price: ref('Money'), note: { type: ['string', 'null'] } } },
  Money: { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'number', exclusiveMinimum: 0 }, currency: { type: 'string', enum: ['EUR', 'USD', 'JPY'] } } },
  Card: { type: 'object', required: ['kind', 'last4'], properties: { kind: { const: 'card' }, last4: { type: 'string', minLength: 4, maxLength: 4 }, brand: { type: 'string' } } },
  Bank: { type: 'object', required: ['kind', 'iban'], properties: { kind: { const: 'bank' }, iban: { type: 'string' } } },
  Order: {
    allOf: [
      ref('Entity'),
      {
        type: 'object',
        required: ['customer', 'items', 'payment', 'status'],
        properties: {
          status: { type: 'string', enum: ['open', 'paid', 'shipped'] },
          customer: ref('Customer'),
          items: { type: 'array', minItems: 1, maxItems: 50, items: ref('LineItem') },
          payment: { oneOf: [ref('Card'), ref('Bank')] },
          total: ref('Money'),
          tags: { type: 'array', items: { type: 'string' } },
          notes: { type: 'string', maxLength: 500 },
        },
      },
    ],
  },
  OrderPage: { type: 'object', required: ['orders'], properties: { orders: { type: 'array', items: ref('Order') }, next: { type: ['string', 'null'] } } },
};
const responseSchema = ref('OrderPage');
const document = {
  openapi: '3.1.0',
  info: { title: 'Bench', version: '1' },
  paths: { '/orders': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: responseSchema } } } } } } },
  components: { schemas },
};

/** About 1 MB of orders: 1,000 per page (every item within the check's first-1,000 limit, so both check all of it). */
function buildBody(): string {
  const countries = ['DE', 'FR', 'NL', 'US', 'JP'];
  const orders = [];
  for (let index = 0; index < 1000; index++) {
    const items = [];
    for (let line = 0; line < 6; line++) {
      items.push({ sku: `SKU-${index}-${line}`, quantity: 1 + (line % 3), price: { amount: 9.99 + line, currency: 'EUR' }, note: line % 2 ? null : 'gift wrap' });
    }
    orders.push({
      id: `order-${String(index).padStart(6, '0')}`,
      createdAt: '2024-05-01T10:00:00Z',
      status: ['open', 'paid', 'shipped'][index % 3],
      customer: {
        id: `cust-${String(index).padStart(6, '0')}`,
        createdAt: '2023-01-01T00:00:00Z',
        name: `Customer number ${index}`,
        email: `customer${index}@example.test`,
        address: { street: `${index} Long Example Street`, city: 'Amsterdam', zip: index % 5 ? '1011AB' : null, country: countries[index % 5] },
      },
      items,
      payment: index % 2 ? { kind: 'card', last4: '4242', brand: 'visa' } : { kind: 'bank', iban: 'NL91ABNA0417164300' },
      total: { amount: 55.5, currency: 'EUR' },
      tags: ['priority', 'web'],
      notes: `Leave the parcel with the neighbours at number ${index + 2} if nobody answers the door.`,
    });
  }
  return JSON.stringify({ orders, next: null });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

type Contender = { label: string; run: () => Promise<boolean> | boolean; samples: number[] };

/**
 * Runs the contenders in turn, round after round, so that load from other work on the machine
 * falls on all of them alike. Reports the median and the best round.
 */
async function measure(contenders: Contender[]): Promise<void> {
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (const contender of contenders) {
      const start = performance.now();
      const passed = await contender.run();
      const elapsed = performance.now() - start;
      if (!passed) throw new Error(`${contender.label}: the valid body did not pass`);
      if (round >= WARMUP) contender.samples.push(elapsed);
    }
  }
}

const stats = (contender: Contender) => ({ median: median(contender.samples), best: Math.min(...contender.samples) });

const workspace = await mkdtemp(path.join(os.tmpdir(), 'ferry-bench-contract-'));
try {
  await mkdir(path.join(workspace, 'specs'));
  await writeFile(path.join(workspace, 'specs', 'bench.json'), JSON.stringify(document));
  const text = buildBody();
  const body = new TextEncoder().encode(text);
  const broken = new TextEncoder().encode(text.replace('"quantity":1', '"quantity":0').replace('"kind":"card"', '"kind":"cash"'));

  const documents = new ContractDocuments(workspace);
  const check = (bytes: Uint8Array) =>
    contractTestFor({
      documents,
      request: { kind: 'http', openapi: { operation: 'GET /orders' } },
      folderChain: [{ openapi: { spec: 'specs/bench.json' } }],
      response: { status: 200, headers: [['content-type', 'application/json; charset=utf-8']], body: bytes },
    });

  const ajv = new Ajv2020({ strict: false, allErrors: false });
  const validate = ajv.compile({ ...responseSchema, components: { schemas } });
  const decoder = new TextDecoder();
  const ajvCheck = (bytes: Uint8Array) => validate(JSON.parse(decoder.decode(bytes))) as boolean;

  // Both must agree on what they are measuring.
  const ferryBroken = await check(broken);
  if (ferryBroken?.passed !== false || ajvCheck(broken)) throw new Error('the broken body was not refused by both');

  // The schema walk alone, on an already parsed body.
  const parsed: unknown = JSON.parse(text);
  const load = await documents.load('specs/bench.json');
  if (!load.ok) throw new Error(load.reason);
  const bodySchema = document.paths['/orders'].get.responses['200'].content['application/json'].schema;

  const ferry: Contender = { label: 'Ferry', run: async () => (await check(body))?.passed === true, samples: [] };
  const peer: Contender = { label: 'ajv', run: () => ajvCheck(body), samples: [] };
  const parse: Contender = { label: 'JSON.parse', run: () => JSON.parse(decoder.decode(body)) !== null, samples: [] };
  const ferryWalk: Contender = {
    label: 'Ferry walk',
    run: () => {
      const problems = new Problems();
      load.loaded.checker.check(parsed, bodySchema, problems);
      return problems.count === 0;
    },
    samples: [],
  };
  const peerWalk: Contender = { label: 'ajv walk', run: () => validate(parsed) as boolean, samples: [] };
  await measure([ferry, peer, parse, ferryWalk, peerWalk]);
  const [f, a, p, fw, aw] = [ferry, peer, parse, ferryWalk, peerWalk].map(stats) as [ReturnType<typeof stats>, ReturnType<typeof stats>, ReturnType<typeof stats>, ReturnType<typeof stats>, ReturnType<typeof stats>];
  const ms = (value: number) => `${value.toFixed(2)} ms`;

  if (body.length < 1024 * 1024) throw new Error(`the response is only ${body.length} bytes`);
  console.log(`contract check of a ${(body.length / 1024 / 1024).toFixed(2)} MB response (1,000 orders; $ref, allOf, oneOf), ${RUNS} rounds, median (best):`);
  console.log(`  Ferry contractTestFor:       ${ms(f.median)} (${ms(f.best)})  target ≤ ${TARGET_MS} ms: ${f.median <= TARGET_MS ? 'met' : 'MISSED'}`);
  console.log(`  ajv 8 (Ajv2020, compiled):   ${ms(a.median)} (${ms(a.best)})`);
  console.log(`  ratio Ferry / ajv:           ${(f.median / a.median).toFixed(2)}x (${(f.best / a.best).toFixed(2)}x)`);
  console.log(`  in both: decode + JSON.parse ${ms(p.median)} (${ms(p.best)})`);
  console.log(`  schema walk only:            Ferry ${ms(fw.median)} (${ms(fw.best)}), ajv ${ms(aw.median)} (${ms(aw.best)})`);
  console.log(`  load average while running:  ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  console.log(`  broken body, Ferry says:\n    ${ferryBroken.message?.split('\n').join('\n    ')}`);
} finally {
  await rm(workspace, { recursive: true, force: true });
}
