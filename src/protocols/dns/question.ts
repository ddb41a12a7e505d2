/**
 * A DNS request's question and server as typed (spec 2.8 `dns`), checked before anything is
 * sent: the record type must be one DNS knows, the name at most 253 characters with labels of at
 * most 63; a PTR question takes an IP address and asks its reverse name. `server`: empty = this
 * computer's resolver; `<ip>`, `<ip>:<port>` (UDP, TCP when truncated), `tcp://`, `tls://` (port
 * 853) or `https://…/dns-query`.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import type { RecordType } from 'dns-packet';
import type { PreparedRequest } from '../../request/prepared.js';
import { SendError } from '../send-error.js';
import { dnsAddressLabel, splitDnsAddress } from '../../support/dns-address.js';
import { typeName, wireTypeName } from '../../support/dns-text.js';
import { wherePrefix } from '../socket/options.js';
import { asciiDnsName } from '../../support/dns-idna.js';

const types = createRequire(import.meta.url)('dns-packet/types.js') as { toType(name: string): number; toString(type: number): string };

/** Types that are not questions one answer holds: zone transfers stream many, OPT is EDNS's pseudo-record. */
const NOT_ASKED = new Set(['AXFR', 'IXFR', 'OPT', 'TKEY', 'TSIG']);

export interface DnsQuestion {
  name: string;
  /** As people read it (`A`, `HTTPS`, `TYPE4242`); `wireType` is how dns-packet writes it. */
  type: string;
  wireType: RecordType;
}

export type DnsServer =
  | { transport: 'system' }
  | { transport: 'udp' | 'tcp' | 'tls'; host: string; port: number; label: string }
  | { transport: 'https'; url: string; label: string };

export function dnsQuestion(prepared: PreparedRequest): DnsQuestion {
  const where = wherePrefix(prepared);
  // An empty method was given the kind's methodWhenEmpty (A) when the request was prepared.
  const typed = prepared.method.trim().toUpperCase();
  // HTTPS and SVCB (which dns-packet has no name for) and RFC 3597's TYPE<n> by their numbers.
  const number = typed.startsWith('UNKNOWN_') ? 0 : types.toType(wireTypeName(typed));
  const type = typeName(types.toString(number));
  if (number === 0 || number > 65535 || NOT_ASKED.has(type)) {
    throw new SendError(`${where}"${prepared.method}" is not a DNS record type Ferry asks for; use one such as A, AAAA, CNAME, TXT, MX, NS, PTR, SRV, CAA, SOA or ANY.`, 'invalid');
  }
  let name = prepared.url.trim();
  if (type === 'PTR' && net.isIP(name)) name = reverseName(name);
  name = name.replace(/\.$/, '');
  if (/\s/.test(name)) throw new SendError(`${where}"${name}" holds a space; a DNS name does not.`, 'invalid');
  const ascii = asciiDnsName(name);
  if ('badLabel' in ascii) throw new SendError(`${where}the label "${ascii.badLabel}" of "${name}" cannot be written as an internationalized DNS name (IDNA); check the name.`, 'invalid');
  name = ascii.name;
  if (name.length > 253) throw new SendError(`${where}the name is ${name.length} characters; DNS names have at most 253.`, 'invalid');
  for (const label of name === '' ? [] : name.split('.')) {
    if (label.length === 0) throw new SendError(`${where}"${name}" has an empty label (two dots in a row, or a leading dot).`, 'invalid');
    if (label.length > 63) throw new SendError(`${where}the label "${label.slice(0, 20)}…" is ${label.length} characters; a DNS label has at most 63.`, 'invalid');
  }
  return { name, type, wireType: wireTypeName(type) as RecordType };
}

/** `192.0.2.1` → `1.2.0.192.in-addr.arpa`; IPv6 by nibbles under `ip6.arpa`. */
export function reverseName(ip: string): string {
  if (net.isIPv4(ip)) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head, tail = ''] = ip.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const missing = 8 - groups(head!).length - groups(tail).length;
  const full = [...groups(head!), ...Array(ip.includes('::') ? missing : 0).fill('0'), ...groups(tail)].map((g) => g.padStart(4, '0')).join('');
  return `${[...full].reverse().join('.')}.ip6.arpa`;
}

export function dnsServer(prepared: PreparedRequest): DnsServer {
  const where = wherePrefix(prepared);
  const typed = String(prepared.options?.server ?? '').trim();
  if (typed === '') return { transport: 'system' };
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(typed)?.[1]?.toLowerCase();
  if (scheme === 'https') {
    try {
      return { transport: 'https', url: new URL(typed).href, label: typed };
    } catch {
      throw new SendError(`${where}dns.server "${typed}" is not a valid URL.`, 'invalid');
    }
  }
  if (scheme !== undefined && scheme !== 'tcp' && scheme !== 'tls' && scheme !== 'udp') {
    throw new SendError(`${where}dns.server "${typed}" has the scheme ${scheme}://; use <ip>, <ip>:<port>, tcp://<ip>, tls://<ip> or https://<host>/dns-query.`, 'invalid');
  }
  const transport = (scheme ?? 'udp') as 'udp' | 'tcp' | 'tls';
  const rest = scheme ? typed.slice(scheme.length + 3).replace(/\/$/, '') : typed;
  // `[::1]:53`, `::1` (an IPv6 address alone), `127.0.0.1:53` or `127.0.0.1`.
  const { host, port: portText } = splitDnsAddress(rest);
  const port = portText === undefined ? (transport === 'tls' ? 853 : 53) : Number(portText);
  if (!/^\d+$/.test(portText ?? '53') || port < 1 || port > 65535) throw new SendError(`${where}dns.server "${typed}": port ${portText} is out of range; give a port from 1 to 65535.`, 'invalid');
  if (!net.isIP(host)) throw new SendError(`${where}dns.server "${typed}" is not an IP address; name the server by its address (a name would need a resolver to find it).`, 'invalid');
  return { transport, host, port, label: `${transport === 'udp' ? '' : `${transport}://`}${dnsAddressLabel(host, port)}` };
}
