/**
 * The one way the test bench's servers listen and stop: on 127.0.0.1, port 0 unless one is given (the system picks a
 * free port; the bound port is read back), and closing drops open connections and HTTP/2
 * sessions so `close()` never waits on a keep-alive socket.
 */
import type http from 'node:http';
import type http2 from 'node:http2';
import type https from 'node:https';
import type { AddressInfo } from 'node:net';

export type AnyHttpServer = http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer;

export interface Listening {
  /** `http(s)://HOST:PORT`, no trailing slash. */
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1:0; `urlHost` is the host written into `url` (e.g. `localhost` for TLS). */
export async function listenLoopback(server: AnyHttpServer, scheme: 'http' | 'https', urlHost = '127.0.0.1', port = 0): Promise<Listening> {
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://${urlHost}:${bound}`,
    host: '127.0.0.1',
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
        (server as http.Server).closeAllConnections?.();
      }),
  };
}

/**
 * A server's record of requests (a plain array) with a wait: `waitFor` resolves with the first
 * entry from index `from` on that passes `test`, checked each time one is recorded, so tests wait
 * for the request to arrive instead of sleeping.
 */
export function requestLog<T>(): { seen: T[]; record(entry: T): void; waitFor(test: (entry: T) => boolean, from?: number): Promise<T> } {
  const seen: T[] = [];
  const waiters = new Set<{ test: (entry: T) => boolean; from: number; resolve: (entry: T) => void }>();
  return {
    seen,
    record(entry) {
      seen.push(entry);
      for (const waiter of waiters) {
        if (seen.length - 1 >= waiter.from && waiter.test(entry)) {
          waiters.delete(waiter);
          waiter.resolve(entry);
        }
      }
    },
    waitFor(test, from = 0) {
      const found = seen.slice(from).find(test);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.add({ test, from, resolve }));
    },
  };
}
