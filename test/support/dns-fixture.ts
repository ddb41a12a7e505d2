/**
 * A real DNS server on 127.0.0.1 for tests, answering only the names it is given and only with
 * loopback addresses; every other name is NXDOMAIN. Tests resolve through it instead of this
 * computer's resolver, so no lookup leaves the machine.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import type { HostLookup } from '../../src/protocols/http/http.js';

export interface DnsFixture {
  port: number;
  /** A `dns.lookup`-shaped resolver that asks this server. */
  lookup: HostLookup;
  /** Names asked so far. */
  asked: string[];
  close(): Promise<void>;
}

const LOOPBACK = /^127\.\d+\.\d+\.\d+$/;

export async function startDnsFixture(names: Record<string, string> = { localhost: '127.0.0.1' }): Promise<DnsFixture> {
  for (const [name, address] of Object.entries(names)) {
    if (!LOOPBACK.test(address)) throw new Error(`the DNS fixture answers loopback addresses only, not ${address} for ${name}`);
  }
  const asked: string[] = [];
  const server = dgram.createSocket('udp4');
  server.on('message', (query, peer) => {
    const { name, type, questionEnd } = readQuestion(query);
    asked.push(name);
    const address = type === 1 ? names[name.toLowerCase()] : undefined;
    const known = name.toLowerCase() in names;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2); // response, recursion available, NOERROR or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(address ? 1 : 0, 6);
    const question = query.subarray(12, questionEnd);
    const answer = address
      ? Buffer.concat([Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4]), Buffer.from(address.split('.').map(Number))])
      : Buffer.alloc(0);
    server.send(Buffer.concat([header, question, answer]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const resolver = new dns.Resolver();
  resolver.setServers([`127.0.0.1:${port}`]);

  const lookup = ((host: string, options: dns.LookupOptions | number | ((...a: unknown[]) => void), callback?: (...a: unknown[]) => void) => {
    const done = (typeof options === 'function' ? options : callback)!;
    const all = typeof options === 'object' && options.all === true;
    resolver.resolve4(host, (error, addresses) => {
      if (error || addresses.length === 0) return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host }));
      if (all) done(null, addresses.map((address) => ({ address, family: 4 })));
      else done(null, addresses[0], 4);
    });
  }) as unknown as HostLookup;

  return { port, lookup, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function readQuestion(query: Buffer): { name: string; type: number; questionEnd: number } {
  const labels: string[] = [];
  let at = 12;
  while (at < query.length && query[at] !== 0) {
    const length = query[at]!;
    labels.push(query.toString('ascii', at + 1, at + 1 + length));
    at += 1 + length;
  }
  const type = query.readUInt16BE(at + 1);
  return { name: labels.join('.'), type, questionEnd: at + 5 };
}
