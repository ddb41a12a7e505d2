/**
 * bench/mock-cli-shapes: what Ferry's CLI, having run in a process, costs Node's own request code
 * there. The bare server's handler (bench/mock.ts's BARE_SERVER) answers in-process requests (Node's
 * `IncomingMessage` and `ServerResponse`, 50 a turn, as `bench/mock.ts --in-process` makes them) in
 * a fresh process, and in one where Ferry's CLI first ran `--help` and `serve --help` (what
 * `ferry serve` does before serving: its command objects and streams go through the same event and
 * stream functions of Node that a request does). The two kinds of process alternate.
 *
 *   npm run build && node bench/mock-cli-shapes.mjs [pairs=3] [rounds=12]
 *
 * Plain `node`, not tsx: tsx's loader changes the figure itself.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(here), '..');

if (process.argv[2] === '--child') {
  const cliFirst = process.argv[3] === 'cli';
  const rounds = Number(process.argv[4]);
  if (cliFirst) {
    const { main } = await import(path.join(ROOT, 'dist', 'bundle', 'ferry.js'));
    const write = process.stdout.write;
    process.stdout.write = () => true;
    await main(['--help']);
    await main(['serve', '--help']);
    process.stdout.write = write;
  }
  const bare = (req, res) => {
    const m = /^\/users\/([^/?]+)\/?(?:\?|$)/.exec(req.url);
    if (!m || (req.method !== 'GET' && req.method !== 'HEAD')) return void (res.writeHead(404), res.end());
    const body = '{"id":"' + decodeURIComponent(m[1]) + '","requestId":"' + randomUUID() + '","name":"Ada Lovelace","roles":["admin","editor"]}';
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const probe = new http.IncomingMessage(null);
  const headersCount = Object.getOwnPropertySymbols(probe).find((s) => String(s) === 'Symbol(kHeadersCount)');
  const connections = Array.from({ length: 50 }, () => ({}));
  const perRound = 20_000;
  const round = async () => {
    const before = process.cpuUsage();
    for (let i = 0; i < perRound; ) {
      for (let c = 0; c < 50; c++, i++) {
        const req = new http.IncomingMessage(connections[c]);
        req.method = 'GET';
        req.url = `/users/${i & 1023}`;
        req.httpVersionMajor = 1;
        req.httpVersionMinor = 1;
        req.httpVersion = '1.1';
        req.rawHeaders = ['Host', '127.0.0.1:3000'];
        req[headersCount] = 2;
        bare(req, new http.ServerResponse(req));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const used = process.cpuUsage(before);
    return ((used.user + used.system) * 1000) / perRound;
  };
  for (let i = 0; i < 3; i++) await round(); // warm-up
  const samples = [];
  for (let i = 0; i < rounds; i++) samples.push(await round());
  samples.sort((a, b) => a - b);
  process.stdout.write(String(samples[samples.length >> 1]));
  process.exit(0);
}

// Loaded only here: the measured children load nothing but what they measure.
const { execFileSync } = await import('node:child_process');
const pairs = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 12);
const run = (kind) => Number(execFileSync(process.execPath, [here, '--child', kind, String(rounds)], { encoding: 'utf8' }));
console.log(`bench/mock-cli-shapes: load average at the start ${os.loadavg()[0].toFixed(2)}; ${pairs} pairs of processes, median of ${rounds} rounds of 20,000 requests each`);
const fresh = [];
const after = [];
for (let i = 0; i < pairs; i++) {
  fresh.push(run('fresh'));
  after.push(run('cli'));
  console.log(`pair ${i + 1}: fresh process ${fresh[i].toFixed(0)} ns/request, after Ferry's CLI ${after[i].toFixed(0)} ns/request (${(after[i] / fresh[i]).toFixed(2)}×)`);
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`median: fresh ${median(fresh).toFixed(0)}, after the CLI ${median(after).toFixed(0)} ns/request (${(median(after) / median(fresh)).toFixed(2)}×); load average at the end ${os.loadavg()[0].toFixed(2)}`);
