/**
 * Ferry's HTTP-port servers behind Debian's nginx as a reverse proxy, as users run them: a mock
 * API, an event stream (read while it stays open: nginx must not buffer it) and a WebSocket
 * upgrade, all through nginx on 127.0.0.1.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { nginxMissing, startNginx, type Nginx } from '../support/servers/nginx.js';
import { makeWorkspace, send, serve } from './helpers.js';
import { connect } from './kinds/ws-client.js';

const missing = nginxMissing();
let nginx: Nginx | undefined;

/** The servers (helpers.ts stops them after each test) and nginx in front of them. */
async function behindNginx(): Promise<Nginx> {
  const root = await makeWorkspace({
    servers: {
      api: { name: 'API', http: { routes: [{ path: '/users/:id', body: '{"id": "{{request.params.id}}", "host": "{{request.headers.host}}"}' }] } },
      events: { name: 'Events', kind: 'sse', sse: { events: [{ data: 'first' }, { event: 'tick', data: 'second' }] } },
      chat: { name: 'Chat', kind: 'websocket', websocket: { greeting: 'welcome' } },
    },
  });
  const handle = await serve(root);
  const port = (id: string) => handle.servers.find((s) => s.id === id)!.port;
  nginx = await startNginx(`
    location /api/ { proxy_pass http://127.0.0.1:${port('api')}/; }
    location /named/ { proxy_pass http://127.0.0.1:${port('api')}/; proxy_set_header Host myapp.test; }
    location /local/ { proxy_pass http://127.0.0.1:${port('api')}/; proxy_set_header Host localhost; }
    location /events/ { proxy_pass http://127.0.0.1:${port('events')}/; proxy_http_version 1.1; }
    location /chat/ { proxy_pass http://127.0.0.1:${port('chat')}/; proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection $connection_upgrade; }
  `);
  return nginx;
}

afterEach(async () => {
  await nginx?.close();
  nginx = undefined;
});

describe.skipIf(missing)(`servers behind nginx${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it("answer through nginx's default Host (the upstream's address) and a loopback one; another name gets 403 saying how to set the proxy's Host", async () => {
    const nginx = await behindNginx();
    expect(JSON.parse((await send(`${nginx.url}/api/users/7`)).body)).toMatchObject({ id: '7' });
    expect(JSON.parse((await send(`${nginx.url}/local/users/8`)).body)).toEqual({ id: '8', host: 'localhost' });
    const named = await send(`${nginx.url}/named/users/9`);
    expect(named.status).toBe(403);
    expect(named.body).toContain('(this one was for "myapp.test")');
    expect(named.body).toContain('A reverse proxy on this computer can address it as localhost (nginx: proxy_set_header Host localhost;), or set host: 0.0.0.0');
  });

  it('streams events through nginx as they are sent (X-Accel-Buffering: no), the stream still open', async () => {
    const nginx = await behindNginx();
    const first = await new Promise<{ type: string | undefined; text: string }>((resolve, reject) => {
      const request = http.get(`${nginx.url}/events/`, (res) => {
        let text = '';
        res.on('end', () => reject(new Error(`the stream ended before both events: ${res.statusCode} ${text}`)));
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          // Both events, while the server keeps the stream open (no repeat): nginx passed them on unbuffered.
          if (text.includes('data: second')) {
            resolve({ type: res.headers['content-type'], text });
            request.destroy();
          }
        });
      });
      request.on('error', reject);
      request.setTimeout(5000, () => request.destroy(new Error('no events through nginx within 5 s: it buffered the stream')));
    });
    expect(first.type).toBe('text/event-stream; charset=utf-8');
    expect(first.text).toBe('data: first\n\nevent: tick\ndata: second\n\n');
  });

  it('opens a WebSocket through the upgrade nginx passes on: greeting and echo', async () => {
    const nginx = await behindNginx();
    const client = await connect(`ws://127.0.0.1:${nginx.port}/chat/room`);
    client.ws.send('through nginx');
    expect((await client.next(2)).map((m) => m.data)).toEqual(['welcome', 'through nginx']);
    client.ws.close();
  });
});
