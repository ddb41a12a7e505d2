/**
 * Hawk request signing with the `hawk` library (its client part only: Ferry sends the request):
 * id, key, sha256 or sha1, ext, app, dlg and the optional payload hash.
 */
import { createRequire } from 'node:module';
import { PrepareError } from './errors.js';
import type { SignTarget } from './sign-oauth1.js';
import { httpScheme, setSignedAuthorization, type SignContext } from './sign-key.js';

interface HawkClient {
  header(uri: object, method: string, options: Record<string, unknown>): { header: string };
}
const Hawk = createRequire(import.meta.url)('hawk') as { client: HawkClient };

/** The library writes these into the header unescaped: a quote or backslash would break it. */
const ATTRIBUTE = /^[\x20-\x7e]*$/;

/** False when the request goes unsigned: without an id or a key, as Newman sends it (docs/running.md). */
export function signHawk(auth: Record<string, unknown>, target: SignTarget, ctx: SignContext): boolean {
  const f = (...fields: string[]) => {
    for (const field of fields) if (auth[field] !== undefined && auth[field] !== '') return ctx.fill(String(auth[field]));
    return '';
  };
  const id = f('authId');
  const key = f('authKey');
  // Decision (spec 5.5 is silent): Postman and Newman send the request unsigned when either is
  // empty (a variable a login script has not set yet), as Ferry does for an empty Bearer token.
  if (id === '' || key === '') return false;
  const app = f('app', 'appId');
  const dlg = f('delegation', 'dlg');
  const nonce = f('nonce');
  for (const [name, value] of [['authId', id], ['app', app], ['delegation', dlg], ['nonce', nonce]] as const) {
    if (!ATTRIBUTE.test(value) || /["\\]/.test(value)) throw new PrepareError(`Hawk: ${name} may hold printable ASCII characters other than " and \\ only.`);
  }
  // ext is escaped by the library, but it too must be printable ASCII.
  if (!ATTRIBUTE.test(f('extraData', 'ext'))) throw new PrepareError('Hawk: extraData (ext) may hold printable ASCII characters only.');
  const timestamp = f('timestamp');
  if (timestamp !== '' && !/^\d+$/.test(timestamp)) throw new PrepareError(`Hawk: timestamp must be seconds since 1970 (digits), got "${timestamp}"; leave it empty to use the current time.`);
  const options: Record<string, unknown> = {
    credentials: { id, key, algorithm: auth.algorithm === 'sha1' ? 'sha1' : 'sha256' },
    ...(timestamp ? { timestamp: Number(timestamp) } : {}),
    ...(nonce ? { nonce } : {}),
    ...(f('extraData', 'ext') ? { ext: f('extraData', 'ext') } : {}),
    ...(app ? { app, ...(dlg ? { dlg } : {}) } : {}),
  };
  if (auth.includePayloadHash === true) {
    if (target.bodyEncodedBy) throw new PrepareError(`Hawk: includePayloadHash cannot hash the body of ${target.bodyEncodedBy} (the message is encoded when sending); turn it off for this request.`);
    if (target.body.kind === 'multipart') throw new PrepareError('Hawk: includePayloadHash cannot hash a multipart body (its boundary is chosen when sending); turn it off for this request.');
    options.payload = target.body.kind === 'bytes' ? Buffer.from(target.body.bytes) : '';
    options.contentType = target.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  }
  const url = target.url;
  // The library takes a missing port as 443 unless the scheme is http:, so ws:// is given as http:.
  const uri = { protocol: `${httpScheme(url)}:`, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, pathname: url.pathname, search: url.search };
  const { header } = Hawk.client.header(uri, target.method, options);
  setSignedAuthorization(target.headers, header);
  return true;
}
