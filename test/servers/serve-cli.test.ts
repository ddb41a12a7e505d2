/** `ferry serve`: URLs, live traffic lines, --env/--var, failures reported, Ctrl-C stops cleanly. */
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promises as fs, openSync, closeSync, createReadStream } from 'node:fs';
import { fdPrinter } from '../../src/cli/line-printer.js';
import { serveUntil } from '../../src/cli/serve.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { freePort } from '../support/servers/index.js';
import { eventually, makeWorkspace, send, writeServer } from './helpers.js';

const api = { name: 'API', http: { routes: [{ name: 'hello', path: '/hello/:who', body: 'hi {{request.params.who}} from {{place}}' }] } };

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), color: false } };
}

describe('non-blocking line printer', () => {
  it('writes every line in order, asynchronously', async () => {
    const file = path.join(await tempDir(), 'out.txt');
    const fd = openSync(file, 'w');
    const printer = fdPrinter(fd);
    for (let i = 0; i < 2000; i++) printer.print(`line ${i}`);
    await printer.flush();
    closeSync(fd);
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    expect(lines.slice(0, -1)).toEqual(Array.from({ length: 2000 }, (_, i) => `line ${i}`));
  });

  it('writes a lone line at once, and gathers lines that follow it into few writes, in order', async () => {
    const file = path.join(await tempDir(), 'out.txt');
    const fd = openSync(file, 'w');
    const printer = fdPrinter(fd);
    printer.print('first');
    await eventually(async () => (await fs.readFile(file, 'utf8')) === 'first\n', 2000); // no flush needed
    for (let batch = 0; batch < 50; batch++) {
      printer.print(Array.from({ length: 20 }, (_, i) => `b${batch}-${i}`).join('\n'));
      await new Promise((r) => setImmediate(r));
    }
    await eventually(async () => (await fs.readFile(file, 'utf8')).endsWith('b49-19\n'), 2000); // gathered, then written
    await printer.flush();
    closeSync(fd);
    const lines = (await fs.readFile(file, 'utf8')).split('\n').slice(0, -1);
    expect(lines).toEqual(['first', ...Array.from({ length: 1000 }, (_, n) => `b${Math.floor(n / 20)}-${n % 20}`)]);
  });

  it('encodes lists of lines, text beyond ASCII and lines longer than a chunk, over many reused chunks', async () => {
    const file = path.join(await tempDir(), 'out.txt');
    const fd = openSync(file, 'w');
    const printer = fdPrinter(fd);
    const expected: string[] = [];
    for (let batch = 0; batch < 40; batch++) {
      // ~400 KB in all: more than the printer's chunks hold, so they are written and reused.
      const lines = Array.from({ length: 100 }, (_, i) => `${batch}-${i} ↑ ${'é'.repeat(i % 7)} 😀 ${'x'.repeat(60)}`);
      printer.printEach(lines);
      expected.push(...lines);
      if (batch === 20) {
        const long = `long ${'→'.repeat(40_000)}`; // over 64 KB as UTF-8
        printer.print(`${long}\n`);
        expected.push(long);
      }
      if (batch % 5 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await printer.flush();
    closeSync(fd);
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toEqual(expected);
  });

  it('writes to a pipe in the background, every line in order', async () => {
    const fifo = path.join(await tempDir(), 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const chunks: Buffer[] = [];
    // Both ends open in the thread pool, where each waits for the other.
    const reader = createReadStream(fifo);
    reader.on('data', (chunk) => chunks.push(chunk as Buffer));
    const ended = new Promise<void>((resolve) => reader.once('end', () => resolve()));
    const writer = await fs.open(fifo, 'w');
    const printer = fdPrinter(writer.fd);
    const expected = Array.from({ length: 20_000 }, (_, i) => `pipe ${i} ↓ ${'y'.repeat(i % 50)}`);
    for (let i = 0; i < expected.length; i += 500) printer.printEach(expected.slice(i, i + 500));
    await printer.flush();
    await writer.close();
    await ended;
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toEqual(expected);
  });

  it('counts the lines it had to drop instead of waiting', async () => {
    const file = path.join(await tempDir(), 'out.txt');
    const fd = openSync(file, 'w');
    const printer = fdPrinter(fd, 20);
    for (let i = 0; i < 100; i++) printer.print(`l${i}`);
    await printer.flush();
    closeSync(fd);
    const text = await fs.readFile(file, 'utf8');
    expect(text.startsWith('l0\n')).toBe(true);
    const dropped = Number(/… (\d+) lines not printed/.exec(text)?.[1]);
    const printed = text.split('\n').filter((l) => /^l\d+$/.test(l)).length;
    expect(printed + dropped).toBe(100);
    expect(dropped).toBeGreaterThan(0);
  });
});

describe('ferry serve', () => {
  it('prints each URL and one traffic line per request; --env and --var fill templates', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({
      variables: [{ key: 'place', value: 'workspace' }],
      environments: { dev: [{ key: 'place', value: 'dev' }] },
      servers: { api, events: { name: 'Events', kind: 'sse', sse: { events: [{ data: 'x' }] } } },
    });
    const ws = await openWorkspace(root);
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(ws, ['api'], { env: 'DEV', var: [], watch: true }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.some((l) => l.includes('http://127.0.0.1:')));
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(io.out.join('\n'))![0];
    expect(io.out[0]).toMatch(/^Serving with environment dev \(Ctrl-C stops\):\n {2}API {2}http:\/\/127\.0\.0\.1:\d+ {2}http · servers\/api\.yaml$/);
    expect((await send(`${url}/hello/ada`)).body).toBe('hi ada from dev');
    await send(`${url}/nope`);
    await eventually(async () => io.out.join('\n').includes('GET /nope'));
    const log = io.out.join('\n');
    expect(log).toMatch(/\d\d:\d\d:\d\d\.\d{3} api 200 GET \/hello\/ada → hello [\d.]+ ms ↑0 B ↓15 B/);
    expect(log).toMatch(/api 404 GET \/nope .* \(no route\)/);
    stop();
    expect(await done).toBe(0);
    expect(io.out.at(-1)).toBe('Stopped 1 server.');

    const withVar = capture();
    let stop2!: () => void;
    const done2 = serveUntil(ws, [], { var: ['place=cli'], watch: false, json: true }, withVar.output, new Promise((r) => (stop2 = r)));
    await eventually(async () => withVar.out.filter((l) => l.includes('"type":"server"')).length === 2);
    const servers = withVar.out.map((l) => JSON.parse(l)).filter((l) => l.type === 'server');
    expect(servers.map((s) => s.id).sort()).toEqual(['api', 'events']);
    expect((await send(`${servers.find((s) => s.id === 'api').url}/hello/bo`)).body).toBe('hi bo from cli');
    await eventually(async () => withVar.out.some((l) => l.includes('"type":"traffic"')));
    stop2();
    expect(await done2).toBe(0);
  });

  it('reports servers that cannot start, keeps the others, and a Ctrl-C still ends with 0', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: { api, ws: { name: 'WS', kind: 'websocket', websocket: { mode: 'rules', rules: [{ match: 'regex', pattern: '(' }] } } } });
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: true }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.length > 0);
    // As the CLI's other errors (and `ferry run --start-servers`): `ferry:`, the server, what to do.
    expect(io.err).toEqual([
      expect.stringMatching(/^ferry: server ws did not start: servers\/ws\.yaml:\d+:\d+: websocket\.rules\[0\]: pattern "\(" is not a regular expression Ferry can run/),
    ]);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(io.out.join('\n'))![0];
    expect((await send(`${url}/hello/x`)).status).toBe(200);
    // A broken edit while serving: said on standard error as the other messages, and the server keeps answering.
    await writeServer(root, 'api', 'name: [broken\n');
    await eventually(async () => io.err.length === 2);
    expect(io.err[1]).toMatch(/^ferry: servers\/api\.yaml:\d+:\d+: YAML syntax error.* — the server keeps its previous settings until the file is fixed\.$/);
    expect((await send(`${url}/hello/x`)).status).toBe(200);
    stop();
    expect(await done).toBe(0);
  });

  it('a server that could not start starts when its file is saved; files added or renamed while serving start too', async () => {
    await isolatedDataDir();
    // A port another program holds: the server fails, the others serve.
    const holder = net.createServer();
    // Freed below, then bound by the server: from below the ephemeral range, so no other test's
    // connection or listen(0) can take it in between (freePort); listen(0)'s port could be.
    const portBelowEphemeral = await freePort();
    await new Promise<void>((resolve) => holder.listen(portBelowEphemeral, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    const root = await makeWorkspace({ servers: { api, late: { ...api, name: 'Late', port: taken } } });
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: ['place=x'], watch: true }, io.output, new Promise((r) => (stop = r)));
    try {
      await eventually(async () => io.out.length > 0);
      expect(io.err).toEqual([expect.stringMatching(new RegExp(`^ferry: server late did not start: servers/late\\.yaml: port ${taken} on 127\\.0\\.0\\.1 is already in use by another program`))]);
      // Saved while the port is still taken: said again, with what to do.
      await writeServer(root, 'late', { ...api, name: 'Late', port: taken });
      await eventually(async () => io.err.length === 2);
      expect(io.err[1]).toMatch(/^ferry: server late did not start: .*already in use by another program.* Save the file again to retry\.$/);
      // The port freed and the file saved again (two quick saves, as an editor's): it starts once, and says so on stderr.
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      await writeServer(root, 'late', { ...api, name: 'Late', port: taken });
      await writeServer(root, 'late', { ...api, name: 'Late', port: taken });
      await eventually(async () => io.err.some((l) => l.startsWith('ferry: server late started')));
      expect(io.err.filter((l) => l.includes('started'))).toEqual([`ferry: server late started: Late  http://127.0.0.1:${taken}  http · servers/late.yaml`]);
      expect((await send(`http://127.0.0.1:${taken}/hello/a`)).body).toBe('hi a from x');
      // Then it watches its file as the others do.
      await writeServer(root, 'late', { name: 'Late', port: taken, http: { routes: [{ path: '/v', body: 'edited' }] } });
      await eventually(async () => (await send(`http://127.0.0.1:${taken}/v`)).body === 'edited');

      // Hidden files and other extensions are not server files, as when the workspace is read.
      await fs.writeFile(path.join(root, 'servers', '.hidden.yaml'), 'name: Hidden\n');
      await fs.writeFile(path.join(root, 'servers', 'notes.yml'), 'name: Notes\n');
      // A file invalid when added, then fixed: reported, then started.
      await writeServer(root, 'added', 'name: [broken\n');
      await eventually(async () => io.err.some((l) => /^ferry: server added did not start: servers\/added\.yaml:\d+:\d+: YAML syntax error.* fix the file to start this server\.$/.test(l)));
      await writeServer(root, 'added', { ...api, name: 'Added' });
      await eventually(async () => io.err.some((l) => l.startsWith('ferry: server added started: Added  http://127.0.0.1:')));
      const addedUrl = /server added started: Added {2}(\S+)/.exec(io.err.join('\n'))![1]!;
      expect((await send(`${addedUrl}/hello/b`)).body).toBe('hi b from x');

      // Renamed (git mv): the server of the old name gives way, and the new name serves on the same port.
      await fs.rename(path.join(root, 'servers', 'late.yaml'), path.join(root, 'servers', 'renamed.yaml'));
      await eventually(async () => io.err.some((l) => l.startsWith('ferry: server renamed started:')));
      expect(io.out.join('\n')).toContain('servers/late.yaml is gone; server late stopped and gave way to servers/renamed.yaml.');
      expect((await send(`http://127.0.0.1:${taken}/v`)).body).toBe('edited');
      // Renamed and edited at once: the old name's server (its file gone) gives its port.
      await fs.rm(path.join(root, 'servers', 'renamed.yaml'));
      await writeServer(root, 'again', { name: 'Again', port: taken, http: { routes: [{ path: '/v', body: 'again' }] } });
      await eventually(async () => io.err.some((l) => l.startsWith('ferry: server again started:')));
      expect(io.out.join('\n')).toContain('servers/renamed.yaml is gone; server renamed stopped and gave its port to servers/again.yaml.');
      expect((await send(`http://127.0.0.1:${taken}/v`)).body).toBe('again');
      // A server on any free port (0) renamed: not left running twice.
      await fs.rename(path.join(root, 'servers', 'added.yaml'), path.join(root, 'servers', 'moved.yaml'));
      await eventually(async () => io.err.some((l) => l.startsWith('ferry: server moved started:')));
      expect(io.out.join('\n')).toContain('servers/added.yaml is gone; server added stopped and gave way to servers/moved.yaml.');
      // Its name changed and its file with it, as the app renames a server (2.1.4), on any free port: it gives way too.
      await writeServer(root, 'moved', { ...api, name: 'Shifted' });
      await fs.rename(path.join(root, 'servers', 'moved.yaml'), path.join(root, 'servers', 'Shifted.yaml'));
      await eventually(async () => io.err.some((l) => l.startsWith('ferry: server Shifted started: Shifted')));
      expect(io.out.join('\n')).toContain('servers/moved.yaml is gone; server moved stopped and gave way to servers/Shifted.yaml.');
    } finally {
      holder.close();
      stop();
    }
    expect(await done).toBe(0);
    expect(io.out.at(-1)).toBe('Stopped 3 servers.'); // api, again, Shifted
    expect(io.err.join('\n')).not.toMatch(/hidden|notes/i);
  });

  it('a git checkout that removes and adds several server files at once is said in one line: which were deleted, which started', async () => {
    await isolatedDataDir();
    const route = (body: string) => ({ http: { routes: [{ path: '/v', body }] } });
    // `stays` is on both branches, so git keeps servers/ (a checkout that empties it is another matter: see the report).
    const root = await makeWorkspace({ servers: { stays: { name: 'Stays', ...route('s') }, one: { name: 'One', ...route('1') }, two: { name: 'Two', ...route('2') }, three: { name: 'Three', ...route('3') } } });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=T', '-c', 'init.defaultBranch=main', ...args], { cwd: root, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'main');
    git('checkout', '-qb', 'other');
    git('rm', '-q', 'servers/one.yaml', 'servers/two.yaml', 'servers/three.yaml');
    for (const id of ['four', 'five']) await writeServer(root, id, { name: id, ...route(id) });
    git('add', '-A');
    git('commit', '-qm', 'other');
    git('checkout', '-q', 'main');
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: true }, io.output, new Promise((r) => (stop = r)));
    try {
      await eventually(async () => io.out.length > 0);
      expect(io.err).toEqual([]);
      git('checkout', '-q', 'other'); // three files go, two come, at once
      await eventually(async () => io.err.length > 0, 5000);
      // Gathered while the burst lasts: no line per file in between.
      await new Promise((r) => setTimeout(r, 1000));
      expect(io.err).toHaveLength(1);
      expect(io.err[0]).toMatch(
        /^ferry: 5 server files changed at once under servers\/: deleted one, three, two \(they keep running with their last settings until stopped, and take their file back when it returns\); started five \(http:\/\/127\.0\.0\.1:\d+\), four \(http:\/\/127\.0\.0\.1:\d+\)\.$/,
      );
      const four = /four \((\S+)\)/.exec(io.err[0]!)![1]!;
      expect((await send(`${four}/v`)).body).toBe('four');
      // One file alone is still said on its own line, as before.
      await fs.rm(path.join(root, 'servers', 'five.yaml'));
      await eventually(async () => io.err.length === 2, 5000);
      expect(io.err[1]).toBe('ferry: servers/five.yaml was deleted; the server keeps running with its last settings until it is stopped, or picks the file up again when it comes back.');
    } finally {
      stop();
    }
    expect(await done).toBe(0);
  });

  it('a checkout whose branch has none of the server files (git removes servers/ and makes it again) still starts the new ones and watches the files that come back', async () => {
    await isolatedDataDir();
    const route = (body: string) => ({ http: { routes: [{ path: '/v', body }] } });
    const root = await makeWorkspace({ servers: { one: { name: 'One', ...route('1') }, two: { name: 'Two', ...route('2') }, three: { name: 'Three', ...route('3') } } });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.test', '-c', 'user.name=T', '-c', 'init.defaultBranch=main', ...args], { cwd: root, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'main');
    git('checkout', '-qb', 'other');
    git('rm', '-q', 'servers/one.yaml', 'servers/two.yaml', 'servers/three.yaml');
    await fs.mkdir(path.join(root, 'servers'), { recursive: true });
    for (const id of ['four', 'five', 'six']) await writeServer(root, id, { name: id, ...route(id) });
    git('add', '-A');
    git('commit', '-qm', 'other');
    git('checkout', '-q', 'main');
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: true }, io.output, new Promise((r) => (stop = r)));
    try {
      await eventually(async () => io.out.length > 0);
      const one = /(http:\/\/\S+)\s+http · servers\/one\.yaml/.exec(io.out.join('\n'))?.[1] ?? (await (async () => { throw new Error(io.out.join('\n')); })());
      git('checkout', '-q', 'other');
      await eventually(async () => io.err.some((l) => /started five .*four .*six /.test(l)), 5000);
      const four = /four \((\S+)\)/.exec(io.err.join('\n'))![1]!;
      expect((await send(`${four}/v`)).body).toBe('four');
      // Back: one, two and three (still running) find their files again, and follow an edit.
      git('checkout', '-q', 'main');
      await new Promise((r) => setTimeout(r, 500));
      await writeServer(root, 'one', { name: 'One', ...route('edited') });
      await eventually(async () => (await send(`${one}/v`)).body === 'edited', 5000);
    } finally {
      stop();
    }
    expect(await done).toBe(0);
  });

  it('--json: a server started later is a server line', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: { api } });
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: true, json: true }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.length > 0);
    await writeServer(root, 'more', { ...api, name: 'More' });
    await eventually(async () => io.out.some((l) => l.includes('"id":"more"')));
    expect(JSON.parse(io.out.find((l) => l.includes('"id":"more"'))!)).toEqual({ type: 'server', id: 'more', name: 'More', kind: 'http', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(io.err).toEqual([]);
    stop();
    expect(await done).toBe(0);
  });

  it('warns about fields a server file (in any kind section) or ferry.yaml does not have, once per file, and serves', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({
      servers: {
        api: { ...api, autoStrat: true, http: { ...api.http, rotues: [] }, websocket: { rulez: [] } },
        events: { name: 'Events', kind: 'sse', sse: { evnets: [] } },
      },
    });
    await fs.appendFile(path.join(root, 'ferry.yaml'), 'hedaers: []\n');
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), ['api'], { var: [], watch: false }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.length > 0);
    expect(io.err).toEqual([
      'ferry: ferry.yaml: fields that ferry.yaml does not have are ignored: hedaers (did you mean headers?).',
      'ferry: servers/api.yaml: fields that servers do not have are ignored: http.rotues (did you mean routes?), websocket.rulez (did you mean rules?), autoStrat (did you mean autoStart?).',
    ]);
    // Served as written: the known fields work.
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(io.out.join('\n'))![0];
    expect((await send(`${url}/hello/x`)).status).toBe(200);
    stop();
    expect(await done).toBe(0);
    // --json: the same lines as notices.
    const json = capture();
    let stop2!: () => void;
    const done2 = serveUntil(await openWorkspace(root), ['events'], { var: [], watch: false, json: true }, json.output, new Promise((r) => (stop2 = r)));
    await eventually(async () => json.out.some((l) => l.includes('"type":"server"')));
    expect(json.out.map((l) => JSON.parse(l)).filter((l) => l.type === 'notice')).toEqual([
      { type: 'notice', level: 'warning', message: 'ferry.yaml: fields that ferry.yaml does not have are ignored: hedaers (did you mean headers?).' },
      { type: 'notice', server: 'events', level: 'warning', message: 'servers/events.yaml: fields that servers do not have are ignored: sse.evnets (did you mean events?).' },
    ]);
    stop2();
    expect(await done2).toBe(0);
    // An edit while serving that brings a misspelt field: said once the new settings apply.
    const watching = capture();
    let stop3!: () => void;
    const done3 = serveUntil(await openWorkspace(root), ['events'], { var: [], watch: true }, watching.output, new Promise((r) => (stop3 = r)));
    await eventually(async () => watching.out.length > 0);
    await writeServer(root, 'events', { name: 'Events', kind: 'sse', sse: { events: [], intervalMz: 5 } });
    await eventually(async () => watching.err.some((l) => l.includes('intervalMz')));
    expect(watching.err.filter((l) => l.includes('intervalMz'))).toEqual(['ferry: servers/events.yaml: fields that servers do not have are ignored: sse.intervalMz (did you mean intervalMs?).']);
    stop3();
    expect(await done3).toBe(0);
  });

  it('a server file that reads with a warning (a number where text goes) starts once, and the warning is said at its line', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: {} });
    await writeServer(root, 'coded', 'name: Coded\nhttp:\n  routes:\n    - path: /c\n      headers:\n        - key: X-Code\n          value: 007\n      body: coded\n');
    const io = capture();
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: false }, io.output, new Promise((r) => (stop = r)));
    await eventually(async () => io.out.length > 0);
    // One server (it was started a second time as a "file that does not read": two ports).
    const urls = io.out.join('\n').match(/http:\/\/127\.0\.0\.1:\d+/g) ?? [];
    expect(urls).toHaveLength(1);
    expect(io.err).toHaveLength(1);
    expect(io.err[0]).toMatch(/^ferry: servers\/coded\.yaml:7:\d+: .*007.*"007"/);
    const answer = await send(`${urls[0]}/c`);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-code']).toBe('7');
    stop();
    expect(await done).toBe(0);
  });

  it('refuses a bad --var and ends with 1 when nothing can start', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: { ws: { name: 'WS', kind: 'dns', dns: { records: [{ name: 'a.test', type: 'A', value: 'not an address' }] } } } });
    const ws = await openWorkspace(root);
    await expect(serveUntil(ws, [], { var: ['novalue'], watch: false }, capture().output, new Promise(() => {}))).rejects.toThrow(/--var expects key=value/);
    // An unknown environment is refused once, before anything starts.
    await expect(serveUntil(ws, [], { env: 'prod', var: [], watch: false }, capture().output, new Promise(() => {}))).rejects.toThrow(
      'No environment "prod". This workspace has no environments (environments/*.yaml).',
    );
    const io = capture();
    expect(await serveUntil(ws, [], { var: [], watch: false }, io.output, new Promise(() => {}))).toBe(1);
    expect(io.err).toEqual([expect.stringMatching(/^ferry: server ws did not start: servers\/ws\.yaml:\d+:\d+: dns\.records\[0\] \(a\.test A\): value "not an address" is not an IPv4 address/), 'ferry: No server could start.']);
    // A name that matches no file is said as it is, and is bad usage (exit 2).
    // Refused before anything else is said or started: no "No server could start." after it.
    const typo = capture();
    await expect(serveUntil(ws, ['wss'], { var: [], watch: false }, typo.output, new Promise(() => {}))).rejects.toMatchObject({
      message: 'No server "wss": there is no servers/wss.yaml. Servers here: ws.',
      exitCode: 2,
    });
    expect([typo.out, typo.err]).toEqual([[], []]);
  });

  it('Ctrl-C in a real process closes open connections and exits 0; a request it cut short is printed as such', async () => {
    const data = await isolatedDataDir();
    const root = await makeWorkspace({ servers: { api: { ...api, http: { routes: [...api.http.routes, { path: '/slow', delayMs: 20_000, body: 'late' }] } } } });
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support', 'run-ferry.ts'), 'serve', '-w', root, '--var', 'place=proc'], {
      env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      await eventually(async () => /http:\/\/127\.0\.0\.1:\d+/.test(stdout), 20_000);
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)![0];
      // A keep-alive connection that stays open must not keep the process alive.
      const agent = new http.Agent({ keepAlive: true });
      const body = await new Promise<string>((resolve, reject) => {
        http.get(`${url}/hello/kc`, { agent }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      });
      expect(body).toBe('hi kc from proc');
      await eventually(async () => stdout.includes('GET /hello/kc'));
      // A client mid-request (a route with a delay) when Ctrl-C comes: its line says the server stopped, not that the client left.
      const cut = new Promise<string>((resolve) => {
        http.get(`${url}/slow`, (res) => res.resume().on('end', () => resolve('answered'))).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
      await new Promise((r) => setTimeout(r, 300));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(await cut).toBe('ECONNRESET');
      expect(stdout).toMatch(/Stopping…\n\d\d:\d\d:\d\d\.\d{3} api --- GET \/slow → \* \/slow [\d.]+ ms ↑0 B ↓0 B \(the server stopped before the answer\)\nStopped 1 server\.\n$/);
      expect(stderr).toBe('');
      agent.destroy();
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);

  it('`ferry serve > traffic.log`: the lines of requests answered before Ctrl-C come before `Stopping…`', async () => {
    const data = await isolatedDataDir();
    const root = await makeWorkspace({ servers: { api } });
    const log = path.join(await tempDir('ferry-serve-log-'), 'traffic.log');
    // A regular file: lines that follow a write are gathered for a moment, while `Stopping…` was written at once.
    const fd = openSync(log, 'w');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support', 'run-ferry.ts'), 'serve', '-w', root, '--var', 'place=file'], {
      env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' },
      stdio: ['ignore', fd, 'pipe'],
    });
    closeSync(fd);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      await eventually(async () => /http:\/\/127\.0\.0\.1:\d+/.test(await fs.readFile(log, 'utf8')), 20_000);
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(await fs.readFile(log, 'utf8'))![0];
      const names = Array.from({ length: 8 }, (_, i) => `f${i}`);
      const bodies = await Promise.all(names.map(async (name) => (await send(`${url}/hello/${name}`)).body));
      expect(bodies).toEqual(names.map((name) => `hi ${name} from file`));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      const lines = (await fs.readFile(log, 'utf8')).trimEnd().split('\n');
      const stopping = lines.indexOf('Stopping…');
      expect(stopping).toBeGreaterThan(0);
      // Every request answered before the stop is printed above it; nothing was cut short.
      expect(lines.slice(stopping + 1)).toEqual(['Stopped 1 server.']);
      for (const name of names) expect(lines.slice(0, stopping).filter((line) => line.includes(`GET /hello/${name} `))).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);

  it('`ferry serve | head -1`: the reader gone, it keeps serving without a crash or a spin, and SIGTERM ends it with 0', async () => {
    const data = await isolatedDataDir();
    const root = await makeWorkspace({ servers: { api } });
    const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js'), 'serve', '-w', root, '--var', 'place=pipe'], {
      env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      // Read as `head -1` does: the first lines, then the pipe is closed.
      let first = '';
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (c) => {
          first += c;
          if (/http:\/\/127\.0\.0\.1:\d+/.test(first)) resolve();
        });
      });
      child.stdout.destroy();
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(first)![0];
      for (let i = 0; i < 50; i++) expect((await send(`${url}/hello/p${i}`)).body).toBe(`hi p${i} from pipe`);
      // Idle afterwards: no busy loop on the broken pipe (CPU time over a quiet half second).
      const cpu = () => Number(execFileSync('ps', ['-o', 'times=', '-p', String(child.pid)]).toString().trim());
      const t0 = cpu();
      await new Promise((r) => setTimeout(r, 1000));
      expect(cpu() - t0).toBeLessThanOrEqual(1);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
