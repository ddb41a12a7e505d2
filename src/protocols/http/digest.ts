/**
 * HTTP Digest access authentication (RFC 7616, with RFC 2617 servers in mind): reads the
 * server's `WWW-Authenticate: Digest ...` challenge and computes the `Authorization` answer.
 * Algorithms MD5, SHA-256 and SHA-512-256, their `-sess` variants, qop `auth` and `auth-int`,
 * and `userhash`. No maintained Node package does this without its own HTTP client.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  /** Upper-cased, to look the hash up. */
  algorithm: string;
  /** As the server wrote it (`MD5-sess`): echoed back, since servers may compare it exactly. */
  algorithmToken: string;
  qop?: string[];
  userhash: boolean;
  /** The server refused an answer only for its old nonce (RFC 7616 3.3): answering again is right. */
  stale: boolean;
}

const HASHES: Record<string, string> = { 'MD5': 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256' };
const STRENGTH = ['SHA-512-256', 'SHA-256', 'MD5'];

/** Splits `WWW-Authenticate` values into challenges: scheme plus its auth-params. */
export function parseChallenges(values: readonly string[]): Array<{ scheme: string; params: Record<string, string> }> {
  const out: Array<{ scheme: string; params: Record<string, string> }> = [];
  for (const value of values) {
    let i = 0;
    let current: { scheme: string; params: Record<string, string> } | undefined;
    while (i < value.length) {
      while (i < value.length && /[\s,]/.test(value[i]!)) i++;
      const tokenMatch = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/.exec(value.slice(i));
      if (!tokenMatch) break;
      const token = tokenMatch[0];
      i += token.length;
      let j = i;
      while (j < value.length && value[j] === ' ') j++;
      if (value[j] === '=' && value[j + 1] !== '=') {
        // auth-param: token = token / quoted-string
        i = j + 1;
        while (value[i] === ' ') i++;
        let paramValue = '';
        if (value[i] === '"') {
          i++;
          while (i < value.length && value[i] !== '"') {
            if (value[i] === '\\' && i + 1 < value.length) i++;
            paramValue += value[i];
            i++;
          }
          i++;
        } else {
          const m = /^[^,\s]*/.exec(value.slice(i))!;
          paramValue = m[0];
          i += paramValue.length;
        }
        if (current) current.params[token.toLowerCase()] = paramValue;
      } else {
        current = { scheme: token, params: {} };
        out.push(current);
      }
    }
  }
  return out;
}

/** The strongest Digest challenge Ferry can answer, or undefined. */
export function pickDigestChallenge(values: readonly string[]): DigestChallenge | undefined {
  const digests = parseChallenges(values)
    .filter((c) => c.scheme.toLowerCase() === 'digest' && c.params.nonce !== undefined)
    .map((c) => ({
      realm: c.params.realm ?? '',
      nonce: c.params.nonce!,
      opaque: c.params.opaque,
      algorithm: (c.params.algorithm ?? 'MD5').toUpperCase(),
      algorithmToken: c.params.algorithm ?? 'MD5',
      qop: c.params.qop?.split(',').map((q) => q.trim().toLowerCase()).filter(Boolean),
      userhash: c.params.userhash?.toLowerCase() === 'true',
      stale: c.params.stale?.toLowerCase() === 'true',
    }))
    .filter((c) => HASHES[c.algorithm.replace(/-SESS$/, '')] !== undefined);
  digests.sort((a, b) => STRENGTH.indexOf(a.algorithm.replace(/-SESS$/, '')) - STRENGTH.indexOf(b.algorithm.replace(/-SESS$/, '')));
  return digests[0];
}

export interface DigestAnswerInput {
  challenge: DigestChallenge;
  username: string;
  password: string;
  method: string;
  /** Request target as sent: path and query. */
  uri: string;
  body: Uint8Array;
  /** Nonce count (1 for the first use of this nonce). */
  nc?: number;
  /** For tests: a fixed client nonce. */
  cnonce?: string;
}

const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function digestAuthorization(input: DigestAnswerInput): string {
  const { challenge } = input;
  const sess = challenge.algorithm.endsWith('-SESS');
  const hashName = HASHES[challenge.algorithm.replace(/-SESS$/, '')]!;
  const H = (data: string | Uint8Array) => createHash(hashName).update(data).digest('hex');
  const cnonce = input.cnonce ?? randomBytes(16).toString('hex');
  const nc = (input.nc ?? 1).toString(16).padStart(8, '0');
  const qop = challenge.qop?.includes('auth') ? 'auth' : challenge.qop?.includes('auth-int') ? 'auth-int' : undefined;

  let ha1 = H(`${input.username}:${challenge.realm}:${input.password}`);
  if (sess) ha1 = H(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = qop === 'auth-int' ? H(`${input.method}:${input.uri}:${H(input.body)}`) : H(`${input.method}:${input.uri}`);
  const response = qop ? H(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : H(`${ha1}:${challenge.nonce}:${ha2}`);

  const parts = [
    usernameParam(input.username, challenge, H),
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(input.uri)}`,
    `algorithm=${challenge.algorithmToken}`,
    `response=${quote(response)}`,
  ];
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  if (challenge.userhash) parts.push('userhash=true');
  return `Digest ${parts.join(', ')}`;
}

/**
 * A non-ASCII username goes as its UTF-8 bytes inside the quoted string (obs-text, which RFC 7616's
 * quoted-string allows), as curl sends it and as Apache-style servers read it; `username*`
 * (RFC 7616 3.4.4) is left out, since those servers do not know it. The header string carries
 * one byte per character, which is how the HTTP client writes it.
 */
function usernameParam(username: string, challenge: DigestChallenge, H: (data: string) => string): string {
  if (challenge.userhash) return `username=${quote(H(`${username}:${challenge.realm}`))}`;
  return `username=${quote(Buffer.from(username, 'utf8').toString('latin1'))}`;
}

/** A Digest challenge answered with success, to answer at once the next time (see `DigestNonces`). */
export interface DigestNonce {
  challenge: DigestChallenge;
  /** The nonce count of the latest answer with this nonce. */
  nc: number;
  /** The client nonce of the first answer: a `-sess` algorithm's session key is made with it. */
  cnonce: string;
}

/** Origins whose nonce is kept, at most; the one used longest ago goes first. */
const MAX_NONCE_ORIGINS = 256;

/**
 * The server nonces of one run or app session, per origin and realm (the protection space): the
 * next Digest request to that origin answers with the nonce at once, its count one higher
 * (RFC 7616 3.4), instead of paying a 401 round trip first, as curl does within one invocation
 * and Postman across sends. A server that no longer takes it answers 401 (with `stale=true`
 * when only the nonce expired), and that challenge is answered afresh. A plain 401 to a reused
 * nonce (a server whose nonces answer one request) is a failed login to that server, which may
 * count towards locking the account: that origin's nonces are not reused again.
 */
export class DigestNonces {
  readonly #byOrigin = new Map<string, Map<string, DigestNonce>>();
  /** Origins that refused a reused nonce without `stale=true`. */
  readonly #noReuse = new Set<string>();

  /** The latest nonce kept for `origin`, its count already raised for this use; undefined when none. */
  reuse(origin: string): DigestNonce | undefined {
    if (this.#noReuse.has(origin)) return undefined;
    const realms = this.#byOrigin.get(origin);
    const latest = realms ? [...realms.values()].at(-1) : undefined;
    if (!realms || !latest) return undefined;
    // Used now: the last of its origin's realms and of the origins.
    realms.delete(latest.challenge.realm);
    realms.set(latest.challenge.realm, latest);
    this.#byOrigin.delete(origin);
    this.#byOrigin.set(origin, realms);
    latest.nc++;
    return { ...latest };
  }

  /** Keeps a nonce that an answer was just accepted with. */
  remember(origin: string, nonce: DigestNonce): void {
    if (this.#noReuse.has(origin)) return;
    const realms = this.#byOrigin.get(origin) ?? new Map<string, DigestNonce>();
    const kept = realms.get(nonce.challenge.realm);
    // A concurrent send may have counted further with the same nonce: never count back.
    if (kept?.challenge.nonce === nonce.challenge.nonce && kept.nc >= nonce.nc) return;
    realms.delete(nonce.challenge.realm);
    realms.set(nonce.challenge.realm, { ...nonce });
    this.#byOrigin.delete(origin);
    this.#byOrigin.set(origin, realms);
    if (this.#byOrigin.size > MAX_NONCE_ORIGINS) this.#byOrigin.delete(this.#byOrigin.keys().next().value!);
  }

  /**
   * The server refused the reused nonce `sent` of `origin` with `fresh` (its new challenge): the
   * nonce is dropped. Unless the server said `stale` (the nonce expired, the password was right)
   * or challenges for another realm or algorithm (the answer was for another protection space),
   * it refused the reuse itself, and the origin's nonces are not reused again.
   */
  refused(origin: string, sent: DigestChallenge, fresh: DigestChallenge | undefined): void {
    this.#byOrigin.get(origin)?.delete(sent.realm);
    if (fresh && (fresh.stale || fresh.realm !== sent.realm || fresh.algorithm !== sent.algorithm)) return;
    this.#byOrigin.delete(origin);
    this.#noReuse.add(origin);
    if (this.#noReuse.size > MAX_NONCE_ORIGINS) this.#noReuse.delete(this.#noReuse.values().next().value!);
  }
}
