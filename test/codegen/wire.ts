/**
 * What a target's code must put on the wire for a prepared request (what Ferry sends,
 * less what the spec's rules leave to the library), and the comparison with what the
 * echo server recorded. Written apart from src/codegen so the tests do not grade the
 * code with its own rules.
 */
import fs from 'node:fs';
import type { PreparedRequest } from '../../src/request/prepared.js';
import { FILE_PART_CONTENT_TYPE } from '../../src/model/constants.js';
import type { LibraryRules } from '../../src/codegen/index.js';
import type { Recorded } from '../support/servers/index.js';

/** Headers every library manages itself: never compared. */
const TRANSPORT_HEADERS = ['host', 'content-length', 'transfer-encoding', 'expect'];

/** Headers about one connection, which Ferry's client never sends (src/protocols/http.ts drops them). */
const CONNECTION_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'expect'];

/** Who sends: a target's library, or Ferry itself. */
export interface Sender {
  rules: LibraryRules;
}

export interface WirePart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export interface Wire {
  method: string;
  path: string[];
  query: [string, string][];
  headers: Record<string, string[]>;
  body: Buffer | WirePart[];
}

function pctDecode(text: string): string {
  const chunks = text.split(/(%[0-9A-Fa-f]{2})/).map((piece) =>
    /^%[0-9A-Fa-f]{2}$/.test(piece) ? Buffer.from([parseInt(piece.slice(1), 16)]) : Buffer.from(piece, 'utf8'),
  );
  return Buffer.concat(chunks).toString('utf8');
}

/** Path segments and query pairs, percent-decoded: URLs that differ only in optional escaping compare equal. */
export function splitTarget(target: string): { path: string[]; query: [string, string][] } {
  const q = target.indexOf('?');
  const pathPart = q >= 0 ? target.slice(0, q) : target;
  const queryPart = q >= 0 ? target.slice(q + 1) : '';
  return {
    path: pathPart.split('/').map(pctDecode),
    query: queryPart === '' ? [] : queryPart.split('&').map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 ? [pctDecode(pair.slice(0, eq)), pctDecode(pair.slice(eq + 1))] : [pctDecode(pair), ''];
    }),
  };
}

function group(pairs: [string, string][]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of pairs) (out[name.toLowerCase()] ??= []).push(value);
  return out;
}

/** What the target's code must send for this prepared request. */
export function expectedWire(prepared: PreparedRequest, target: Sender): Wire {
  const rules = target.rules;
  const refused = new Set(rules.refusedHeaders ?? []);
  const pairs: [string, string][] = [];
  for (const h of prepared.headers) {
    const name = h.name.toLowerCase();
    if (name === 'host' || name === 'content-length' || refused.has(name) || CONNECTION_HEADERS.includes(name)) continue;
    if (name === 'accept-encoding' && rules.decompresses) continue;
    if (name === 'content-type' && prepared.body.kind === 'multipart') continue;
    pairs.push([h.name, h.value]);
  }
  let headers = group(pairs);
  const joined = rules.repeatedHeaders === 'join' ? undefined : new Set(rules.joinedHeaders ?? []);
  headers = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, joined && !joined.has(k) ? v : [v.join(k === 'cookie' ? '; ' : ', ')]]),
  );
  const url = new URL(prepared.url);
  const { path, query } = splitTarget(url.pathname + url.search);
  const noBody = rules.noBodyWith.includes(prepared.method.toUpperCase());
  let body: Buffer | WirePart[] = Buffer.alloc(0);
  if (!noBody && prepared.body.kind === 'bytes') body = Buffer.from(prepared.body.bytes);
  if (!noBody && prepared.body.kind === 'multipart') {
    body = prepared.body.parts.map((p) => ({
      name: p.name,
      ...(p.file ? { filename: p.file.path.split('/').pop()! } : {}),
      ...(p.contentType || p.file ? { contentType: p.contentType || FILE_PART_CONTENT_TYPE } : {}),
      data: p.file ? fs.readFileSync(p.file.absolutePath) : Buffer.from(p.value ?? '', 'utf8'),
    }));
  }
  return { method: prepared.method, path, query, headers, body };
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  return value.slice(1, -1).replace(/\\(.)/g, '$1').replace(/%22/g, '"').replace(/%0D/g, '\r').replace(/%0A/g, '\n');
}

export function parseMultipart(body: Buffer, boundary: string): WirePart[] {
  const text = body.toString('latin1');
  const delimiter = `--${boundary}`;
  const sections = text.split(`\r\n${delimiter}`);
  const first = sections[0]!;
  if (!first.startsWith(delimiter)) throw new Error(`multipart body does not start with its boundary: ${JSON.stringify(first.slice(0, 80))}`);
  sections[0] = first.slice(delimiter.length);
  const parts: WirePart[] = [];
  for (const section of sections) {
    if (section.startsWith('--')) break;
    const headEnd = section.indexOf('\r\n\r\n');
    const head = section.slice(2, headEnd);
    const data = Buffer.from(section.slice(headEnd + 4), 'latin1');
    const part: WirePart = { name: '', data };
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8');
      if (name === 'content-type') part.contentType = value;
      if (name === 'content-disposition') {
        const params = value.match(/;\s*(\w+\*?)=("(?:[^"\\]|\\.)*"|[^;]*)/g) ?? [];
        for (const param of params) {
          const m = /;\s*(\w+\*?)=(.*)$/s.exec(param)!;
          if (m[1] === 'name') part.name = unquote(m[2]!);
          if (m[1] === 'filename') part.filename = unquote(m[2]!);
        }
      }
    }
    parts.push(part);
  }
  return parts;
}

/** The recorded request in the same shape, less what the library adds by itself. */
export function receivedWire(recorded: Recorded, target: Sender, expected: Wire): Wire {
  const all = group(recorded.headers);
  const headers: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(all)) {
    if (TRANSPORT_HEADERS.includes(name)) continue;
    if (target.rules.addsHeaders.includes(name) && !(name in expected.headers)) continue;
    headers[name] = values;
  }
  let body: Buffer | WirePart[] = recorded.body;
  if (Array.isArray(expected.body)) {
    const type = headers['content-type']?.[0] ?? '';
    const m = /^multipart\/form-data;\s*boundary="?([^";]+)"?/i.exec(type);
    if (!m) throw new Error(`expected a multipart Content-Type, got ${JSON.stringify(type)}`);
    delete headers['content-type'];
    body = parseMultipart(recorded.body, m[1]!);
  }
  const { path, query } = splitTarget(recorded.url);
  return { method: recorded.method, path, query, headers, body };
}
