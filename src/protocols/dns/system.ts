/**
 * `dns.server` empty: this computer's resolver through node's `dns`. A and AAAA go through the
 * operating system's lookup (getaddrinfo: the hosts file, then its DNS), as every program on the
 * computer resolves names; the other types node has a call for ask the servers the system is
 * configured with. The OS gives no flags or TTLs for lookups (ttl 0), and an rcode only by its
 * error: no such name is NXDOMAIN, no records is NOERROR with no answer. Types node cannot ask
 * (NAPTR, HTTPS, SVCB, DS, DNSKEY, ANY…) are asked of those same servers on the wire (dns.ts).
 */
import dns from 'node:dns';
import type { DnsQuestion } from './question.js';
import { recordJson, type DnsRecordJson } from './records.js';
import { SendError } from '../send-error.js';

export interface SystemAnswer {
  rcode: number;
  records: DnsRecordJson[];
}

/** The types node's resolver asks here; any other is asked of the configured servers on the wire. */
const NODE_TYPES = new Set(['A', 'AAAA', 'CNAME', 'NS', 'PTR', 'TXT', 'MX', 'SRV', 'CAA', 'SOA']);
export const askedThroughNode = (type: string): boolean => NODE_TYPES.has(type);

const RCODE_OF: Record<string, number> = { ENOTFOUND: 3, ENODATA: 0, ESERVFAIL: 2, EREFUSED: 5, ENOTIMP: 4, EFORMERR: 1, EAI_NODATA: 0 };

export async function systemResolve(question: Pick<DnsQuestion, 'name' | 'type'>, resolver: dns.promises.Resolver): Promise<SystemAnswer> {
  try {
    return { rcode: 0, records: await ask(question, resolver) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code in RCODE_OF) return { rcode: RCODE_OF[code]!, records: [] };
    if (code === 'ETIMEOUT') throw new SendError(`the system resolver did not answer for ${question.name} (${code}).`, 'timeout');
    if (code === 'ECONNREFUSED') throw new SendError(`the system resolver's DNS server refused the connection (${code}).`, 'refused');
    throw new SendError(`the system resolver failed for ${question.name}: ${(error as Error).message}.`, 'other');
  }
}

async function ask({ name, type }: Pick<DnsQuestion, 'name' | 'type'>, resolver: dns.promises.Resolver): Promise<DnsRecordJson[]> {
  const record = (data: unknown, ttl = 0, recordType: string = type): DnsRecordJson => ({ name, type: recordType, class: 'IN', ttl, data });
  switch (type) {
    case 'A':
    case 'AAAA': {
      const found = await dns.promises.lookup(name, { family: type === 'A' ? 4 : 6, all: true });
      return found.map((a) => record(a.address));
    }
    case 'CNAME':
      return (await resolver.resolveCname(name)).map((d) => record(d));
    case 'NS':
      return (await resolver.resolveNs(name)).map((d) => record(d));
    case 'PTR':
      return (await resolver.resolvePtr(name)).map((d) => record(d));
    case 'TXT':
      // node gives each string's bytes as Latin-1 characters: back to bytes, then read as the
      // wire's are (UTF-8 text, else \DDD escapes), not shown as Ã© for é.
      return (await resolver.resolveTxt(name)).map((chunks) => recordJson({ name, type: 'TXT', class: 'IN', ttl: 0, data: chunks.map((chunk) => Buffer.from(chunk, 'latin1')) }));
    case 'MX':
      return (await resolver.resolveMx(name)).map((m) => record({ preference: m.priority, exchange: m.exchange }));
    case 'SRV':
      return (await resolver.resolveSrv(name)).map((s) => record({ priority: s.priority, weight: s.weight, port: s.port, target: s.name }));
    case 'CAA':
      // As TXT: node gives the tag and value as Latin-1 characters, one per byte; the record is read from those bytes
      // (the data given beside them is only its type's shape).
      return (await resolver.resolveCaa(name)).map((c) => {
        const tag = Object.keys(c).find((k) => k !== 'critical')!;
        const value = Buffer.from((c as unknown as Record<string, string>)[tag]!, 'latin1');
        const tagBytes = Buffer.from(tag, 'latin1');
        return recordJson({ name, type: 'CAA', class: 'IN', ttl: 0, data: { flags: c.critical, tag: 'issue', value: '' } }, Buffer.concat([Buffer.from([c.critical & 0xff, tagBytes.length]), tagBytes, value]));
      });
    case 'SOA': {
      const s = await resolver.resolveSoa(name);
      return [record({ mname: s.nsname, rname: s.hostmaster, serial: s.serial, refresh: s.refresh, retry: s.retry, expire: s.expire, minimum: s.minttl }, s.minttl)];
    }
    default:
      throw new SendError(`node's resolver does not ask for ${type}: it is asked of the system's DNS servers on the wire.`, 'other');
  }
}
