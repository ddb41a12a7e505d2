/**
 * Spec 8.2's rows for the server kinds other than the mock, live: each kind started from a file,
 * asked by a real client on 127.0.0.1 (`ws`, a TCP socket, a UDP socket, an HTTP GET), and what it
 * sends checked against the table: which families each place fills, `{{message}}` (exactly so,
 * trailing CR/LF removed, not UTF-8 as U+FFFD, never expanded again), the syntax rules (spaces,
 * `{{}}`, lines, nesting), secrets never filled, patterns never templated.
 */
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, serve } from './helpers.js';
import { connect } from './kinds/ws-client.js';

const VARIABLES = [
  { key: 'stage', value: 'dev' },
  // A secret written in the file by mistake: still never filled into an answer.
  { key: 'token', value: 'LEAK', secret: true },
];

/** Every syntax rule of 8.2 in one text: spaces, `{{}}`, a line break, nesting, an unclosed `{{`. */
const SYNTAX = '{{ stage }}|{{}}|{{sta\nge}}|{{{{stage}}}}|{{token}}|{{nobody}}|{{stage';
const SYNTAX_FILLED = 'dev|{{}}|{{sta\nge}}|{{dev}}|{{token}}|{{nobody}}|{{stage';

async function start(server: Record<string, unknown>, variables: { key: string; value: string; secret?: boolean }[] = VARIABLES) {
  const root = await makeWorkspace({ variables, servers: { s: { name: 'S', ...server } } });
  const handle = await serve(root);
  if (handle.failures.length) throw new Error(handle.failures[0]!.message);
  return handle.servers[0]!;
}

/** Writes to a TCP server and collects what comes back for `ms`. */
function tcp(port: number, input: Buffer | string, ms = 400): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(input));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    setTimeout(() => (socket.destroy(), resolve(Buffer.concat(chunks).toString('utf8'))), ms);
  });
}

/** One datagram to a UDP server, and its answer. */
function udp(port: number, input: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const timer = setTimeout(() => (socket.close(), reject(new Error('no answer'))), 3000);
    socket.on('message', (m) => (clearTimeout(timer), socket.close(), resolve(m.toString('utf8'))));
    socket.send(input, port, '127.0.0.1');
  });
}

/** The first event of an event stream opened at `rawPath` (sent as written, not re-encoded), as sent (the frame's text). */
function firstEvent(url: string, rawPath: string, headers: Record<string, string | string[]> = {}): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname, port, path: rawPath, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\n\n')) (req.destroy(), resolve(text));
      });
    });
    req.on('error', (e) => (e.message.includes('aborted') ? undefined : reject(e)));
  });
}

describe('8.2 live: WebSocket server', () => {
  it('greeting: variables and dynamic values, the syntax rules; no request values; {{message}} is not special; secrets stay', async () => {
    const server = await start({ kind: 'websocket', websocket: { greeting: `${SYNTAX}|{{request.path}}|{{message}}|{{$randomInt}}` } });
    const c = await connect(`${server.url.replace(/^http/, 'ws')}/path?q=1`);
    const [greeting] = await c.next(1);
    expect(greeting!.data).toMatch(new RegExp(`^${escape(SYNTAX_FILLED)}\\|\\{\\{request\\.path\\}\\}\\|\\{\\{message\\}\\}\\|\\d+$`));
    c.ws.close();
    // Not special: a variable named `message` fills it, as any variable.
    const named = await start({ kind: 'websocket', websocket: { greeting: 'hi {{message}}' } }, [{ key: 'message', value: 'from a variable' }]);
    const d = await connect(named.url.replace(/^http/, 'ws'));
    expect((await d.next(1))[0]!.data).toBe('hi from a variable');
    d.ws.close();
  });

  it('rule replies: {{message}} exactly so, trailing CR/LF removed, never expanded again, bytes not UTF-8 as U+FFFD; no request values', async () => {
    const server = await start({ kind: 'websocket', websocket: { mode: 'rules', rules: [{ match: 'any', reply: `[{{message}}] [{{ message }}] {{request.url}} ${SYNTAX}` }] } });
    const c = await connect(server.url.replace(/^http/, 'ws'));
    c.ws.send('say {{stage}} {{token}}\r\n');
    c.ws.send(Buffer.from([0x61, 0xff, 0x62, 0x0a]), { binary: true });
    const got = await c.next(2);
    expect(got.map((m) => m.data)).toEqual([
      `[say {{stage}} {{token}}] [{{ message }}] {{request.url}} ${SYNTAX_FILLED}`,
      `[a\uFFFDb] [{{ message }}] {{request.url}} ${SYNTAX_FILLED}`,
    ]);
    c.ws.close();
  });
});

describe('8.2 live: TCP and UDP servers', () => {
  it('TCP greeting (text): {{message}} always empty, variables filled, no request values, secrets stay', async () => {
    const server = await start({ kind: 'tcp', socket: { greeting: `<{{message}}> <{{ message }}> {{request.path}} ${SYNTAX}`, mode: 'discard' } });
    expect(await tcp(server.port, '')).toBe(`<> <{{ message }}> {{request.path}} ${SYNTAX_FILLED}`);
  });

  it('TCP rule replies: {{message}} as text, never expanded again; patterns are not templated', async () => {
    const server = await start({
      kind: 'tcp',
      socket: {
        mode: 'rules', framing: 'line', lineEnding: 'lf',
        rules: [
          { match: 'exact', pattern: '{{stage}}', reply: 'the pattern as written' },
          { match: 'any', reply: '[{{message}}] {{stage}} {{token}}' },
        ],
      },
    });
    const out = await tcp(server.port, Buffer.concat([Buffer.from('dev\r\n{{stage}}\n{{token}}\nx'), Buffer.from([0xfe]), Buffer.from('\n')]));
    expect(out.split('\n')).toEqual(['[dev] dev {{token}}', 'the pattern as written', '[{{token}}] dev {{token}}', '[x\uFFFD] dev {{token}}', '']);
  });

  it('UDP rule replies: {{message}} as text (CR/LF removed), never expanded again; patterns are not templated; no request values', async () => {
    const server = await start({
      kind: 'udp',
      socket: {
        mode: 'rules',
        rules: [
          { match: 'contains', pattern: '{{stage}}', reply: 'the pattern as written' },
          { match: 'any', reply: '[{{message}}] {{request.body}} {{ stage }} {{token}}' },
        ],
      },
    });
    expect(await udp(server.port, 'dev {{$uuid}}\r\n')).toBe('[dev {{$uuid}}] {{request.body}} dev {{token}}');
    expect(await udp(server.port, 'x {{stage}}')).toBe('the pattern as written');
  });
});

describe('8.2 live: event stream server', () => {
  it('event data and id: request values of the GET that opened the stream (no body, no path parameters), variables; the name as written; no {{message}}; secrets stay', async () => {
    const server = await start({
      kind: 'sse',
      sse: {
        events: [{
          event: '{{stage}}',
          id: '{{request.method}} {{request.url}}',
          data: '{{request.path}}|{{request.query.q}}|{{request.query.Q}}|{{request.headers.x-TWICE}}|{{request.body}}|{{request.params.id}}|{{request.body.name}}|{{message}}|{{token}}|{{ stage }}',
        }],
      },
    });
    const frame = await firstEvent(server.url, '/a%20b/{{stage}}?q=red+shoes%21&q=second&Q=upper', { 'X-Twice': ['first', 'second'] });
    expect(frame).toBe('event: {{stage}}\nid: GET /a%20b/{{stage}}?q=red+shoes%21&q=second&Q=upper\ndata: /a%20b/{{stage}}|red shoes!|upper|first||||{{message}}|{{token}}|dev\n\n');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
