/**
 * A loopback port that was free a moment ago. Only where the code under test cannot bind port 0
 * and report the port: Ferry's own servers (the port is in a server file), the OAuth loopback
 * redirect (the port is in the redirect URI sent to the provider), and "connection refused"
 * (a port nobody listens on). Every test server binds port 0 instead (listen.ts).
 */
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}
