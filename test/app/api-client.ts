/** A client of `ferry app`'s API for tests: the session cookie on every call, JSON in and out, the live channel. */
import http from 'node:http';
import WebSocket from 'ws';
import type { LiveEvent } from '../../src/app/shared/api.js';

export interface Answer {
  status: number;
  body: unknown;
  text: string;
}

export class ApiClient {
  cookie = '';
  constructor(readonly port: number) {}

  async login(token: string): Promise<void> {
    const res = await fetch(`http://127.0.0.1:${this.port}/?token=${token}`, { redirect: 'manual' });
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  }

  /** `body` is sent as JSON; a string `raw` is sent as it is (for bodies that are not JSON). */
  call(method: string, urlPath: string, body?: unknown, raw?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const text = raw ?? (body === undefined ? undefined : JSON.stringify(body));
      const req = http.request(
        { host: '127.0.0.1', port: this.port, path: urlPath, method, headers: { cookie: this.cookie, ...(text !== undefined ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          let out = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (out += c));
          res.on('end', () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(out);
            } catch {
              parsed = undefined;
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, text: out });
          });
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  }

  async live(): Promise<{ events: LiveEvent[]; close(): void }> {
    const ws = new WebSocket(`ws://127.0.0.1:${this.port}/api/live`, { headers: { cookie: this.cookie } });
    const events: LiveEvent[] = [];
    ws.on('message', (data) => events.push(JSON.parse(String(data)) as LiveEvent));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { events, close: () => ws.close() };
  }
}

export async function until<T>(what: string, read: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
