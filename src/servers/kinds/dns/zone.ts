/**
 * The DNS server's records (spec 2.11 `dns`), read once per load: names lower-cased without the
 * trailing dot, values parsed from zone-file form into dns-packet's shapes (a bad one is a load
 * error naming the record). Never templated. `lookup` follows CNAME chains within the zone and
 * `*.` wildcards (an exact name wins; a wildcard stands for one or more labels, not its parent).
 * A name without records but with names below it (`_tcp.example.test` under
 * `_sip._tcp.example.test`: an empty non-terminal) exists, as in any zone: no NXDOMAIN for it.
 */
import net from 'node:net';
import type { Answer } from 'dns-packet';
import type { ServerFile } from '../../../model/index.js';
import { ServerError } from '../../errors.js';
import { asciiDnsName } from '../../../support/dns-idna.js';

type RecordSource = NonNullable<ServerFile['dns']>['records'][number];
/** `wire`: the type dns-packet encodes `data` as, when not `type` (CAA goes as its bytes). */
type ZoneRecord = { type: RecordSource['type']; wire: string; ttl: number; data: unknown };

/** The most bytes a record's data can be: its length on the wire has two bytes. */
const MAX_RDATA = 65_535;

/** Longest CNAME chain followed; a loop ends here too. */
const MAX_CHAIN = 8;

export interface Lookup {
  answers: Answer[];
  /** The asked name has no record at all (and no chain led anywhere): the upstream is asked, if any. */
  unknown: boolean;
  /**
   * The last name reached (the one asked, or where a CNAME chain ended) has no record and no name
   * below it: NXDOMAIN unless the upstream answers. RFC 6604: a chain's end decides the rcode;
   * RFC 8020: a name with records below it is no NXDOMAIN (a resolver takes NXDOMAIN to mean
   * nothing below exists either, and would not ask for `_sip._tcp.example.test` after it).
   */
  nxdomain: boolean;
  /** A CNAME chain ended at this name (as the CNAME writes it), which has no record: with an upstream, asked of it. */
  chainEnd?: string;
}

export class Zone {
  readonly #exact = new Map<string, ZoneRecord[]>();
  /** `*.example.test` → the records, keyed by `example.test`. */
  readonly #wild = new Map<string, ZoneRecord[]>();
  /** Names with records below them (a wildcard's parent too), the root aside: they exist though they have none. */
  readonly #above = new Set<string>();

  constructor(records: readonly RecordSource[], file: string) {
    records.forEach((r, i) => {
      if (!r.enabled) return;
      const where = `${file}: dns.records[${i}] (${r.name || 'no name'} ${r.type})`;
      let name = normalize(r.name);
      if (name === '' || name === '*') throw new ServerError(`${where}: name is empty; give a name such as api.example.test or *.example.test.`);
      // A name no query can ask (a label over 63 bytes, an empty one) would never answer: said at load.
      checkedName(name, (form) => {
        throw new ServerError(`${where}: name ${JSON.stringify(r.name)} is not ${form}.`);
      }, 'a name a query can ask');
      const value = r.value.trim();
      const data = parseValue(r.type, value, where);
      const size = rdataLength(data);
      if (size > MAX_RDATA) {
        const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
        throw new ServerError(`${where}: value ${JSON.stringify(shown)} is ${size.toLocaleString('en-US')} bytes of record data; a record holds at most 65,535 (split it into several records).`);
      }
      const record = { type: r.type, wire: r.type === 'CAA' ? CAA_WIRE : r.type, ttl: r.ttl, data };
      const table = name.startsWith('*.') ? this.#wild : this.#exact;
      if (name.startsWith('*.')) name = name.slice(2);
      const list = table.get(name) ?? [];
      list.push(record);
      table.set(name, list);
      // `*.apps.example.test` makes apps.example.test a name with one below it, as a.b.c makes b.c.
      for (let at = table === this.#wild ? name : parentOf(name); at !== '' && !this.#above.has(at); at = parentOf(at)) this.#above.add(at);
    });
  }

  lookup(qname: string, qtype: string): Lookup {
    const answers: Answer[] = [];
    let name = normalize(qname);
    let owner = qname; // answers carry the name as asked
    // A loop (a → b → a) ends where it comes back, each CNAME given once, as Knot answers it.
    const seen = new Set<string>();
    for (let hop = 0; hop < MAX_CHAIN && !seen.has(name); hop++) {
      seen.add(name);
      const records = this.#at(name);
      if (records === undefined) {
        const nxdomain = !this.#above.has(name);
        return hop === 0 ? { answers, unknown: true, nxdomain } : { answers, unknown: false, nxdomain, chainEnd: owner };
      }
      const matching = records.filter((r) => r.type === qtype || qtype === 'ANY');
      if (matching.length > 0) {
        for (const r of matching) answers.push({ name: owner, type: r.wire, ttl: r.ttl, class: 'IN', data: r.data } as Answer);
        return { answers, unknown: false, nxdomain: false };
      }
      const cname = records.find((r) => r.type === 'CNAME');
      if (cname === undefined) return { answers, unknown: false, nxdomain: false }; // the name exists, not this type
      answers.push({ name: owner, type: 'CNAME', ttl: cname.ttl, class: 'IN', data: cname.data as string });
      name = normalize(cname.data as string);
      owner = cname.data as string;
    }
    return { answers, unknown: false, nxdomain: false };
  }

  #at(name: string): ZoneRecord[] | undefined {
    const exact = this.#exact.get(name);
    if (exact !== undefined) return exact;
    for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
      const wild = this.#wild.get(name.slice(dot + 1));
      if (wild !== undefined) return wild;
    }
    return undefined;
  }
}

/** `a.b.c` → `b.c`; a single label → '' (the root). */
function parentOf(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1);
}

/** Lower-cased without the trailing dot; labels beyond ASCII in their IDNA form, as queries ask them (a label IDNA cannot write stays as typed). */
export function normalize(name: string): string {
  const trimmed = name.trim().toLowerCase().replace(/\.$/, '');
  const ascii = asciiDnsName(trimmed);
  return 'name' in ascii ? ascii.name : trimmed;
}

function parseValue(type: RecordSource['type'], value: string, where: string): unknown {
  const fail = (form: string): never => {
    throw new ServerError(`${where}: value ${JSON.stringify(value)} is not ${form}.`);
  };
  const parts = value.split(/\s+/);
  const hostName = (text: string | undefined) => (text !== undefined && /^[A-Za-z0-9_*.-]+$/.test(text) ? checkedName(text, fail) : fail('a host name'));
  const uint16 = (text: string | undefined, form: string) => (text !== undefined && /^\d+$/.test(text) && Number(text) <= 65535 ? Number(text) : fail(`${form}: "${text}" is not a number from 0 to 65535`));
  const mx = '"priority host", such as "10 mail.example.test"';
  const srv = '"priority weight port target", such as "10 5 5060 sip.example.test"';
  switch (type) {
    case 'A':
      return net.isIPv4(value) ? value : fail('an IPv4 address such as 127.0.0.1');
    case 'AAAA':
      // A zone (`fe80::1%eth0`) names an interface of this computer: no record can hold it.
      return net.isIPv6(value) && !value.includes('%') ? value : fail('an IPv6 address such as ::1');
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return parts.length === 1 ? hostName(value) : fail('one host name');
    case 'MX':
      return parts.length === 2 ? { preference: uint16(parts[0], mx), exchange: hostName(parts[1]) } : fail(mx);
    case 'SRV':
      return parts.length === 4
        ? { priority: uint16(parts[0], srv), weight: uint16(parts[1], srv), port: uint16(parts[2], srv), target: hostName(parts[3]) }
        : fail(srv);
    case 'CAA':
      return caaData(value, fail);
    case 'TXT':
      return txtStrings(value, fail);
  }
}

/** CAA goes on the wire as its bytes (type 257): dns-packet writes a CAA value as UTF-8 text and its flags as 0 or 128 only. */
const CAA_WIRE = 'UNKNOWN_257';

/** The bytes of a record's data where they can pass 65,535 (TXT strings, a CAA value); names keep others short. */
function rdataLength(data: unknown): number {
  if (Buffer.isBuffer(data)) return data.length;
  if (Array.isArray(data)) return data.reduce((sum: number, part: Buffer) => sum + 1 + part.length, 0);
  return 0;
}

/**
 * A host name as dns-packet writes it, checked: without its trailing dot (`.` alone is the root,
 * as a null MX or an SRV "no service" has it), labels of 1 to 63 bytes, at most 255 bytes in all
 * (RFC 1035 2.3.4). dns-packet writes a longer label's length over the bits that mark a pointer
 * and an empty one as the name's end, so the answer would not be what the file says.
 */
function checkedName(text: string, fail: (form: string) => never, what = 'a host name'): string {
  const name = text === '.' ? '' : text.replace(/\.$/, '');
  if (name === '') return name;
  let bytes = 1;
  for (const label of name.split('.')) {
    if (label === '') fail(`${what}: it has an empty label (two dots in a row)`);
    const length = Buffer.byteLength(label);
    if (length > 63) fail(`${what}: its label "${label}" is ${length} bytes; a label holds at most 63`);
    bytes += 1 + length;
  }
  return bytes > 255 ? fail(`${what}: it is ${bytes} bytes; a name holds at most 255`) : name;
}

/**
 * `flags tag value` (RFC 8659 4.1.1) → the record's bytes: the value a quoted string, or the rest
 * of the text as written, its escapes (`\DDD`, `\"`) undone as in a TXT string.
 */
function caaData(value: string, fail: (form: string) => never): Buffer {
  const form = '"flags tag value", such as 0 issue "letsencrypt.org"';
  const m = /^(\d{1,3})\s+([A-Za-z0-9]+)\s+(.*)$/s.exec(value);
  if (!m || Number(m[1]) > 255) return fail(form);
  const tag = m[2]!;
  if (tag.length > 255) fail(`${form}: the tag is ${tag.length} characters; it holds at most 255`);
  let text = m[3]!;
  if (text.startsWith('"')) {
    const quoted = /^"((?:[^"\\]|\\.)*)"$/s.exec(text);
    if (!quoted) fail(`${form}: the value is not one quoted string (a quote is not closed, or text follows it)`);
    text = quoted![1]!;
  }
  return Buffer.concat([Buffer.from([Number(m[1]), tag.length]), Buffer.from(tag, 'latin1'), unescape(text, fail)]);
}

/**
 * `"one" "two"` → two strings (zone-file form: words outside quotes are strings too; `\"`, `\\`
 * and `\DDD`, a byte by its decimal value, are escapes); text not starting with a quote is one
 * string, spaces and all, its escapes undone. Each string is cut to DNS's 255-byte pieces.
 */
function txtStrings(value: string, fail: (form: string) => never): Buffer[] {
  const texts: Buffer[] = [];
  if (!value.startsWith('"')) texts.push(unescape(value, fail));
  else {
    const token = /\s*(?:"((?:[^"\\]|\\.)*)"|((?:[^\s"\\]|\\.)+))/y;
    let end = 0;
    for (let m = token.exec(value); m !== null; m = token.exec(value)) {
      texts.push(unescape(m[1] ?? m[2]!, fail));
      end = token.lastIndex;
    }
    if (value.slice(end).trim() !== '') fail('TXT text in zone-file form, such as "v=spf1 -all" "second string": a quote is not closed');
  }
  const out: Buffer[] = [];
  for (const bytes of texts) {
    if (bytes.length === 0) out.push(bytes);
    for (let at = 0; at < bytes.length; at += 255) out.push(bytes.subarray(at, at + 255));
  }
  return out;
}

/** One character-string's bytes (TXT, a CAA value), its escapes undone: `\DDD` is a byte, `\` before anything else keeps it. */
function unescape(text: string, fail: (form: string) => never): Buffer {
  const parts: Buffer[] = [];
  let last = 0;
  for (const m of text.matchAll(/\\(\d{3}|[^])/g)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'));
    const byte = /^\d{3}$/.test(m[1]!) ? Number(m[1]) : undefined;
    if (byte !== undefined && byte > 255) fail(`text in zone-file form: \\${m[1]} is not a byte (\\000 to \\255)`);
    parts.push(byte !== undefined ? Buffer.from([byte]) : Buffer.from(m[1]!, 'utf8'));
    last = m.index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}
