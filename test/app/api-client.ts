/** A client of `ferry app`'s API for tests: every call carries the session cookie, as the page's do; the live channel joined. */
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
  /** The page (browser tab) this client stands for, named on every call and on joining the live channel, as a page does; none unless set. */
  page: string | undefined;
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
        { host: '127.0.0.1', port: this.port, path: urlPath, method, headers: { cookie: this.cookie, ...(this.page ? { 'x-ferry-page': this.page } : {}), ...(text !== undefined ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          let out = '';
          res.setEncoding('utf8');
          // An app that dies mid-answer: the call fails with why, not an unhandled 'error' event.
          res.on('error', reject);
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

  /** Joins the live channel; `events` fills as they arrive, each with the time it came. */
  /** The live channel as a page joins it; `caughtUp` resolves once every event the app sent before it was called has arrived (a ping's pong follows them on the socket). */
  async live(): Promise<{ events: LiveEvent[]; times: number[]; caughtUp(): Promise<void>; close(): void }> {
    const ws = new WebSocket(`ws://127.0.0.1:${this.port}/api/live${this.page ? `?page=${this.page}` : ''}`, { headers: { cookie: this.cookie } });
    const events: LiveEvent[] = [];
    const times: number[] = [];
    ws.on('message', (data) => {
      events.push(JSON.parse(String(data)) as LiveEvent);
      times.push(Date.now());
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const caughtUp = () => new Promise<void>((resolve) => {
      ws.once('pong', () => resolve());
      ws.ping();
    });
    return { events, times, caughtUp, close: () => ws.close() };
  }
}

export async function until<T>(what: string, read: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
