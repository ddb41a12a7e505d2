/** What `ferry serve` prints of the traffic: every line, a per-second summary on a terminal, never a silent drop. */
import { describe, expect, it } from 'vitest';
import { TrafficPrinter } from '../../src/cli/traffic-printer.js';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fdPrinter, outputPrinter } from '../../src/cli/line-printer.js';
import { paint } from '../../src/cli/output.js';
import { httpExchangeRecord } from '../../src/servers/http-traffic.js';
import { formatTrafficLine, plainRecord, TrafficLog, type TrafficRecord } from '../../src/servers/index.js';
import { tempDir } from '../support/temp.js';

const record = (n: number, status = 200): TrafficRecord => ({
  ...plainRecord(httpExchangeRecord('http', 'api', performance.now(), 1.5, { method: 'GET', path: `/r/${n}`, route: 'r', status }, 0, 10)),
  time: Date.UTC(2026, 0, 1, 12, 0, 0, n),
});

function setUp(options: { json?: boolean; linesPerSecond?: number }) {
  const lines: string[] = [];
  let clock = 1_000_000;
  const c = paint({ out: () => {}, err: () => {}, color: false });
  const printer = new TrafficPrinter(outputPrinter((text) => lines.push(...text.split('\n'))), c, { json: options.json ?? false, linesPerSecond: options.linesPerSecond, now: () => clock });
  return { lines, printer, advance: (ms: number) => (clock += ms) };
}

describe('ferry serve traffic lines', () => {
  it('not on a terminal: one line per request, however many', () => {
    const { lines, printer } = setUp({});
    printer.print(Array.from({ length: 1000 }, (_, i) => record(i)), 0);
    expect(lines).toHaveLength(1000);
    expect(lines[999]).toContain('/r/999');
  });

  it('on a terminal: the first lines of each second, then one summary line for the rest of it', () => {
    const { lines, printer, advance } = setUp({ linesPerSecond: 5 });
    printer.print(Array.from({ length: 8 }, (_, i) => record(i, i === 7 ? 500 : 200)), 0);
    expect(lines).toHaveLength(5);
    advance(400);
    printer.print([record(8), record(9)], 0);
    expect(lines).toHaveLength(5);
    advance(700); // a new second: the summary of the last one, then lines again
    printer.print([record(10)], 0);
    expect(lines).toHaveLength(7);
    expect(lines[5]).toMatch(/^… and 5 more requests in that second \(1 failed\); over 5 a second only this summary is printed \(--json prints each\)$/);
    expect(lines[6]).toContain('/r/10');
    printer.print(Array.from({ length: 10 }, (_, i) => record(100 + i)), 0);
    printer.finish(); // stopping prints what is still counted
    expect(lines.at(-1)).toMatch(/^… and 6 more requests in that second;/);
  });

  it('--json: every record, also on a terminal', () => {
    const { lines, printer } = setUp({ json: true, linesPerSecond: 5 });
    printer.print(Array.from({ length: 50 }, (_, i) => record(i)), 0);
    expect(lines).toHaveLength(50);
    expect(JSON.parse(lines[49]!)).toMatchObject({ type: 'traffic', server: 'api' });
  });

  it('records the log could not hand over are counted out loud', () => {
    const text = setUp({});
    text.printer.print([record(1)], 1234);
    expect(text.lines[0]).toBe('… 1,234 requests not shown: more arrived at once than the traffic log holds');
    expect(text.lines[1]).toContain('/r/1');
    const json = setUp({ json: true });
    json.printer.print([], 1);
    expect(JSON.parse(json.lines[0]!)).toEqual({ type: 'notice', level: 'warning', message: '1 request not shown: more arrived at once than the traffic log holds' });
  });

  it('records of other kinds than requests are counted as what they are: messages, datagrams, DNS queries', () => {
    const text = setUp({});
    text.printer.print([], 1500, { dns: 1500 });
    text.printer.print([], 1, { tcp: 1 });
    text.printer.print([], 7, { udp: 7 });
    text.printer.print([], 12, { http: 2, dns: 10 });
    expect(text.lines).toEqual([
      '… 1,500 DNS queries not shown: more arrived at once than the traffic log holds',
      '… 1 TCP message not shown: more arrived at once than the traffic log holds',
      '… 7 UDP datagrams not shown: more arrived at once than the traffic log holds',
      '… 12 records (2 requests, 10 DNS queries) not shown: more arrived at once than the traffic log holds',
    ]);
    const tcp = (n: number): TrafficRecord => ({ ...record(n), kind: 'tcp' });
    const terminal = setUp({ linesPerSecond: 2 });
    terminal.printer.print(Array.from({ length: 5 }, (_, i) => tcp(i)), 0);
    terminal.printer.finish();
    expect(terminal.lines.at(-1)).toMatch(/^… and 3 more TCP messages in that second;/);
  });

  it('the log hands over what it could not, by kind: a real flood of DNS records', async () => {
    const log = new TrafficLog(10, 0);
    const seen: unknown[] = [];
    log.subscribe((records, dropped, byKind) => seen.push({ records: records.length, dropped, byKind }));
    for (let i = 0; i < 25; i++) log.add({ ...record(i), kind: i < 3 ? 'http' : 'dns' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ records: 10, dropped: 15, byKind: { http: 3, dns: 12 } }]);
  });

  it('into a file: each line written as bytes, the same text, over many chunks and past a chunk', async () => {
    const file = path.join(await tempDir(), 'traffic.log');
    const fd = openSync(file, 'w');
    const out = fdPrinter(fd);
    const printer = new TrafficPrinter(out, paint({ out: () => {}, err: () => {}, color: false }), { json: false });
    const records: TrafficRecord[] = [];
    for (let batch = 0; batch < 30; batch++) {
      // ~600 KB of lines: many 64 KB chunks filled, written and reused; one line longer than a chunk.
      const some = Array.from({ length: 100 }, (_, i) => ({ ...record(batch * 100 + i, i % 10 === 0 ? 500 : 200), summary: `${batch}-${i} → ${'ü'.repeat(i)} 😀 ${batch === 7 && i === 3 ? 'x'.repeat(70_000) : ''}` }));
      printer.print(some, 0);
      records.push(...some);
    }
    await out.flush();
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe(records.map((r) => `${formatTrafficLine(r)}\n`).join(''));
  });
});
