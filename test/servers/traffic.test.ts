/** The traffic log: bounded, oldest dropped first, delivered to listeners after the request's tick. */
import { describe, expect, it } from 'vitest';
import { formatTrafficLine, type HttpExchangeDetail, plainRecord, TrafficLog, type TrafficRecord, trafficLineMaxBytes, writeTrafficLine } from '../../src/servers/index.js';
import { httpExchangeRecord } from '../../src/servers/http-traffic.js';
import { previewText, previewUtf8 } from '../../src/servers/kinds/messages/payload.js';

/** An HTTP exchange as the mock records it, at a fixed time. */
const record = (n: number, detail: Partial<HttpExchangeDetail> = {}, extra: Partial<TrafficRecord> = {}): TrafficRecord => ({
  ...plainRecord(httpExchangeRecord('http', 'api', performance.now(), 1.5, { method: 'GET', path: `/r/${n}`, route: 'r', status: 200, ...detail }, 0, 2048)),
  time: Date.UTC(2026, 0, 1, 12, 0, 0, n),
  ...extra,
});
const pathOf = (r: TrafficRecord) => (r.detail as HttpExchangeDetail).path;

describe('traffic log', () => {
  it('keeps at most its capacity, oldest first', () => {
    const log = new TrafficLog(3);
    for (let i = 0; i < 10; i++) log.add(record(i));
    expect(log.recent().map(pathOf)).toEqual(['/r/7', '/r/8', '/r/9']);
    expect(log.total).toBe(10);
    expect(new TrafficLog(5).recent()).toEqual([]);
    expect(() => new TrafficLog(0)).toThrow(/capacity/);
  });

  it('can keep fewer records than it hands over, or none (ferry serve lists none again)', async () => {
    const few = new TrafficLog(10, 2);
    const none = new TrafficLog(10, 0);
    const seen: string[] = [];
    none.subscribe((records) => seen.push(...records.map(pathOf)));
    for (let i = 0; i < 5; i++) {
      few.add(record(i));
      none.add(record(i));
    }
    expect(few.recent().map(pathOf)).toEqual(['/r/3', '/r/4']);
    expect(none.recent()).toEqual([]);
    expect(none.total).toBe(5);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['/r/0', '/r/1', '/r/2', '/r/3', '/r/4']); // every record still handed over
    expect(() => new TrafficLog(10, -1)).toThrow(/kept/);
  });

  it('hands records to listeners in batches, never during add, and survives a failing listener', async () => {
    const log = new TrafficLog(100);
    const batches: number[] = [];
    log.subscribe(() => {
      throw new Error('a broken face');
    });
    const unsubscribe = log.subscribe((records) => batches.push(records.length));
    log.add(record(1));
    log.add(record(2));
    expect(batches).toEqual([]); // not yet: delivery waits for the next turn of the event loop
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([2]);
    unsubscribe();
    log.add(record(3));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([2]);
  });

  it('bounds what waits for a slow listener too', async () => {
    const log = new TrafficLog(4);
    const seen: string[] = [];
    const dropped: number[] = [];
    log.subscribe((records, n) => {
      seen.push(...records.map(pathOf));
      dropped.push(n);
    });
    for (let i = 0; i < 10; i++) log.add(record(i));
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['/r/6', '/r/7', '/r/8', '/r/9']);
    // …and says how many it could not hand over, so the face can say so.
    expect(dropped).toEqual([6]);
    log.add(record(10));
    await new Promise((r) => setImmediate(r));
    expect(dropped).toEqual([6, 0]);
  });

  it('shows durations with two decimals below 10 ms and whole milliseconds from there', () => {
    const shown = (durationMs: number) => / (\S+) ms /.exec(formatTrafficLine(record(1, {}, { durationMs })))![1];
    expect([0, 0.004, 0.005, 0.1, 1.5, 9.994, 9.996, 10, 10.4, 123.5, 98765.4].map(shown)).toEqual(
      ['0.00', '0.00', '0.01', '0.10', '1.50', '9.99', '10', '10', '10', '124', '98765'],
    );
  });

  it('formats one line per record, in local time', () => {
    const local = (ms: number) => {
      const d = new Date(Date.UTC(2026, 0, 1, 12, 0, 0, ms));
      return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:00.00${ms}`;
    };
    expect(formatTrafficLine(record(5))).toBe(`${local(5)} api 200 GET /r/5 → r 1.50 ms ↑0 B ↓2.0 KB`);
    expect(formatTrafficLine(record(6, { status: 0, note: 'reset', route: 'cut' }))).toBe(`${local(6)} api --- GET /r/6 → cut 1.50 ms ↑0 B ↓2.0 KB (fault: reset)`);
    expect(formatTrafficLine(record(7, { route: '', note: 'stream' }))).toBe(`${local(7)} api 200 GET /r/7 1.50 ms ↑0 B ↓2.0 KB (event stream closed)`);
  });

  it('formats each record whole when its neighbours share the time, server or sizes', () => {
    const at = (server: string, bytesIn: number, note?: string) => formatTrafficLine(record(5, {}, { server, bytesIn, ...(note ? { note } : {}) })).replace(/^\S+ /, '');
    expect([at('api', 0), at('api', 0), at('web', 0), at('web', 10), at('web', 10, 'echoed'), at('api', 10)]).toEqual([
      'api 200 GET /r/5 → r 1.50 ms ↑0 B ↓2.0 KB',
      'api 200 GET /r/5 → r 1.50 ms ↑0 B ↓2.0 KB',
      'web 200 GET /r/5 → r 1.50 ms ↑0 B ↓2.0 KB',
      'web 200 GET /r/5 → r 1.50 ms ↑10 B ↓2.0 KB',
      'web 200 GET /r/5 → r 1.50 ms ↑10 B ↓2.0 KB (echoed)',
      'api 200 GET /r/5 → r 1.50 ms ↑10 B ↓2.0 KB',
    ]);
  });

  it('keeps what only HTTP knows in detail, and levels a record by its status', () => {
    const ok = record(1);
    expect(ok).toMatchObject({ kind: 'http', server: 'api', direction: 'exchange', summary: '200 GET /r/1 → r', level: 'info', bytesIn: 0, bytesOut: 2048 });
    expect(ok.detail).toEqual({ method: 'GET', path: '/r/1', route: 'r', status: 200 });
    expect(ok).not.toHaveProperty('note');
    expect(record(2, { status: 404, note: 'notFound', route: '' })).toMatchObject({ level: 'warning', note: 'no route', detail: { note: 'notFound' } });
    expect(record(3, { status: 0, note: 'hang' }).level).toBe('error');
    expect(record(4, { status: 502, note: 'proxyError' }).level).toBe('error');
  });

  it('words the summary of an exchange when read, and writes the same bytes from its fields', () => {
    const live = [
      httpExchangeRecord('http', 'café', performance.now(), 1.5, { method: 'GET', path: '/r/1?q=ü', route: 'Über 🚀 \ud83d', status: 200 }, 3, 20),
      httpExchangeRecord('http', 'api', performance.now(), 12.5, { method: 'PATCH', path: '/\ud800x/\udc00', route: '', status: 0, note: 'reset' }, 0, 0),
      httpExchangeRecord('sse', 'api', performance.now(), 0.25, { method: 'GET', path: '/e', route: 'events', status: 1000 }, 0, 5),
    ];
    expect(live.map((r) => r.summary)).toEqual(['200 GET /r/1?q=ü → Über 🚀 \ud83d', '--- PATCH /\ud800x/\udc00', '1000 GET /e → events']);
    for (const r of live) {
      expect(r.summaryLength?.()).toBe(r.summary.length);
      const plain = plainRecord(r);
      const out = Buffer.alloc(trafficLineMaxBytes(r) + 10, 0xff);
      const end = writeTrafficLine(r, out, 5);
      expect(out.subarray(5, end).toString('utf8')).toBe(formatTrafficLine(plain));
      expect(out[end]).toBe(0xff);
      // JSON (the app, `--json`) and copies (the agent's tool) show the fields in the order they always had.
      const keys = ['kind', 'server', 'time', 'direction', 'summary', 'level', 'durationMs', 'bytesIn', 'bytesOut', 'detail', ...(r.note !== undefined ? ['note'] : [])];
      expect(Object.keys(plain)).toEqual(keys);
      expect(Object.keys(JSON.parse(JSON.stringify(r)))).toEqual(keys);
      expect(JSON.parse(JSON.stringify(r))).toEqual(JSON.parse(JSON.stringify(plain)));
      expect(Object.keys({ type: 'traffic', ...plain })).toEqual(['type', ...keys]);
    }
    expect(plainRecord(live[1]!)).toMatchObject({ level: 'error', note: 'fault: reset', summary: '--- PATCH /\ud800x/\udc00' });
    expect(plainRecord(live[0]!)).not.toHaveProperty('note');
  });

  it('writes a line as the UTF-8 bytes of its text, whatever the characters', () => {
    const odd = [
      record(1, { route: 'Über 🚀 lesen' }, { server: 'café', note: 'ça ← va' }),
      record(2, { path: '/\ud800x/\udc00', route: '\ud83d' }), // lone surrogates: U+FFFD, as Node's encoder writes them
      record(3, {}, { durationMs: 12345.6, bytesIn: 5 * 1048576, bytesOut: Number.NaN }),
    ];
    const local = formatTrafficLine(odd[0]!).slice(0, 12);
    expect(formatTrafficLine(odd[0]!)).toBe(`${local} café 200 GET /r/1 → Über 🚀 lesen 1.50 ms ↑0 B ↓2.0 KB (ça ← va)`);
    expect(formatTrafficLine(odd[2]!).slice(13)).toBe('api 200 GET /r/3 → r 12346 ms ↑5.0 MB ↓NaN MB');
    for (const r of odd) {
      const out = Buffer.alloc(trafficLineMaxBytes(r) + 10, 0xff);
      const end = writeTrafficLine(r, out, 5);
      expect(out.subarray(5, end)).toEqual(Buffer.from(`${formatTrafficLine(r).slice(0, 13)}${r.server} ${r.summary}${formatTrafficLine(r).slice(13 + r.server.length + 1 + r.summary.length)}`, 'utf8'));
      expect(out[end]).toBe(0xff); // nothing past the end, within the room it asked for
    }
    expect(formatTrafficLine(odd[1]!)).toContain('/\ufffdx/\ufffd → \ufffd 1.50 ms');
  });

  it('writes each summary anew when any of its parts changes, repeated ones from kept bytes', () => {
    const exchange = (status: number, method: string, path: string, route: string) =>
      httpExchangeRecord('http', 'api', performance.now(), 1.5, { method, path, route, status }, 0, 104);
    const same = () => exchange(200, 'GET', '/users/42', 'Get user');
    const sequence = [
      same(), same(), same(), // kept from the second on
      exchange(201, 'GET', '/users/42', 'Get user'), same(), same(),
      exchange(200, 'HEAD', '/users/42', 'Get user'), same(),
      exchange(200, 'GET', '/users/43', 'Get user'), exchange(200, 'GET', '/users/43', 'Get user'), same(),
      exchange(200, 'GET', '/users/42', 'Other'), exchange(200, 'GET', '/users/42', ''), exchange(200, 'GET', '/users/42', ''), same(),
      exchange(200, 'GET', '/\u001b[2Jé/\ud800', 'Über'), exchange(200, 'GET', '/\u001b[2Jé/\ud800', 'Über'), same(),
    ];
    const out = Buffer.alloc(4096);
    let at = 0;
    const expected: string[] = [];
    for (const r of sequence) {
      const start = at;
      at = writeTrafficLine(r, out, at);
      expect(at - start).toBeLessThanOrEqual(trafficLineMaxBytes(r));
      out[at++] = 10;
      expected.push(formatTrafficLine(plainRecord(r))); // from the summary's text, not its bytes
    }
    expect(out.toString('utf8', 0, at)).toBe(`${expected.join('\n')}\n`);
    expect(expected[16]).toContain(' 200 GET /\u241b[2Jé/\ufffd → Über 1.50 ms');
  });

  it('shows control characters a client sent as symbols, so a DNS name or an event cannot drive the terminal', () => {
    const of = (summary: string, note?: string): string =>
      formatTrafficLine({ kind: 'dns', server: 'names', time: 0, direction: 'exchange', summary, level: 'info', durationMs: 0, bytesIn: 0, bytesOut: 0, detail: {}, ...(note ? { note } : {}) }).replace(/^\S+ names /, '');
    // ESC [2J clears the screen, CR rewrites the line, BEL rings; C1 controls (U+009B is CSI) too.
    expect(of('A a\u001b[2J.test\r\u0007 → NXDOMAIN')).toBe('A a\u241b[2J.test\u240d\u2407 → NXDOMAIN 0.00 ms ↑0 B ↓0 B');
    expect(of('A é\u001b\u009b\u007f.test', 'x\ny')).toBe('A é\u241b\ufffd\u2421.test 0.00 ms ↑0 B ↓0 B (x\u240ay)');
    // Bidi overrides and isolates would show the rest of the line reversed: U+FFFD, 3 bytes as the room allows.
    expect(of('A \u202egnp.test\u2066\u2069', '\u202b')).toBe('A \ufffdgnp.test\ufffd\ufffd 0.00 ms ↑0 B ↓0 B (\ufffd)');
  });

  it('prints a record of any kind from its summary, sizes and note', () => {
    const message: TrafficRecord<{ frame: string }> = {
      kind: 'websocket',
      server: 'chat',
      time: Date.UTC(2026, 0, 1, 12, 0, 0, 9),
      direction: 'in',
      summary: '← hello',
      note: 'no rule matched',
      level: 'info',
      durationMs: 0,
      bytesIn: 5,
      bytesOut: 0,
      detail: { frame: 'text' },
    };
    expect(formatTrafficLine(message)).toMatch(/^\d\d:\d\d:00\.009 chat ← hello 0\.00 ms ↑5 B ↓0 B \(no rule matched\)$/);
  });

  it('previews a text message in quotes, cut at 80 characters with an ellipsis, as JSON quotes it', () => {
    const texts = ['', 'hi', '{"type":"tick"}', 'x'.repeat(80), 'x'.repeat(81), `{"a":"${'q"\\'.repeat(40)}"}`, `${'é'.repeat(79)}😀!`, `${'a'.repeat(79)}😀`, `tab\there\n${'z'.repeat(90)}`];
    for (const text of texts) expect(previewText(text)).toBe(JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text));
    expect(previewText('x'.repeat(81))).toBe(`"${'x'.repeat(80)}…"`);
  });

  it('previews UTF-8 bytes as their text, decoding only the start it shows', () => {
    const texts = ['', 'hi', 'x'.repeat(80), 'x'.repeat(81), `{"a":"${'q"\\'.repeat(40)}"}`, 'tab\there\n', `del \x7f ${'~'.repeat(90)}`, `${'a'.repeat(80)}é`, `${'a'.repeat(79)}é`, '€'.repeat(80), '€'.repeat(81), '😀'.repeat(40), '😀'.repeat(41), `${'😀'.repeat(100)}tail`, `${'€'.repeat(107)}😀${'a'.repeat(500)}`, `${'é'.repeat(300)}`];
    for (const text of texts) expect(previewUtf8(Buffer.from(text, 'utf8'))).toBe(previewText(text));
  });
});
