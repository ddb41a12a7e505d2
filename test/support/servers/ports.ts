/**
 * A loopback port that was free a moment ago. Only where the code under test cannot bind port 0
 * and report the port: Ferry's own servers (the port is in a server file), the OAuth loopback
 * redirect (the port is in the redirect URI sent to the provider), peers started on a port
 * (mosquitto), and "connection refused" (a port nobody listens on). Every test server binds
 * port 0 instead (listen.ts).
 *
 * The port comes from below the system's ephemeral range, in a slice of its own for each Vitest
 * worker: between this check and the server's start, no outgoing connection of a parallel test
 * (whose local port is ephemeral) and no `listen(0)` can take it, and the other worker never
 * hands it out. (A port from `listen(0)` could be taken in that moment: a rare failure seen in
 * full runs, never alone.)
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

const LOWEST = 10_000;
const SLICES = 8;

function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + SLICES * 100 ? low : 32_768;
  } catch {
    return 32_768; // not Linux: the usual start of the range
  }
}

const sliceSize = Math.floor((ephemeralStart() - LOWEST) / SLICES);
const slice = (Number(process.env.VITEST_POOL_ID ?? 0) || 0) % SLICES;
const sliceStart = LOWEST + slice * sliceSize;
// Start anywhere in the slice, then go round it: a port is handed out again only after the rest.
let offset = Math.floor(Math.random() * sliceSize);

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    offset = (offset + 1) % sliceSize;
    const port = sliceStart + offset;
    if (await tryListen(port)) return port;
  }
  throw new Error(`freePort: no free port in ${sliceStart}-${sliceStart + sliceSize - 1} after 200 tries`);
}
