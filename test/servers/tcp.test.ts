/** The TCP server against socat and ncat on 127.0.0.1, and a Node client where timing matters. */
import net from 'node:net';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../src/servers/kinds/messages/traffic.js';
import { eventually, makeWorkspace, serve, writeServer } from './helpers.js';
import { runTool } from './kinds/tools.js';
import { HELD_TIMINGS } from '../../src/servers/kinds/pending-timers.js';
import { floodUntilStalled, tcpOffer } from '../support/servers/flood.js';

async function tcpServer(socket: Record<string, unknown>, extra: Record<string, unknown> = {}, variables: { key: string; value: string }[] = []) {
  const root = await makeWorkspace({ variables, servers: { raw: { name: 'Raw', kind: 'tcp', socket, ...extra } } });
  const handle = await serve(root);
  if (handle.failures.length) throw new Error(handle.failures[0]!.message);
  return { handle, server: handle.servers[0]!, port: handle.servers[0]!.port };
}

const socat = (port: number, input: Buffer | string) => runTool('socat', ['-t', '0.5', '-', `TCP:127.0.0.1:${port}`], input).then((r) => r.stdout);

/** A Node client: writes, then collects for `ms`. */
function collect(port: number, writes: Buffer[], ms: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => writes.forEach((w) => socket.write(w)));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    setTimeout(() => (socket.destroy(), resolve(Buffer.concat(chunks))), ms);
  });
}

describe('TCP server', () => {
  it('greets and echoes raw bytes (socat)', async () => {
    const { port, handle } = await tcpServer({ greeting: 'welcome {{who}}', lineEnding: 'crLf' }, {}, [{ key: 'who', value: 'Ada' }]);
    expect((await socat(port, 'hello {{who}}\n')).toString()).toBe('welcome Ada\r\nhello {{who}}\n');
    await eventually(async () => handle.traffic.recent().some((r) => (r as MessageRecord).detail.event === 'close'));
    const records = handle.traffic.recent() as MessageRecord[];
    expect(records.map((r) => `${r.direction} ${r.detail.event} ${r.note ?? ''}`)).toEqual(['exchange connect ', 'out message ', 'in message echoed', 'exchange close ']);
    expect(records[2]!.summary).toMatch(/^← 127\.0\.0\.1:\d+ "hello \{\{who\}\}\\n"$/);
    expect(records[3]!.bytesIn).toBe(14);
  });

  it('answers line by line with rules, {{message}} without the line ending, lineEnding appended (ncat)', async () => {
    const { port } = await tcpServer({
      mode: 'rules', framing: 'line', lineEnding: 'lf',
      rules: [
        { match: 'exact', pattern: 'PING', reply: 'PONG' },
        { match: 'regex', pattern: '^GET (\\w+)$', reply: 'value of {{message}}' },
        { pattern: 'quit', reply: 'bye', enabled: false },
        { match: 'any', reply: '?' },
      ],
    });
    const { stdout } = await runTool('ncat', ['-i', '1', '127.0.0.1', String(port)], 'PING\r\nGET name\nPIN');
    // The last line has no LF: ncat ends its side after it, and the rest is a last message.
    expect(stdout.toString()).toBe('PONG\nvalue of GET name\n?\n');
  });

  it('takes the text after the last LF as a last message when the client ends its side (printf a\\nb | socat), and logs it when the client resets', async () => {
    const { port, handle } = await tcpServer({ framing: 'line' });
    expect((await runTool('socat', ['-t', '5', '-', `TCP:127.0.0.1:${port}`], 'a\nb')).stdout.toString()).toBe('a\nb');
    const records = () => handle.traffic.recent() as MessageRecord[];
    await eventually(async () => records().some((r) => r.detail.event === 'close'));
    expect(records().filter((r) => r.direction === 'in').map((r) => [r.detail.preview, r.note])).toEqual([['"a"', 'echoed'], ['"b"', 'echoed']]);
    // A client that resets the connection cannot be answered; what it sent is still in the log.
    const raw = net.connect(port, '127.0.0.1');
    raw.on('error', () => {});
    await new Promise((r) => raw.once('connect', r));
    raw.write('c\nd', () => raw.resetAndDestroy());
    await eventually(async () => records().filter((r) => r.detail.event === 'close').length === 2);
    const last = records().filter((r) => r.direction === 'in').slice(2);
    expect(last.map((r) => [r.detail.preview, r.note])).toEqual([['"c"', 'echoed'], ['"d"', 'not answered: the connection closed']]);
    // Length-prefixed, a message the client ended inside is a warning with what came of it.
    const prefixed = await tcpServer({ framing: 'lengthPrefixed', lengthBytes: 2 });
    await runTool('socat', ['-t', '5', '-', `TCP:127.0.0.1:${prefixed.port}`], Buffer.from([0, 10, 0x61, 0x62]));
    await eventually(async () => (prefixed.handle.traffic.recent() as MessageRecord[]).some((r) => r.detail.event === 'close'));
    const cut = (prefixed.handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'error');
    expect([cut?.level, cut?.detail.preview]).toEqual(['warning', 'the client ended its side in the middle of a message (4 bytes of it cut off)']);
  });

  it('speaks hex: greeting, patterns and replies are bytes, never templated', async () => {
    const { port } = await tcpServer({
      mode: 'rules', encoding: 'hex', greeting: 'ca fe',
      rules: [{ pattern: 'de ad', reply: 'be ef' }, { match: 'exact', pattern: '01', reply: '7b 7b 6d 7d 7d' }, { match: 'regex', pattern: '^ff', reply: '00' }],
    });
    expect((await socat(port, Buffer.from([0x00, 0xde, 0xad, 0x01]))).toString('hex')).toBe('cafebeef');
    expect((await socat(port, Buffer.from([0x01]))).equals(Buffer.concat([Buffer.from([0xca, 0xfe]), Buffer.from('{{m}}')]))).toBe(true);
    expect((await socat(port, Buffer.from([0xff, 0x10]))).toString('hex')).toBe('cafe00');
  });

  it('frames with a length prefix of 1, 2 and 4 bytes, both ways', async () => {
    for (const lengthBytes of [1, 2, 4] as const) {
      const { port, handle } = await tcpServer({ mode: 'rules', framing: 'lengthPrefixed', lengthBytes, rules: [{ match: 'any', reply: 'got {{message}}' }] });
      const prefixed = (text: string) => {
        const p = Buffer.alloc(lengthBytes);
        p.writeUIntBE(text.length, 0, lengthBytes);
        return Buffer.concat([p, Buffer.from(text)]);
      };
      // Two messages in one write, the second split across two writes.
      const both = Buffer.concat([prefixed('one'), prefixed('two')]);
      const out = await socat(port, both);
      expect(out.equals(Buffer.concat([prefixed('got one'), prefixed('got two')]))).toBe(true);
      // The log previews the message, not its length prefix (which made every reply hex).
      const sent = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.direction === 'out');
      expect(sent.map((r) => [r.detail.preview, r.bytesOut])).toEqual([['"got one"', lengthBytes + 7], ['"got two"', lengthBytes + 7]]);
      const echoed = await tcpServer({ framing: 'lengthPrefixed', lengthBytes });
      const split = prefixed('split message');
      expect((await collect(echoed.port, [split.subarray(0, lengthBytes + 2), split.subarray(lengthBytes + 2)], 300)).equals(split)).toBe(true);
    }
  });

  it('cuts a reply longer than its length prefix can say, and the log says so', async () => {
    const { port, handle } = await tcpServer({ mode: 'rules', framing: 'lengthPrefixed', lengthBytes: 1, rules: [{ match: 'any', reply: 'x'.repeat(300) }] });
    const out = await socat(port, Buffer.from([1, 0x61]));
    expect([out.length, out[0]]).toEqual([256, 255]);
    const reply = (handle.traffic.recent() as MessageRecord[]).find((r) => r.direction === 'out')!;
    expect([reply.level, reply.bytesOut]).toEqual(['warning', 256]);
    expect(reply.note).toBe('cut to 255 of 300 bytes: the most a 1-byte length prefix can say; set socket.lengthBytes to 2');
  });

  it('takes a line of 16 MB in linear time (chunks kept until the line ends, not copied at each read)', async () => {
    const { port } = await tcpServer({ framing: 'line' });
    const line = Buffer.alloc(16 * 1024 * 1024 - 1, 0x61);
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let received = 0;
    const done = new Promise<void>((resolve, reject) => {
      socket.on('data', (c: Buffer) => {
        received += c.length;
        if (received === line.length + 1) resolve();
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`closed after ${received} bytes`)));
    });
    // 64 KB writes, as a client streaming a big JSON line would: each read used to copy all before it.
    for (let at = 0; at < line.length; at += 65536) socket.write(line.subarray(at, at + 65536));
    socket.write('\n');
    await done;
    socket.destroy();
    // About 0.3 s here; copying and searching everything held at each read took 2.3 s through
    // the socket (6 s with 64 KB reads).
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('closes a client whose line passes 16 MB without its end, or whose length prefix says more, and the log says which in words (socat)', async () => {
    const line = await tcpServer({ framing: 'line' });
    await runTool('socat', ['-t', '5', '-', `TCP:127.0.0.1:${line.port}`], Buffer.alloc(16 * 1024 * 1024 + 2, 0x61));
    const prefixed = await tcpServer({ framing: 'lengthPrefixed', lengthBytes: 4 });
    await runTool('socat', ['-t', '5', '-', `TCP:127.0.0.1:${prefixed.port}`], Buffer.from([0x01, 0x31, 0x2d, 0x00, 0x61]));
    const errors = async (handle: typeof line.handle) => {
      await eventually(async () => handle.traffic.recent().some((r) => (r as MessageRecord).detail.event === 'error'));
      return (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'error').map((r) => [r.detail.preview, r.note]);
    };
    expect(await errors(line.handle)).toEqual([['a line of more than 16 MB (16,777,216 bytes) without its line ending, the most a message may be', 'connection closed']]);
    expect(await errors(prefixed.handle)).toEqual([['a length prefix saying 20,000,000 bytes follow, more than the 16 MB (16,777,216 bytes) a message may be', 'connection closed']]);
  });

  it('waits delayMs before a rule reply; discard and manual send nothing; manual sends what is pushed', async () => {
    const { port } = await tcpServer({ mode: 'rules', rules: [{ match: 'any', reply: 'late', delayMs: 200 }] });
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write('x'));
    const got = await new Promise<string>((r) => socket.once('data', (c) => r(c.toString())));
    expect(got).toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    socket.destroy();
    const discard = await tcpServer({ mode: 'discard' });
    expect((await socat(discard.port, 'anything')).length).toBe(0);
    const manual = await tcpServer({ mode: 'manual', lineEnding: 'lf' });
    const client = net.connect(manual.port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    await eventually(async () => manual.server.openStreams() === 1);
    expect(manual.server.pushEvent('from the panel')).toBe(1);
    expect(await new Promise<string>((r) => client.once('data', (c) => r(c.toString())))).toBe('from the panel\n');
    client.destroy();
  });

  it('answers a client that half-closes (socat at end of input) before closing its side, delayed replies included', async () => {
    const { port, handle } = await tcpServer({ mode: 'rules', framing: 'line', lineEnding: 'lf', rules: [{ match: 'exact', pattern: 'PING', reply: 'PONG', delayMs: 300 }, { match: 'any', reply: 'got {{message}}' }] });
    // socat sends FIN at the end of its input and waits up to 5 s for the server's side to end.
    const started = performance.now();
    expect((await runTool('socat', ['-t', '5', '-', `TCP:127.0.0.1:${port}`], 'PING\nhello\n')).stdout.toString()).toBe('got hello\nPONG\n');
    // Then the server ended its side itself: socat did not wait out its 5 s.
    expect(performance.now() - started).toBeLessThan(4000);
    await eventually(async () => handle.traffic.recent().some((r) => (r as MessageRecord).detail.event === 'close'));
    // Over TLS too: the client ends its side and still gets the delayed reply, then the server's end.
    const secure = await tcpServer({ mode: 'rules', rules: [{ match: 'any', reply: 'late', delayMs: 200 }] }, { tls: { enabled: true } });
    const socket = tls.connect({ port: secure.port, host: '127.0.0.1', rejectUnauthorized: false });
    socket.allowHalfOpen = true; // ends its side and keeps reading
    await new Promise((r) => socket.once('secureConnect', r));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise((r) => socket.once('end', r));
    socket.end('x');
    await ended;
    expect(Buffer.concat(chunks).toString()).toBe('late');
    socket.destroy();
  });

  it('stops reading from a client that does not read its echo, instead of buffering without bound', async () => {
    const { port, handle } = await tcpServer({});
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause(); // never reads
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    // Writes 1 MB at a time while the server takes them: 64 MB at most, 5 s at most. A write the
    // server does not take within 500 ms means it stopped reading (what a real echo server does).
    const { taken, stalled } = await floodUntilStalled(tcpOffer(socket, chunk), 64, 5000);
    expect(stalled).toBe(true);
    // The kernel's buffers on both sides hold a few MB; nothing more waits in the server.
    expect(taken).toBeLessThan(32);
    expect(handle.servers[0]!.openStreams()).toBe(1);
    socket.destroy();
  });

  it('answers the lines of one read as the client reads the replies: many short lines owed a big reply do not pile up unsent', async () => {
    // 4,000 lines in one write, each owed 16 KB: 64 MB that would all wait in memory at once.
    const reply = 'r'.repeat(16 * 1024 - 1);
    const { port, handle } = await tcpServer({ mode: 'rules', framing: 'line', lineEnding: 'lf', rules: [{ match: 'any', reply }] });
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause(); // does not read, for now
    socket.end('x\n'.repeat(4000)); // and ends its side: it is still owed every reply
    // Replies recorded as sent (counted as they come: the log keeps the last 500).
    let replies = 0;
    handle.traffic.subscribe((records) => (replies += records.filter((r) => r.direction === 'out').length));
    const answered = () => replies;
    await eventually(async () => answered() > 0);
    await new Promise((r) => setTimeout(r, 300));
    // What the kernel's buffers take (a few MB on loopback), not 4,000 replies.
    expect(answered()).toBeLessThan(1000);
    // Read, every reply comes, in order.
    let received = 0;
    socket.on('data', (c: Buffer) => (received += c.length));
    const ended = new Promise((r) => socket.once('end', r));
    socket.resume();
    await ended; // the server ends its side after the last reply
    expect(received).toBe(4000 * 16 * 1024);
    await eventually(async () => answered() === 4000);
    // A client that leaves without reading: the lines it was never answered are counted in its close record.
    const other = net.connect(port, '127.0.0.1');
    other.on('error', () => {});
    await new Promise((r) => other.once('connect', r));
    other.pause();
    other.write('x\n'.repeat(4000));
    const total = handle.traffic.total;
    await eventually(async () => handle.traffic.total > total + 10);
    other.destroy();
    await eventually(async () => (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'close').length === 2);
    const close = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'close')[1]!;
    expect(close.level).toBe('warning');
    expect(close.note).toMatch(/^[\d,]+ messages read and not answered: the client left before the replies ahead of them had gone$/);
  });

  it('stops reading from a client whose delayed replies pile up, and drops a closed client\'s replies at once', async () => {
    // Each 1,000-byte line is owed a reply holding it for 60 s: reading on without a bound would
    // keep every line the client sends in memory until then.
    const { port, handle } = await tcpServer({ mode: 'rules', framing: 'line', rules: [{ match: 'any', reply: '{{message}}', delayMs: 60_000 }] });
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {}); // reset when the test's server stops
    await new Promise((r) => socket.once('connect', r));
    const chunk = Buffer.from(`${'a'.repeat(999)}\n`.repeat(1024));
    const { taken, stalled } = await floodUntilStalled(tcpOffer(socket, chunk), 64, 5000);
    expect(stalled).toBe(true);
    expect(taken).toBeLessThan(32);
    expect(handle.servers[0]!.openStreams()).toBe(1);
    // The replies owed wait as timers of this process: bounded while the client is connected.
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(timers()).toBeGreaterThan(1000);
    expect(timers()).toBeLessThan(1000 + 2048 + 100);
    socket.destroy();
    // A client that resets with replies owed (one the server still reads): they go with it, not 60 s
    // later (a client that only ends its side still gets them).
    const before = timers();
    const other = net.connect(port, '127.0.0.1');
    other.on('error', () => {});
    await new Promise((r) => other.once('connect', r));
    other.write('a\n'.repeat(500));
    await eventually(async () => timers() >= before + 500);
    other.resetAndDestroy();
    await eventually(async () => timers() <= before);
  });

  it('owes a connection at most 1,024 delayed replies within one read too: the lines past them wait, and are answered as the first go', async () => {
    // 2 s: long enough that a loaded machine has read all the lines before the first reply goes
    // (with 300 ms the first replies could leave before 1,024 were owed, and the count never reached it).
    const { port, handle } = await tcpServer({ mode: 'rules', framing: 'line', rules: [{ match: 'any', reply: 'late', delayMs: 2000 }] });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (c) => (received += c.toString()));
    await new Promise((r) => socket.once('connect', r));
    // 3,000 lines in one write, most of them in one read: each owed a reply 2 s later.
    socket.write('a\n'.repeat(3000));
    await eventually(async () => timers() >= before + 1024, 20_000);
    expect(timers()).toBeLessThan(before + 1024 + 50);
    // The rest are answered as the first replies go (three rounds): every line gets its reply.
    await eventually(async () => received === 'late\n'.repeat(3000), 40_000);
    expect(handle.servers[0]!.openStreams()).toBe(1);
    socket.destroy();
  }, 90_000);

  it('closes a held client (not read, its delayed replies piled up) when nothing goes out for the held time: it may have left unseen', async () => {
    HELD_TIMINGS.idleMs = 500;
    try {
      const { port, handle } = await tcpServer({ mode: 'rules', framing: 'line', rules: [{ match: 'any', reply: '{{message}}', delayMs: 60_000 }] });
      const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      const before = timers();
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((r) => socket.once('connect', r));
      const { stalled } = await floodUntilStalled(tcpOffer(socket, Buffer.from(`${'a'.repeat(999)}\n`.repeat(1024))), 64, 5000);
      expect(stalled).toBe(true);
      // The client leaves; not read, the server cannot see it go (no 'end' is read), so only the
      // held time frees its 1,024 and more replies, not the 60 s of their delay.
      socket.destroy();
      await eventually(async () => handle.servers[0]!.openStreams() === 0 && timers() <= before + 10, 3000);
      const close = (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'close')!;
      expect(close.level).toBe('warning');
      expect(close.note).toMatch(/^not read \(1,\d{3} delayed replies owed\) and nothing sent for 0\.5 s: closed by the server, its replies dropped$/);
    } finally {
      HELD_TIMINGS.idleMs = 30_000;
    }
  });

  it('runs over TLS, and logs clients whose handshake fails', async () => {
    const { port, server, handle } = await tcpServer({ greeting: 'secure' }, { tls: { enabled: true } });
    expect(server.url).toMatch(/^tls:\/\/127\.0\.0\.1:/);
    const socket = tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false });
    const got = await new Promise<string>((r) => socket.once('data', (c) => r(c.toString())));
    expect(got).toBe('secure');
    socket.destroy();
    // A client that does not speak TLS, or leaves during the handshake (it does not trust the
    // certificate), is in the log with why, not left out.
    await socat(port, 'plain text\n');
    const untrusting = tls.connect({ port, host: '127.0.0.1' });
    await new Promise((r) => untrusting.once('error', r));
    await eventually(async () => (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'error').length === 2);
    // Both connections are closed on the server too (none left half-open in the handshake).
    await eventually(async () => server.openConnections() === 0);
    const failed = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'error');
    expect(failed.map((r) => [r.level, r.detail.preview])).toEqual([
      ['warning', 'TLS handshake failed: the client does not speak TLS (wrong version number); connect with TLS, or set tls.enabled to false'],
      ['warning', 'TLS handshake failed: the client left during the handshake (does it trust the certificate?)'],
    ]);
    for (const record of failed) expect(record.summary).toMatch(/^↔ 127\.0\.0\.1:\d+ error TLS handshake failed/);
  });

  it('frees the port and closes clients on stop; a port in use is a start failure naming the file', async () => {
    const { port, handle } = await tcpServer({});
    const client = net.connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    const closed = new Promise((r) => client.once('close', r));
    const root = await makeWorkspace({ servers: { clash: { name: 'Clash', kind: 'tcp', port } } });
    const other = await serve(root);
    expect(other.failures[0]!.message).toMatch(/servers\/clash\.yaml: port \d+ on 127\.0\.0\.1 is already in use/);
    await handle.stop();
    await closed;
    const again = await serve(root);
    expect(again.failures).toEqual([]);
  });

  it('refuses a hex reply that is not hex, naming the rule', async () => {
    const root = await makeWorkspace({ servers: { bad: { name: 'Bad', kind: 'tcp', socket: { mode: 'rules', encoding: 'hex', rules: [{ pattern: 'aa', reply: 'zz' }] } } } });
    const handle = await serve(root);
    expect(handle.failures[0]!.message).toMatch(/servers\/bad\.yaml:\d+:\d+: socket\.rules\[0\]: reply is not valid hex/);
  });

  it('picks up an edit while running: new rules on the same port', async () => {
    const root = await makeWorkspace({ servers: { raw: { name: 'Raw', kind: 'tcp', socket: { mode: 'echo' } } } });
    const handle = await serve(root);
    const port = handle.servers[0]!.port;
    expect((await socat(port, 'one')).toString()).toBe('one');
    await writeServer(root, 'raw', { name: 'Raw', kind: 'tcp', socket: { mode: 'rules', rules: [{ match: 'any', reply: 'edited' }] } });
    await eventually(async () => handle.notices.some((n) => n.message.includes('now uses the new settings')));
    expect(handle.servers[0]!.port).toBe(port);
    expect((await socat(port, 'two')).toString()).toBe('edited');
  });
});
