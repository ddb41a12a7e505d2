/**
 * A real DNS server on 127.0.0.1 for tests, answering only the names it is given and only with
 * loopback addresses; every other name is NXDOMAIN. Tests resolve through it instead of this
 * computer's resolver, so no lookup leaves the machine. It answers over UDP and TCP on one port
 * (a UDP answer over 512 bytes, or over the query's EDNS size, is truncated: TC set, no records),
 * and, when given a certificate, over TLS (DoT) and HTTPS (DoH, RFC 8484 POST and GET).
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import dnsPacket from 'dns-packet';
import type { HostLookup } from '../../src/protocols/http/http.js';

export interface DnsFixture {
  /** UDP and TCP. */
  port: number;
  /** DNS over TLS, when started with a certificate. */
  tlsPort?: number;
  /** DNS over HTTPS (`https://127.0.0.1:<port>/dns-query`), when started with a certificate. */
  dohUrl?: string;
  /** A `dns.lookup`-shaped resolver that asks this server. */
  lookup: HostLookup;
  /** Names asked so far. */
  asked: string[];
  /** Transports queries came over, in order (`udp`, `tcp`, `tls`, `https`). */
  transports: string[];
  close(): Promise<void>;
}

/** Types a raw record may have, by number (dns-packet writes a type it is given as `UNKNOWN_<n>` from raw bytes). */
const RAW_TYPES = { CAA: 257, HINFO: 13, NAPTR: 35, HTTPS: 65 } as const;

export interface DnsFixtureOptions {
  /** More records (any type); A and AAAA must be loopback addresses. */
  records?: dnsPacket.Answer[];
  /** Records given by their data's bytes: what dns-packet would not write, such as a CAA value that is not UTF-8. */
  raw?: Array<{ name: string; type: keyof typeof RAW_TYPES; ttl?: number; rdata: Buffer }>;
  /** Serve DoT and DoH with this certificate. */
  tls?: { key: string; cert: string };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1)$/;

export async function startDnsFixture(names: Record<string, string> = { localhost: '127.0.0.1' }, options: DnsFixtureOptions = {}): Promise<DnsFixture> {
  const records: dnsPacket.Answer[] = [
    ...Object.entries(names).map(([name, address]) => ({ name, type: 'A' as const, class: 'IN' as const, ttl: 60, data: address })),
    ...(options.records ?? []),
    ...(options.raw ?? []).map((r) => ({ name: r.name, type: `UNKNOWN_${RAW_TYPES[r.type]}`, class: 'IN', ttl: r.ttl ?? 60, data: r.rdata }) as unknown as dnsPacket.Answer),
  ];
  const typeOf = (record: dnsPacket.Answer): string => {
    const raw = /^UNKNOWN_(\d+)$/.exec(record.type);
    return raw ? (Object.entries(RAW_TYPES).find(([, n]) => n === Number(raw[1]))?.[0] ?? record.type) : record.type;
  };
  for (const record of records) {
    if ((record.type === 'A' || record.type === 'AAAA') && !LOOPBACK.test(String(record.data))) {
      throw new Error(`the DNS fixture answers loopback addresses only, not ${String(record.data)} for ${record.name}`);
    }
  }
  const asked: string[] = [];
  const transports: string[] = [];
  const answer = (query: Buffer, transport: string, limit = Infinity): Buffer => {
    const packet = dnsPacket.decode(query);
    const question = packet.questions![0]!;
    asked.push(question.name);
    transports.push(transport);
    const name = question.name.toLowerCase();
    const known = records.filter((r) => r.name.toLowerCase() === name);
    // A raw type dns-packet has no name for (HTTPS) is asked as UNKNOWN_<n>, as the record is kept.
    const matching = known.filter((r) => (question.type as string) === 'ANY' || typeOf(r) === question.type || r.type === question.type);
    const rd = (packet.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | rd | (known.length ? 0 : 3);
    const reply = (answers: dnsPacket.Answer[], extra = 0) => dnsPacket.encode({ type: 'response', id: packet.id, flags: flags | extra, questions: [question], answers });
    const full = reply(matching);
    const edns = packet.additionals?.find((r) => r.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    const max = limit === Infinity ? Infinity : Math.max(limit, edns?.udpPayloadSize ?? 0);
    return full.length > max ? reply([], dnsPacket.TRUNCATED_RESPONSE) : full;
  };

  const udpSocket = () => {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (query, peer) => socket.send(answer(query, 'udp', 512), peer.port, peer.address));
    return socket;
  };
  let udp = udpSocket();
  const streams = new Set<net.Socket>();
  const onStream = (transport: string) => (socket: net.Socket) => {
    streams.add(socket);
    socket.on('close', () => streams.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const query = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + query.length);
        const reply = answer(query, transport);
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(reply.length);
        socket.write(Buffer.concat([prefix, reply]));
      }
    });
  };
  // UDP and TCP on one port number, as DNS servers are reached: a few tries if TCP's is taken.
  const tcp = net.createServer(onStream('tcp'));
  let port = 0;
  for (let attempt = 0; port === 0; attempt++) {
    if (attempt > 0) udp = udpSocket();
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const candidate = udp.address().port;
    const bound = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(candidate, '127.0.0.1', () => resolve(true));
    });
    if (bound) port = candidate;
    else if (attempt >= 20) throw new Error('the DNS fixture found no port free for both UDP and TCP');
    else await new Promise<void>((resolve) => udp.close(() => resolve()));
  }

  const closers: Array<() => Promise<void>> = [];
  const fixture: DnsFixture = { port, lookup: undefined as never, asked, transports, close: async () => {} };
  if (options.tls) {
    const dot = tls.createServer(options.tls, onStream('tls'));
    await new Promise<void>((resolve) => dot.listen(0, '127.0.0.1', resolve));
    fixture.tlsPort = (dot.address() as net.AddressInfo).port;
    closers.push(() => new Promise((resolve) => dot.close(() => resolve())));
    const doh = https.createServer(options.tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'https://x');
        if (url.pathname !== '/dns-query') return res.writeHead(404).end('not here');
        const query = req.method === 'GET' ? Buffer.from(url.searchParams.get('dns') ?? '', 'base64url') : Buffer.concat(chunks);
        res.writeHead(200, { 'content-type': 'application/dns-message' }).end(answer(query, 'https'));
      });
    });
    await new Promise<void>((resolve) => doh.listen(0, '127.0.0.1', resolve));
    fixture.dohUrl = `https://127.0.0.1:${(doh.address() as net.AddressInfo).port}/dns-query`;
    closers.push(() => new Promise((resolve) => {
      doh.closeAllConnections();
      doh.close(() => resolve());
    }));
  }

  const resolver = new dns.Resolver();
  resolver.setServers([`127.0.0.1:${port}`]);
  fixture.lookup = ((host: string, lookupOptions: dns.LookupOptions | number | ((...a: unknown[]) => void), callback?: (...a: unknown[]) => void) => {
    const done = (typeof lookupOptions === 'function' ? lookupOptions : callback)!;
    const all = typeof lookupOptions === 'object' && lookupOptions.all === true;
    resolver.resolve4(host, (error, addresses) => {
      if (error || addresses.length === 0) return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host }));
      if (all) done(null, addresses.map((address) => ({ address, family: 4 })));
      else done(null, addresses[0], 4);
    });
  }) as unknown as HostLookup;
  fixture.close = async () => {
    for (const socket of streams) socket.destroy();
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    for (const close of closers) await close();
  };
  return fixture;
}
