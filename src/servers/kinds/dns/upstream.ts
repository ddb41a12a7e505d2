/**
 * Where the DNS server asks for names without a record (spec 2.11 `upstream`): nowhere (empty:
 * NXDOMAIN), this computer's resolver (`system`: the first server Node's resolver uses), or a
 * server address `host` / `host:port`. The query is forwarded as is over UDP, the answer relayed.
 * A CNAME chain of the records that ends at a name without records is completed by asking it.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { Deframer, lengthPrefixed } from '../../../support/byte-framing.js';
import { splitDnsAddress, systemDnsServers } from '../../../support/dns-address.js';
import { ServerError } from '../../errors.js';

/** A silent upstream: the client is answered SERVFAIL after this. */
export const UPSTREAM_TIMEOUT_MS = 2000;

export interface Upstream {
  host: string;
  port: number;
  label: string;
}

export function parseUpstream(text: string, file: string): Upstream | 'system' | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  if (value === 'system') return 'system';
  // `::1` and `2001:db8::1` are addresses alone (read as host `:` and port 1, they were refused).
  const { host, port: portText } = splitDnsAddress(value);
  const port = portText === undefined ? 53 : /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!net.isIP(host) || !(port >= 1 && port <= 65535)) {
    throw new ServerError(`${file}: dns.upstream: ${JSON.stringify(value)} is not empty, system, or a server address such as 1.1.1.1 or 127.0.0.1:5353.`);
  }
  return { host, port, label: value };
}

/** The system resolver's first server, read when asked (it may change while running). */
export function systemUpstream(): Upstream | undefined {
  const first = systemDnsServers()[0];
  return first === undefined ? undefined : { ...first, label: 'system' };
}

/**
 * Sends the query over the transport the client used and resolves with the raw answer, or
 * undefined on a timeout or error. A client on TCP is asked over TCP because its answer may be
 * too big for UDP: relayed from UDP it would come truncated, and the client, already on TCP,
 * could not ask again for the whole of it.
 */
export function forward(query: Buffer, upstream: Upstream, transport: 'udp' | 'tcp'): Promise<Buffer | undefined> {
  return transport === 'tcp' ? forwardTcp(query, upstream) : forwardUdp(query, upstream);
}

function forwardUdp(query: Buffer, upstream: Upstream): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket(net.isIPv6(upstream.host) ? 'udp6' : 'udp4');
    const done = (answer: Buffer | undefined) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer);
    };
    const timer = setTimeout(() => done(undefined), UPSTREAM_TIMEOUT_MS);
    socket.on('error', () => done(undefined));
    socket.once('message', (answer) => done(answer));
    socket.send(query, upstream.port, upstream.host);
  });
}

/** DNS over TCP: the query and the answer each with a two-byte length prefix (RFC 1035 4.2.2). */
function forwardTcp(query: Buffer, upstream: Upstream): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: upstream.host, port: upstream.port });
    const deframer = new Deframer({ framing: 'lengthPrefixed', lengthBytes: 2 });
    const done = (answer: Buffer | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(undefined), UPSTREAM_TIMEOUT_MS);
    socket.on('error', () => done(undefined));
    socket.on('close', () => done(undefined));
    socket.on('data', (chunk: Buffer) => {
      const [answer] = deframer.push(chunk);
      if (answer !== undefined) done(answer.content);
    });
    socket.write(lengthPrefixed(query, 2));
  });
}

/** The query for the end of a CNAME chain that left the records: the type asked, recursion desired, EDNS as the client asked. */
export function chainQuery(name: string, question: dnsPacket.Question, edns: { additionals?: dnsPacket.Answer[] }): Buffer {
  const id = randomInt(65_536); // not guessable, as a resolver's ids are
  return Buffer.from(dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ name, type: question.type, class: 'IN' }], ...edns }));
}

/**
 * The upstream's answer to a chain's end: its records and rcode, and whether it came truncated
 * (the client then asks again over TCP, and the chain is completed over TCP). Undefined when it is
 * no answer to that query (another id, not decodable): the client gets SERVFAIL.
 */
export function chainRest(answer: Buffer, sent: Buffer): { answers: dnsPacket.Answer[]; rcode: number; truncated: boolean } | undefined {
  try {
    const decoded = dnsPacket.decode(answer);
    if (decoded.type !== 'response' || decoded.id !== sent.readUInt16BE(0)) return undefined;
    const flags = decoded.flags ?? 0;
    return { answers: decoded.answers ?? [], rcode: flags & 15, truncated: (flags & dnsPacket.TRUNCATED_RESPONSE) !== 0 };
  } catch {
    return undefined;
  }
}
