/**
 * DNS records as reports and scripts read them: one line each in zone-file form
 * (`name. 60 IN A 127.0.0.1`), and as JSON (`{name, type, class, ttl, data}` with the data of
 * dns-packet's shape, bytes as hex), which is what `pm.response.json()` gives.
 */
import { isUtf8 } from 'node:buffer';
import type { Answer } from 'dns-packet';
import { characterString } from '../../support/dns-text.js';

export interface DnsRecordJson {
  name: string;
  type: string;
  class: string;
  ttl: number;
  data: unknown;
}

const absolute = (name: string) => (name === '' || name.endsWith('.') ? name || '.' : `${name}.`);
const quoted = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;

/** TXT strings of records read from the wire, in zone-file form, made from their bytes. */
const zoneTexts = new WeakMap<DnsRecordJson, string>();

export function recordJson(record: Answer): DnsRecordJson {
  const r = record as Answer & { class?: string; ttl?: number; data?: unknown };
  const json: DnsRecordJson = { name: r.name, type: r.type, class: r.class ?? 'IN', ttl: r.ttl ?? 0, data: jsonSafe(r.data) };
  if (['TXT', 'SPF'].includes(r.type) && Array.isArray(r.data) && r.data.every((chunk) => Buffer.isBuffer(chunk))) {
    const chunks = r.data as Buffer[];
    // A string that is UTF-8 is its text; one that is not is shown as kdig shows it, not with U+FFFD.
    json.data = chunks.map((chunk) => (isUtf8(chunk) ? chunk.toString('utf8') : characterString(chunk)));
    zoneTexts.set(json, chunks.map((chunk) => `"${characterString(chunk)}"`).join(' '));
  }
  return json;
}

function jsonSafe(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return value.toString('hex');
  if (Array.isArray(value)) return value.map((item) => (Buffer.isBuffer(item) ? item.toString('utf8') : jsonSafe(item)));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}

/** The record in zone-file form; types without a form of their own use RFC 3597's `\# length hex`. */
export function zoneLine(record: DnsRecordJson): string {
  return `${absolute(record.name)} ${record.ttl} ${record.class} ${record.type} ${zoneData(record)}`;
}

function zoneData(record: DnsRecordJson): string {
  const d = record.data as Record<string, unknown> & string & unknown[];
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return String(d);
    case 'CNAME':
    case 'NS':
    case 'PTR':
    case 'DNAME':
      return absolute(String(d));
    case 'TXT':
    case 'SPF':
      return zoneTexts.get(record) ?? (Array.isArray(d) ? d : [d]).map((t) => `"${characterString(Buffer.from(String(t)))}"`).join(' ');
    case 'MX':
      return `${d.preference} ${absolute(String(d.exchange))}`;
    case 'SRV':
      return `${d.priority} ${d.weight} ${d.port} ${absolute(String(d.target))}`;
    case 'CAA':
      return `${d.flags ?? 0} ${d.tag} ${quoted(String(d.value))}`;
    case 'SOA':
      return `${absolute(String(d.mname))} ${absolute(String(d.rname))} ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`;
    case 'HINFO':
      return `${quoted(String(d.cpu))} ${quoted(String(d.os))}`;
    default: {
      const hex = typeof d === 'string' && /^[0-9a-f]*$/.test(d) ? d : Buffer.from(JSON.stringify(d ?? '')).toString('hex');
      return `\\# ${hex.length / 2} ${hex}`;
    }
  }
}
