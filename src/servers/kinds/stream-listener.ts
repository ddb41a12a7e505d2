/**
 * Binding a server kind's own TCP (or TLS) listener: the bind error worded once, and a stop that
 * ends every connection; and the rule for a client that does not read what it is sent.
 */
import type net from 'node:net';
import { bindError, type Listener } from '../listener.js';
import type { BindOptions } from './kind.js';

/** Listens on `bind` and answers as the kind's Listener; `sockets` are its open connections, destroyed on close. */
export async function listenStream(server: net.Server, bind: BindOptions, sockets: ReadonlySet<net.Socket>, scheme: string): Promise<Listener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(bindError(error, bind)));
    server.listen({ host: bind.host, port: bind.port, exclusive: true }, () => resolve());
  });
  server.on('error', () => {});
  const port = (server.address() as net.AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    connections: () => sockets.size,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      })),
  };
}

/** Stops reading from a client whose replies wait unsent, until they have gone out. */
export function readAfterDrain(socket: net.Socket): void {
  if (socket.isPaused()) return;
  socket.pause();
  socket.once('drain', () => socket.resume());
}
