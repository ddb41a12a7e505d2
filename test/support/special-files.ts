/**
 * Things on disk that are neither a file nor a folder, made for real in a test's folder: a named
 * pipe (the `mkfifo` program) and a Unix socket file, there until the test ends.
 */
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { afterEach } from 'vitest';

const listening: net.Server[] = [];
afterEach(async () => {
  for (const server of listening.splice(0).reverse()) await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A named pipe at `file`. */
export function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

/** A Unix socket file at `file`, there until the test ends (closing the listener removes it). */
export async function socketFile(file: string): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(file, resolve));
  listening.push(server);
}
