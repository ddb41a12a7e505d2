/**
 * DNS records as reports and scripts read them: one line each in zone-file form
 * (`name. 60 IN A 127.0.0.1`), and as JSON (`{name, type, class, ttl, data}` with the data of
 * dns-packet's shape, bytes as hex), which is what `pm.response.json()` gives.
 */
import { isUtf8 } from 'node:buffer';
import type { Answer } from 'dns-packet';
import { characterString, typeName } from '../../support/dns-text.js';

export interface DnsRecordJson {
  name: string;
  type: string;
  class: string;
  ttl: number;
  data: unknown;
}

const absolute = (name: string) => (name === '' || name.endsWith('.') ? name || '.' : `${name}.`);

/** The data of records made from their bytes, in zone-file form (TXT strings, CAA values…). */
const zoneTexts = new WeakMap<DnsRecordJson, string>();

/** Text from the wire: UTF-8 is its text; other bytes are shown as kdig shows them (`\255`), not as U+FFFD. */
const textOf = (bytes: Buffer) => (isUtf8(bytes) ? bytes.toString('utf8') : characterString(bytes));
const zoneString = (bytes: Buffer) => `"${characterString(bytes)}"`;

/** Reads character-strings (a length byte, then the bytes) from `offset`; undefined when the data ends too soon. */
function characterStrings(data: Buffer, offset: number, count: number): { strings: Buffer[]; end: number } | undefined {
  const strings: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const length = data[offset];
    if (length === undefined || offset + 1 + length > data.length) return undefined;
    strings.push(data.subarray(offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return { strings, end: offset };
}

/**
 * The types whose text dns-packet reads as UTF-8, read from the record's bytes instead: the JSON
 * data (dns-packet's shape) and its zone-file form.
 */
const FROM_BYTES: Record<string, (data: Buffer, decoded: Record<string, unknown>) => { json: unknown; zone: string } | undefined> = {
  CAA: (data) => {
    const tagLength = data[1];
    if (data.length < 2 || tagLength === undefined || 2 + tagLength > data.length) return undefined;
    const flags = data[0]!;
    const tag = data.subarray(2, 2 + tagLength).toString('latin1');
    const value = data.subarray(2 + tagLength);
    return { json: { flags, tag, value: textOf(value), issuerCritical: (flags & 0x80) !== 0 }, zone: `${flags} ${tag} ${zoneString(value)}` };
  },
  HINFO: (data) => {
    const read = characterStrings(data, 0, 2);
    if (!read) return undefined;
    const [cpu, os] = read.strings as [Buffer, Buffer];
    return { json: { cpu: textOf(cpu), os: textOf(os) }, zone: `${zoneString(cpu)} ${zoneString(os)}` };
  },
  NAPTR: (data, decoded) => {
    const read = data.length >= 4 ? characterStrings(data, 4, 3) : undefined;
    if (!read) return undefined;
    const order = data.readUInt16BE(0);
    const preference = data.readUInt16BE(2);
    const [flags, services, regexp] = read.strings as [Buffer, Buffer, Buffer];
    // The replacement is a name (never compressed, RFC 3403): dns-packet's reading of it is right.
    const replacement = String(decoded.replacement ?? '.');
    return {
      json: { order, preference, flags: textOf(flags), services: textOf(services), regexp: textOf(regexp), replacement },
      zone: `${order} ${preference} ${zoneString(flags)} ${zoneString(services)} ${zoneString(regexp)} ${absolute(replacement)}`,
    };
  },
};

/**
 * A record as JSON. `data`: the record's bytes (rdata.ts), when it came from the wire: types whose
 * text dns-packet would garble are read from them, and types without a zone-file form of their
 * own show them as they are (RFC 3597).
 */
export function recordJson(record: Answer, data?: Buffer): DnsRecordJson {
  const r = record as Answer & { class?: string; ttl?: number; data?: unknown };
  // HTTPS and SVCB as dig names them, another type dns-packet has no name for as TYPE<n> (RFC 3597).
  const json: DnsRecordJson = { name: r.name, type: typeName(r.type), class: r.class ?? 'IN', ttl: r.ttl ?? 0, data: jsonSafe(r.data) };
  if (['TXT', 'SPF'].includes(r.type) && Array.isArray(r.data) && r.data.every((chunk) => Buffer.isBuffer(chunk))) {
    const chunks = r.data as Buffer[];
    json.data = chunks.map(textOf);
    zoneTexts.set(json, chunks.map(zoneString).join(' '));
  } else if (data && Object.hasOwn(FROM_BYTES, r.type)) {
    const read = FROM_BYTES[r.type]!(data, (r.data ?? {}) as Record<string, unknown>);
    if (read) {
      json.data = read.json;
      zoneTexts.set(json, read.zone);
    }
  } else if (data && !ZONE_FORMS.has(r.type)) {
    zoneTexts.set(json, `\\# ${data.length}${data.length > 0 ? ` ${data.toString('hex')}` : ''}`);
  }
  return json;
}

/** Types zoneData writes in a form of their own; any other type is written as its bytes (RFC 3597). */
const ZONE_FORMS = new Set(['A', 'AAAA', 'CNAME', 'NS', 'PTR', 'DNAME', 'TXT', 'SPF', 'MX', 'SRV', 'CAA', 'SOA', 'HINFO', 'NAPTR']);

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
  const fromBytes = zoneTexts.get(record);
  if (fromBytes !== undefined) return fromBytes;
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
      return (Array.isArray(d) ? d : [d]).map((t) => zoneString(Buffer.from(String(t)))).join(' ');
    case 'MX':
      return `${d.preference} ${absolute(String(d.exchange))}`;
    case 'SRV':
      return `${d.priority} ${d.weight} ${d.port} ${absolute(String(d.target))}`;
    case 'CAA':
      return `${d.flags ?? 0} ${d.tag} ${zoneString(Buffer.from(String(d.value)))}`;
    case 'SOA':
      return `${absolute(String(d.mname))} ${absolute(String(d.rname))} ${d.serial} ${d.refresh} ${d.retry} ${d.expire} ${d.minimum}`;
    case 'HINFO':
      return `${zoneString(Buffer.from(String(d.cpu)))} ${zoneString(Buffer.from(String(d.os)))}`;
    case 'NAPTR':
      return `${d.order} ${d.preference} ${[d.flags, d.services, d.regexp].map((t) => zoneString(Buffer.from(String(t ?? '')))).join(' ')} ${absolute(String(d.replacement ?? '.'))}`;
    default: {
      const hex = typeof d === 'string' && /^[0-9a-f]*$/.test(d) ? d : Buffer.from(JSON.stringify(d ?? '')).toString('hex');
      return `\\# ${hex.length / 2} ${hex}`;
    }
  }
}
