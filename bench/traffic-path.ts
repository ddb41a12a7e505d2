/**
 * bench/traffic-path: what one echoed WebSocket message costs `ferry serve`'s traffic path alone, in
 * one process, without sockets: the preview of the message, its record, the traffic log, the
 * printed line, and the write to a file (the path bench/servers measures end to end, where the
 * machine's other work hides differences of a few hundred nanoseconds).
 *
 *   npx tsx bench/traffic-path.ts [--rounds 9] [--base DIR]
 *
 * Each round runs in a fresh process: CPU time (user + system) of MESSAGES records made in batches
 * of PER_TURN per turn of the event loop, as a server gets them, minus the same loop without them.
 * `--base DIR` measures another checkout's modules (e.g. main, extracted with `git archive` and a
 * node_modules link) in the same alternation. Medians; the load average before and after.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { option } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(option('rounds') ?? 9);
const BASE = option('base') !== undefined ? path.resolve(option('base')!) : undefined;
const MESSAGES = 200_000;
/** Messages handled in one turn of the event loop (the traffic log hands them over once a turn). */
const PER_TURN = 24;
/** bench/servers' message: 81 bytes of JSON, so its preview is cut and has quotes to escape. */
const MESSAGE = Buffer.from(JSON.stringify({ type: 'tick', id: 1234567, payload: 'x'.repeat(40) }));

/** In a child: nanoseconds of CPU per message of the checkout at `root`, printed as a number. */
async function child(root: string): Promise<void> {
  const { messageRecord } = await import(path.join(root, 'src/servers/kinds/messages/traffic.ts'));
  const { previewUtf8 } = await import(path.join(root, 'src/servers/kinds/messages/payload.ts'));
  const { TrafficLog } = await import(path.join(root, 'src/servers/traffic.ts'));
  const { TrafficPrinter } = await import(path.join(root, 'src/cli/traffic-printer.ts'));
  const { fdPrinter } = await import(path.join(root, 'src/cli/line-printer.ts'));
  const { paint } = await import(path.join(root, 'src/cli/output.ts'));
  const file = path.join(os.tmpdir(), `ferry-traffic-path-${process.pid}.log`);
  const fd = openSync(file, 'w');
  const log = new TrafficLog();
  const printer = fdPrinter(fd);
  log.subscribe(new TrafficPrinter(printer, paint({ color: false } as never), { json: false }).print);
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const run = async (withTraffic: boolean): Promise<number> => {
    const from = process.cpuUsage();
    for (let sent = 0; sent < MESSAGES; sent += PER_TURN) {
      for (let i = 0; i < PER_TURN; i++) {
        const bytes = Buffer.from(MESSAGE); // a fresh Buffer per message, as `ws` hands them over
        if (!withTraffic) continue;
        const shown = previewUtf8(bytes);
        log.add(messageRecord('websocket', 'echo', 'in', { peer: '127.0.0.1:54321', event: 'message', preview: shown }, { bytesIn: bytes.length, bytesOut: bytes.length, note: 'echoed' }));
      }
      await turn();
    }
    await printer.flush();
    const used = process.cpuUsage(from);
    return ((used.user + used.system) * 1000) / MESSAGES;
  };
  await run(true); // warm-up
  await run(false);
  const spent = (await run(true)) - (await run(false));
  closeSync(fd);
  rmSync(file);
  console.log(spent.toFixed(1));
}

function measure(root: string): number {
  const out = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/traffic-path.ts'), '--child', root], { cwd: ROOT, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`the measuring process failed: ${out.stderr}`);
  return Number(out.stdout.trim());
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (option('child') !== undefined) {
  await child(option('child')!);
} else {
  const loadAtStart = os.loadavg()[0]!;
  const here: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    here.push(measure(ROOT));
    if (BASE !== undefined) base.push(measure(BASE));
    console.log(`round ${round + 1}: ${here.at(-1)} ns${BASE !== undefined ? `, base ${base.at(-1)} ns` : ''}`);
  }
  console.log(`\ntraffic path of one echoed ${MESSAGE.length}-byte text message (preview, record, log, line, file), median of ${ROUNDS} processes × ${MESSAGES.toLocaleString('en-US')} messages (load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end)`);
  console.log(`this checkout: ${median(here).toFixed(0)} ns of CPU per message`);
  if (BASE !== undefined) console.log(`${path.basename(BASE)}: ${median(base).toFixed(0)} ns (this/base ${(median(here) / median(base)).toFixed(2)}×, round by round median ${median(here.map((x, i) => x / base[i]!)).toFixed(2)}×)`);
}
