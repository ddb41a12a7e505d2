/** The traffic record of one DNS query and its answer: `A api.example.test → NOERROR, 1 answer (udp)`. */
import type { Answer } from 'dns-packet';
import { characterString, nameText, typeName } from '../../../support/dns-text.js';
import { epochMsOf } from '../../traffic.js';
import type { TrafficRecord } from '../../types.js';

export interface DnsDetail {
  peer: string;
  transport: 'udp' | 'tcp';
  name: string;
  type: string;
  rcode: string;
  answers: number;
  truncated?: boolean;
  /** Set when the answer came from the upstream. */
  upstream?: string;
  /** Why the server would not answer what was asked (an UPDATE, a zone transfer). */
  why?: string;
  /** The answer records as zone-file lines (`api.example.test 60 IN A 127.0.0.1`), for the app's traffic table. */
  records?: string[];
}

/**
 * One answer record in zone-file form; data of any type dns-packet decodes is written out as text.
 * `rdata`: the record's bytes, when it came from the wire: a CAA value is written from them
 * (dns-packet reads it as UTF-8, which turns other bytes into U+FFFD).
 */
export function answerLine(answer: Answer, rdata?: Buffer): string {
  const type = typeName(answer.type);
  const data = type === 'CAA' && rdata !== undefined ? rdata : (answer as { data?: unknown }).data;
  return `${ownerText(answer.name)} ${(answer as { ttl?: number }).ttl ?? 0} IN ${type} ${dataText(type, data)}`;
}

/**
 * A record's owner as the question's name is written (`x\\032y.w.test`, the root `.`): a wildcard
 * answer's owner is the name asked. dns-packet's text of it: labels joined with dots.
 */
function ownerText(name: string): string {
  return nameText(name === '' || name === '.' ? [] : name.replace(/\.$/, '').split('.').map((label) => Buffer.from(label)));
}

/** A CAA record's bytes (flags, tag length, tag, value) as `0 issue "ca.test"`, the value escaped as kdig writes it. */
function caaText(rdata: Buffer): string {
  const tagEnd = 2 + (rdata[1] ?? 0);
  return `${rdata[0] ?? 0} ${rdata.subarray(2, tagEnd).toString('latin1')} "${characterString(rdata.subarray(tagEnd))}"`;
}

function dataText(type: string, data: unknown): string {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return type === 'CAA' ? caaText(data) : data.toString('utf8');
  // TXT strings as kdig shows them: bytes that are not UTF-8 as \DDD, not U+FFFD.
  if (Array.isArray(data)) return data.map((part) => `"${characterString(Buffer.isBuffer(part) ? part : Buffer.from(String(part)))}"`).join(' ');
  if (data !== null && typeof data === 'object') {
    const d = data as Record<string, unknown>;
    if ('exchange' in d) return `${String(d.preference)} ${String(d.exchange)}`; // MX
    if ('target' in d && 'port' in d) return `${String(d.priority ?? 0)} ${String(d.weight ?? 0)} ${String(d.port)} ${String(d.target)}`; // SRV
    if ('tag' in d) return `${String(d.flags ?? 0)} ${String(d.tag)} "${characterString(Buffer.from(String(d.value ?? '')))}"`; // CAA (an upstream's)
    return JSON.stringify(d);
  }
  return String(data ?? '');
}

export type DnsRecord = TrafficRecord<DnsDetail>;

export function dnsRecord(server: string, detail: DnsDetail, start: number, bytesIn: number, bytesOut: number): DnsRecord {
  const count = `${detail.answers} answer${detail.answers === 1 ? '' : 's'}`;
  const record: DnsRecord = {
    kind: 'dns',
    server,
    time: epochMsOf(start),
    direction: 'exchange',
    // A query without a question (FORMERR) says so, not ` → FORMERR`.
    summary: `${detail.name === '' ? 'no question' : `${detail.type} ${detail.name}`} → ${detail.rcode}, ${count} (${detail.transport})`,
    // NXDOMAIN, REFUSED and NOTIMP answer what was asked (the asker's matter, as a 4xx), as does
    // dropping a response sent as if a query; others are failures.
    level: detail.rcode === 'NOERROR' ? 'info' : ['NXDOMAIN', 'REFUSED', 'NOTIMP', 'BADVERS', 'not answered'].includes(detail.rcode) ? 'warning' : 'error',
    durationMs: performance.now() - start,
    bytesIn,
    bytesOut,
    detail,
  };
  if (detail.why !== undefined) record.note = detail.why;
  else if (detail.truncated) record.note = detail.transport === 'udp' ? 'truncated: over 512 bytes on UDP' : 'truncated: over 65,535 bytes, the most one DNS message holds';
  else if (detail.upstream !== undefined) record.note = `from upstream ${detail.upstream}`;
  return record;
}
