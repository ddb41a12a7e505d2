/**
 * The ports the Fetch standard calls bad (https://fetch.spec.whatwg.org/#bad-port): undici's fetch
 * refuses them ("fetch failed: bad port"), Ferry reaches them. Tests bind the first one free on
 * 127.0.0.1, and skip saying so when all are taken.
 */
import type { AddressInfo, Server } from 'node:net';

export const BAD_PORTS = [10080, 6666, 6667, 6668, 6669, 6665, 6000] as const;

/** Why a test is skipped when no bad port is free. */
export const NO_BAD_PORT = `ports ${BAD_PORTS.join(', ')} are all taken on 127.0.0.1`;

/** What `start` makes on the first of BAD_PORTS free on 127.0.0.1; undefined when all are taken. */
export async function onBadPort<T>(start: (port: number) => Promise<T>): Promise<T | undefined> {
  for (const port of BAD_PORTS) {
    try {
      return await start(port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  return undefined;
}

/** `server` listening on the first of BAD_PORTS free on 127.0.0.1: its port, or undefined when all are taken. */
export function listenOnBadPort(server: Server): Promise<number | undefined> {
  return onBadPort(
    (port) =>
      new Promise<number>((resolve, reject) => {
        const failed = (error: Error) => reject(error);
        server.once('error', failed).listen(port, '127.0.0.1', () => {
          server.off('error', failed);
          resolve((server.address() as AddressInfo).port);
        });
      }),
  );
}
