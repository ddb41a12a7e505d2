/**
 * Independent checks of the signing auth types, for test servers: each recomputes the signature
 * from the received request by its specification (RFC 5849, RFC 7515/7518, Hawk 1, MS-NLMP),
 * with Node's crypto only, never with the library Ferry signs with.
 */
import { createHash, createHmac, verify, constants, type KeyObject } from 'node:crypto';

export interface Received {
  method: string;
  /** Path and query as sent. */
  target: string;
  host: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function headerParams(value: string, scheme: string): Record<string, string> {
  const out: Record<string, string> = {};
  const rest = value.slice(scheme.length).trim();
  for (const m of rest.matchAll(/([A-Za-z_]+)="((?:[^"\\]|\\.)*)"/g)) out[m[1]!] = m[2]!.replace(/\\(.)/g, '$1');
  return out;
}

/** RFC 5849 section 3.4: the signature base string of a received request, and its oauth_* parameters. */
export function oauth1Check(r: Received, secrets: { consumerSecret: string; tokenSecret: string; publicKey?: KeyObject; scheme?: 'http' | 'https' }): { ok: boolean; params: Record<string, string>; where: 'header' | 'query' | 'body' } {
  const pairs: Array<[string, string]> = [];
  const [pathPart, query = ''] = r.target.split(/\?(.*)/s) as [string, string?];
  for (const [k, v] of new URLSearchParams(query)) pairs.push([k, v]);
  const contentType = String(r.headers['content-type'] ?? '');
  if (/application\/x-www-form-urlencoded/i.test(contentType)) for (const [k, v] of new URLSearchParams(r.body.toString('utf8'))) pairs.push([k, v]);
  const authorization = String(r.headers.authorization ?? '');
  let where: 'header' | 'query' | 'body' = pairs.some(([k]) => k === 'oauth_signature') ? (new URLSearchParams(query).has('oauth_signature') ? 'query' : 'body') : 'header';
  if (authorization.startsWith('OAuth ')) {
    where = 'header';
    for (const [k, v] of Object.entries(headerParams(authorization, 'OAuth'))) if (k !== 'realm') pairs.push([decodeURIComponent(k), decodeURIComponent(v)]);
  }
  const params = Object.fromEntries(pairs.filter(([k]) => k.startsWith('oauth_')));
  const signature = params.oauth_signature ?? '';
  const normalized = pairs
    .filter(([k]) => k !== 'oauth_signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const base = `${r.method.toUpperCase()}&${rfc3986(`${secrets.scheme ?? 'http'}://${r.host.toLowerCase().replace(secrets.scheme === 'https' ? /:443$/ : /:80$/, '')}${pathPart}`)}&${rfc3986(normalized)}`;
  const key = `${rfc3986(secrets.consumerSecret)}&${rfc3986(secrets.tokenSecret)}`;
  const method = params.oauth_signature_method ?? '';
  let ok = false;
  if (method === 'PLAINTEXT') ok = signature === key;
  else if (method.startsWith('HMAC-')) ok = createHmac(method.slice(5).toLowerCase().replace('sha', 'sha'), key).update(base).digest('base64') === signature;
  else if (method.startsWith('RSA-') && secrets.publicKey) ok = verify(method, Buffer.from(base), secrets.publicKey, Buffer.from(signature, 'base64'));
  return { ok, params, where };
}

/** RFC 7515 JWS compact serialization, checked with the RFC 7518 algorithms. */
export function jwtCheck(token: string, key: KeyObject | Buffer): { ok: boolean; header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p, s] = token.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  const data = Buffer.from(`${h}.${p}`);
  const signature = Buffer.from(s, 'base64url');
  const alg = String(header.alg);
  const digest = `sha${alg.slice(2)}`;
  let ok: boolean;
  if (alg.startsWith('HS')) ok = createHmac(digest, key as Buffer).update(data).digest().equals(signature);
  else if (alg.startsWith('RS')) ok = verify(digest, data, key as KeyObject, signature);
  else if (alg.startsWith('PS')) ok = verify(digest, data, { key: key as KeyObject, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 }, signature);
  else ok = verify(digest, data, { key: key as KeyObject, dsaEncoding: 'ieee-p1363' }, signature);
  return { ok, header, payload };
}

/** Hawk 1 header MAC and payload hash, recomputed (hawk.1.header / hawk.1.payload). */
export function hawkCheck(r: Received, port: number, credentials: { key: string; algorithm: 'sha256' | 'sha1' }): { ok: boolean; hashOk: boolean | undefined; attributes: Record<string, string> } {
  const a = headerParams(String(r.headers.authorization ?? ''), 'Hawk');
  const normalized = `hawk.1.header\n${a.ts}\n${a.nonce}\n${r.method.toUpperCase()}\n${r.target}\n${r.host.split(':')[0]!.toLowerCase()}\n${port}\n${a.hash ?? ''}\n${(a.ext ?? '').replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n${a.app ? `${a.app}\n${a.dlg ?? ''}\n` : ''}`;
  const mac = createHmac(credentials.algorithm, credentials.key).update(normalized).digest('base64');
  let hashOk: boolean | undefined;
  if (a.hash !== undefined) {
    const mime = String(r.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const expected = createHash(credentials.algorithm).update(`hawk.1.payload\n${mime}\n`).update(r.body).update('\n').digest('base64');
    hashOk = expected === a.hash;
  }
  return { ok: mac === a.mac, hashOk, attributes: a };
}

/**
 * AWS Signature Version 4 as AWS checks a received request ("Create a signed AWS API request"): the
 * canonical request (the path normalized and encoded again, except for S3; the query sorted; the
 * signed headers as received), the string to sign and the signing key. The payload hash is the
 * received body's, unless the request says UNSIGNED-PAYLOAD; an X-Amz-Date more than 15 minutes
 * off is refused, as AWS does.
 */
export function awsV4Check(r: Received, secretKey: string): { ok: boolean; why: string } {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(String(r.headers.authorization ?? ''));
  if (!m) return { ok: false, why: `no AWS signature: ${String(r.headers.authorization)}` };
  const [, , date, region, service, signedHeaders, signature] = m as unknown as string[];
  const value = (name: string) => (name === 'host' ? r.host : [r.headers[name] ?? ''].flat().join(',')).trim().replace(/\s+/g, ' ');
  const amzDate = value('x-amz-date');
  const sent = Date.parse(amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(Math.abs(Date.now() - sent) <= 15 * 60 * 1000)) return { ok: false, why: `X-Amz-Date ${amzDate} is not within 15 minutes` };
  const bodyHash = createHash('sha256').update(r.body).digest('hex');
  const claimed = value('x-amz-content-sha256');
  if (claimed !== '' && claimed !== 'UNSIGNED-PAYLOAD' && claimed !== bodyHash) return { ok: false, why: 'X-Amz-Content-Sha256 is not the hash of the body received' };
  const [rawPath, rawQuery = ''] = r.target.split(/\?(.*)/s) as [string, string?];
  const segments: string[] = [];
  for (const segment of rawPath.split('/').slice(1)) {
    if (service === 's3') segments.push(rfc3986(decodeURIComponent(segment)));
    else if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(rfc3986(segment));
  }
  const query = rawQuery === '' ? [] : rawQuery.split('&').map((pair) => pair.split(/=(.*)/s).map((part) => rfc3986(decodeURIComponent(part ?? ''))) as [string, string]);
  query.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const names = signedHeaders!.split(';');
  if (!names.includes('host')) return { ok: false, why: 'Host is not signed' };
  // Dot segments and repeated slashes go (botocore's remove_dot_segments); a trailing slash stays.
  const canonicalUri = `/${segments.join('/')}${segments.length > 0 && rawPath.endsWith('/') ? '/' : ''}`;
  const canonical = [r.method.toUpperCase(), canonicalUri, query.map(([k, v]) => `${k}=${v ?? ''}`).join('&'), names.map((n) => `${n}:${value(n)}\n`).join(''), signedHeaders, claimed === 'UNSIGNED-PAYLOAD' ? claimed : bodyHash].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, `${date}/${region}/${service}/aws4_request`, createHash('sha256').update(canonical).digest('hex')].join('\n');
  let key = createHmac('sha256', `AWS4${secretKey}`).update(date!).digest();
  for (const part of [region!, service!, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  const ok = createHmac('sha256', key).update(toSign).digest('hex') === signature;
  return { ok, why: ok ? '' : `signature does not match; canonical request:\n${canonical}` };
}

// ---- NTLM (MS-NLMP) --------------------------------------------------------------------------

/** MD4 (RFC 1320): Node's OpenSSL 3 no longer offers it, and NTLM's password hash needs it. */
export function md4(input: Buffer): Buffer {
  const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));
  const length = input.length;
  const padded = Buffer.alloc(((length + 8) >> 6) * 64 + 64);
  input.copy(padded);
  padded[length] = 0x80;
  padded.writeUInt32LE((length * 8) >>> 0, padded.length - 8);
  padded.writeUInt32LE(Math.floor((length * 8) / 2 ** 32), padded.length - 4);
  let [a, b, c, d] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  const F = (x: number, y: number, z: number) => (x & y) | (~x & z);
  const G = (x: number, y: number, z: number) => (x & y) | (x & z) | (y & z);
  const H = (x: number, y: number, z: number) => x ^ y ^ z;
  for (let off = 0; off < padded.length; off += 64) {
    const X = Array.from({ length: 16 }, (_, i) => padded.readUInt32LE(off + i * 4));
    const [aa, bb, cc, dd] = [a, b, c, d];
    for (const i of [0, 4, 8, 12]) {
      a = rotl((a + F(b, c, d) + X[i]!) | 0, 3); d = rotl((d + F(a, b, c) + X[i + 1]!) | 0, 7);
      c = rotl((c + F(d, a, b) + X[i + 2]!) | 0, 11); b = rotl((b + F(c, d, a) + X[i + 3]!) | 0, 19);
    }
    for (const i of [0, 1, 2, 3]) {
      a = rotl((a + G(b, c, d) + X[i]! + 0x5a827999) | 0, 3); d = rotl((d + G(a, b, c) + X[i + 4]! + 0x5a827999) | 0, 5);
      c = rotl((c + G(d, a, b) + X[i + 8]! + 0x5a827999) | 0, 9); b = rotl((b + G(c, d, a) + X[i + 12]! + 0x5a827999) | 0, 13);
    }
    for (const i of [0, 2, 1, 3]) {
      a = rotl((a + H(b, c, d) + X[i]! + 0x6ed9eba1) | 0, 3); d = rotl((d + H(a, b, c) + X[i + 8]! + 0x6ed9eba1) | 0, 9);
      c = rotl((c + H(d, a, b) + X[i + 4]! + 0x6ed9eba1) | 0, 11); b = rotl((b + H(c, d, a) + X[i + 12]! + 0x6ed9eba1) | 0, 15);
    }
    [a, b, c, d] = [(a + aa) | 0, (b + bb) | 0, (c + cc) | 0, (d + dd) | 0];
  }
  const out = Buffer.alloc(16);
  [a, b, c, d].forEach((v, i) => out.writeInt32LE(v, i * 4));
  return out;
}

/** A type 2 (challenge) message offering NTLMv2: Unicode, extended security, target info. */
export function ntlmType2(serverChallenge: Buffer, domain: string): string {
  const target = Buffer.from(domain, 'utf16le');
  const av = Buffer.concat([Buffer.from([2, 0]), u16(target.length), target, Buffer.from([0, 0, 0, 0])]);
  const flags = 0x00000001 | 0x00000200 | 0x00080000 | 0x00800000 | 0x00010000 | 0x20000000;
  const headerLength = 48;
  const buf = Buffer.concat([
    Buffer.from('NTLMSSP\0', 'latin1'), u32(2),
    u16(target.length), u16(target.length), u32(headerLength),
    u32(flags), serverChallenge, Buffer.alloc(8),
    u16(av.length), u16(av.length), u32(headerLength + target.length),
    target, av,
  ]);
  return `NTLM ${buf.toString('base64')}`;
}
const u16 = (n: number) => { const b = Buffer.alloc(2); b.writeUInt16LE(n); return b; };
const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };

/** The message type of an `Authorization: NTLM …` value (1 negotiate, 3 authenticate). */
export function ntlmType(header: string): number {
  const buf = Buffer.from(header.replace(/^NTLM\s+/i, ''), 'base64');
  return buf.subarray(0, 8).toString('latin1') === 'NTLMSSP\0' ? buf.readUInt32LE(8) : 0;
}

/** Checks a type 3 message's NTLMv2 response against the password (MS-NLMP 3.3.2). */
export function ntlmV2Check(header: string, serverChallenge: Buffer, password: string): { ok: boolean; user: string; domain: string; workstation: string; v2: boolean } {
  const buf = Buffer.from(header.replace(/^NTLM\s+/i, ''), 'base64');
  const field = (offset: number) => buf.subarray(buf.readUInt32LE(offset + 4), buf.readUInt32LE(offset + 4) + buf.readUInt16LE(offset));
  const nt = field(20);
  const domain = field(28).toString('utf16le');
  const user = field(36).toString('utf16le');
  const workstation = field(44).toString('utf16le');
  const v2 = nt.length > 24;
  const responseKey = createHmac('md5', md4(Buffer.from(password, 'utf16le'))).update(Buffer.from(user.toUpperCase() + domain, 'utf16le')).digest();
  const proof = createHmac('md5', responseKey).update(Buffer.concat([serverChallenge, nt.subarray(16)])).digest();
  return { ok: v2 && proof.equals(nt.subarray(0, 16)), user, domain, workstation, v2 };
}
