/**
 * A port that answers with something that is not HTTP (another protocol's server, noise), for the
 * kinds carried over HTTP's handshake: WebSocket, Socket.IO on both transports, MCP over HTTP.
 * Each fails at once with one line saying so and what to check, not a parser's words.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, sendRequest } from './streaming-send.js';

describe('a peer that answers with headers that never end', () => {
  let server: net.Server;
  let host: string;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        socket.write('HTTP/1.1 101 Switching Protocols\r\n');
        const line = Buffer.from(`X-More: ${'a'.repeat(1000)}\r\n`);
        const more = () => {
          while (!socket.destroyed && socket.write(line));
        };
        socket.on('drain', more);
        more();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cases: Array<[string, () => Record<string, unknown>, string, string]> = [
    ['websocket', () => ({ url: `ws://${host}/` }), 'websocket', "16 KB, Node's limit for this connection"],
    ['socketio (polling)', () => ({ url: `http://${host}/`, socketio: { transport: 'polling' } }), 'socketio', "16 KB, Node's limit for this connection"],
    ['mcp (auto)', () => ({ url: `http://${host}/mcp`, mcp: { transport: 'auto', call: 'tool', name: 'x' } }), 'mcp', '1 MB in all'],
  ];
  for (const [label, fields, kind, limit] of cases) {
    it(`${label}: named as headers past the limit, at once (it read as the parser's words, MCP after trying HTTP+SSE)`, async () => {
      const error = await failure(sendRequest(kind as 'websocket', { ...fields(), settings: { timeoutMs: 5000 } }));
      expect(error.message).toBe(`${host} answered with response headers larger than Ferry reads (${limit}); check the URL's port.`);
    });
  }
});

describe('a peer that answers with something that is not HTTP', () => {
  let server: net.Server;
  let host: string;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.end(Buffer.from('\x00\xff\xfe not http at all\r\n\r\n', 'latin1')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cases: Array<[string, () => Record<string, unknown>, string]> = [
    ['websocket', () => ({ url: `ws://${host}/` }), 'websocket'],
    ['socketio (websocket)', () => ({ url: `http://${host}/`, socketio: { transport: 'websocket' } }), 'socketio'],
    ['socketio (polling)', () => ({ url: `http://${host}/`, socketio: { transport: 'polling' } }), 'socketio'],
    ['mcp (streamableHttp)', () => ({ url: `http://${host}/mcp`, mcp: { transport: 'streamableHttp', call: 'tool', name: 'x' } }), 'mcp'],
    ['mcp (auto)', () => ({ url: `http://${host}/mcp`, mcp: { transport: 'auto', call: 'tool', name: 'x' } }), 'mcp'],
  ];
  for (const [label, fields, kind] of cases) {
    it(`${label}: named as not valid HTTP, with the port to check`, async () => {
      const error = await failure(sendRequest(kind as 'websocket', { ...fields(), settings: { timeoutMs: 5000 } }));
      expect(error.message).toMatch(new RegExp(`^${host.replace(/\./g, '\\.')} answered something that is not valid HTTP: .+ \\(HPE_[A-Z_]+\\); check the URL's port\\.$`));
    });
  }
});

// Plain HTTP goes through undici's pool, whose parser errors carry no code (undici 7 loses it), so
// only their text says what went wrong; the words are the other kinds'.
describe('plain HTTP: a peer whose answer the parser refuses', () => {
  let server: net.Server;
  let host: string;
  const answers: Record<string, Buffer> = {
    '/noise': Buffer.from('\x00\xff\xfe not http at all\r\n\r\n', 'latin1'),
    '/ctl-value': Buffer.from('HTTP/1.1 200 OK\r\nX-Session: a\x01b\r\nContent-Length: 2\r\n\r\nok'),
    '/del-value': Buffer.from('HTTP/1.1 200 OK\r\nX-Session: a\x7fb\r\nContent-Length: 2\r\n\r\nok'),
    '/ctl-name': Buffer.from('HTTP/1.1 200 OK\r\nX-Ses\x01sion: ab\r\nContent-Length: 2\r\n\r\nok'),
  };
  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (data) => socket.end(answers[/^GET (\S+)/.exec(data.toString('latin1'))?.[1] ?? ''] ?? answers['/noise']));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('not HTTP at all: named as not valid HTTP, with the port to check (it read "request to … failed: Response does not match…")', async () => {
    const error = await failure(sendRequest('http', { method: 'GET', url: `http://${host}/noise` }));
    expect(error.message).toBe(`${host} answered something that is not valid HTTP: Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/); check the URL's port.`);
  });

  for (const [path, words] of [
    ['/ctl-value', 'Invalid header value char'],
    ['/del-value', 'Invalid header value char'],
    ['/ctl-name', 'Invalid header token'],
  ] as const) {
    it(`a control character in a header (${path}): named as the server's bad header, as MCP words it, not the port`, async () => {
      const error = await failure(sendRequest('http', { method: 'GET', url: `http://${host}${path}` }));
      expect(error.message).toBe(
        `${host} answered with a response header holding a character HTTP does not allow in one, such as a control character (${words}, HPE_INVALID_HEADER_TOKEN); the server must send its header names and values as visible text. Fix the server: a session id or token it makes from raw random bytes is the usual cause.`,
      );
    });
  }
});
