/** What the bench scripts share: their options, free loopback ports, waiting for a started server. */
import net from 'node:net';

/** `--name value` from the command line. */
export function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

/** A loopback port nothing listens on now (for servers that take their port from a file or a flag). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers (any status), polling every 100 ms, at most `limitS` seconds. */
export async function waitUntilAnswering(url: string, limitS: number): Promise<void> {
  for (let i = 0; i < limitS * 10; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${limitS} s`);
}
