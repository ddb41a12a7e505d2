/** A `ws` client that collects what it receives, for the WebSocket server tests. */
import { WebSocket } from 'ws';

export interface Client {
  ws: WebSocket;
  received: { data: string; binary: boolean }[];
  /** Resolves once `count` messages in total have arrived (5 s at most). */
  next(count: number): Promise<{ data: string; binary: boolean }[]>;
  closed: Promise<{ code: number }>;
}

export function connect(url: string, options: { rejectUnauthorized?: boolean; origin?: string } = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { rejectUnauthorized: options.rejectUnauthorized ?? true, ...(options.origin !== undefined ? { origin: options.origin } : {}) });
    const received: Client['received'] = [];
    const waiters: { count: number; done: () => void }[] = [];
    const closed = new Promise<{ code: number }>((r) => ws.once('close', (code) => r({ code })));
    ws.on('message', (data, binary) => {
      received.push({ data: (data as Buffer).toString(binary ? 'hex' : 'utf8'), binary });
      for (const w of waiters.filter((w) => received.length >= w.count)) w.done();
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        received,
        closed,
        next: (count) =>
          new Promise((ok, fail) => {
            if (received.length >= count) return ok(received);
            const timer = setTimeout(() => fail(new Error(`only ${received.length} of ${count} messages arrived: ${JSON.stringify(received)}`)), 5000);
            waiters.push({ count, done: () => (clearTimeout(timer), ok(received)) });
          }),
      }),
    );
  });
}
