/**
 * Akamai EdgeGrid (EG1-HMAC-SHA256) request signing. Decision: computed here rather than with
 * the `akamai-edgegrid` package, whose signer cannot hash binary bodies, ignores the max body
 * size (fixed at 128 KB) and comes with its own HTTP client; the tests check every signature
 * against that package.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { PrepareError } from './errors.js';
import type { SignTarget } from './sign-oauth1.js';
import { httpScheme, setSignedAuthorization, type SignContext } from './sign-key.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** `yyyyMMddTHH:mm:ss+0000` in UTC, as EdgeGrid wants. */
export function edgegridTimestamp(date = new Date()): string {
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+0000`;
}

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest('base64');

export function signEdgegrid(auth: Record<string, unknown>, target: SignTarget, ctx: SignContext): void {
  const f = (field: string) => ctx.fill(String(auth[field] ?? '')).trim();
  const clientToken = f('clientToken');
  const clientSecret = f('clientSecret');
  const accessToken = f('accessToken');
  const missing = [['clientToken', clientToken], ['clientSecret', clientSecret], ['accessToken', accessToken]].filter(([, v]) => v === '').map(([n]) => n);
  if (missing.length > 0) throw new PrepareError(`Akamai EdgeGrid: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} empty; copy them from your .edgerc credentials.`);
  let host = target.url.host;
  const baseURL = f('baseURL');
  if (baseURL !== '') {
    try {
      host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(baseURL) ? baseURL : `https://${baseURL}`).host;
    } catch {
      throw new PrepareError(`Akamai EdgeGrid: baseURL "${baseURL}" is not a URL or host name; use the host from your .edgerc, e.g. https://akab-xxxx.luna.akamaiapis.net.`);
    }
  }
  const maxBody = typeof auth.maxBodySize === 'number' ? auth.maxBodySize : 131072;
  const timestamp = f('timestamp') || edgegridTimestamp();
  const nonce = f('nonce') || randomUUID();
  const canonicalHeaders = f('headersToSign')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .flatMap((name) => {
      const values = target.headers.filter((h) => h.name.toLowerCase() === name.toLowerCase()).map((h) => h.value);
      return values.length > 0 ? [`${name.toLowerCase()}:${values.join(',').trim().replace(/\s+/g, ' ')}`] : [];
    })
    .join('\t');
  // Only POST bodies are hashed (up to maxBodySize bytes), as the EdgeGrid specification says.
  let contentHash = '';
  if (target.method === 'POST') {
    if (target.bodyEncodedBy) throw new PrepareError(`Akamai EdgeGrid: the body of ${target.bodyEncodedBy} cannot be signed (the message is encoded when sending, and EdgeGrid hashes POST bodies); use another auth type for it.`);
    if (target.body.kind === 'multipart') throw new PrepareError('Akamai EdgeGrid: a multipart body cannot be signed (its boundary is chosen when sending); send the body as binary or text.');
    if (target.body.kind === 'bytes' && target.body.bytes.length > 0) {
      contentHash = createHash('sha256').update(target.body.bytes.subarray(0, maxBody)).digest('base64');
    }
  }
  const authHeader = `EG1-HMAC-SHA256 client_token=${clientToken};access_token=${accessToken};timestamp=${timestamp};nonce=${nonce};`;
  const dataToSign = [target.method.toUpperCase(), httpScheme(target.url), host, target.url.pathname + target.url.search, canonicalHeaders, contentHash, authHeader].join('\t');
  const signingKey = hmac(clientSecret, timestamp);
  const value = `${authHeader}signature=${hmac(signingKey, dataToSign)}`;
  setSignedAuthorization(target.headers, value);
}
