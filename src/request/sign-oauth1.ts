/**
 * OAuth 1.0 request signing (RFC 5849) with the `oauth-1.0a` library: HMAC-SHA1/256/512,
 * PLAINTEXT and RSA-SHA1/256/512. The signature base string holds the query and URL-encoded
 * body parameters (decoded as forms are, RFC 5849 3.4.1.3.1) and the oauth_* parameters;
 * callback, verifier and the body hash (draft-eaton-oauth-bodyhash, for non-form bodies) are
 * signed with them. Placement: the Authorization header (its values percent-encoded unless
 * `disableHeaderEncoding`), or (`addParamsToHeader: false`) the URL-encoded body when the request
 * has one, else the query.
 */
import { createHash, createHmac, createSign, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { PrepareError } from './errors.js';
import type { PreparedBody, PreparedHeader } from './prepared.js';
import { httpScheme, readPrivateKey, setSignedAuthorization, type SignContext } from './sign-key.js';

export interface SignTarget {
  method: string;
  url: URL;
  headers: PreparedHeader[];
  body: PreparedBody;
  /** Set when the kind encodes `body` when sending (KindRules.encodesBody): the request as a sentence names it. */
  bodyEncodedBy?: string;
}

type Params = Record<string, string | string[]>;

const HASHES: Record<string, string> = { SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' };

/** The order postman-runtime writes the oauth_* parameters in. */
const POSTMAN_ORDER = ['oauth_consumer_key', 'oauth_token', 'oauth_signature_method', 'oauth_timestamp', 'oauth_nonce', 'oauth_version', 'oauth_body_hash', 'oauth_callback', 'oauth_verifier', 'oauth_signature'];

function addParam(params: Params, key: string, value: string): void {
  const existing = params[key];
  if (existing === undefined) params[key] = value;
  else params[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}

/** The URL-encoded body's bytes, when the request has one. */
function formBytes(body: PreparedBody): Extract<PreparedBody, { kind: 'bytes' }> | undefined {
  return body.kind === 'bytes' && body.source === 'formUrlencoded' ? body : undefined;
}

export async function signOAuth1(auth: Record<string, unknown>, target: SignTarget, ctx: SignContext): Promise<void> {
  const f = (field: string) => ctx.fill(String(auth[field] ?? ''));
  const method = String(auth.signatureMethod ?? 'HMAC-SHA1');
  const [family, hashName] = method.split('-') as [string, string | undefined];
  const consumerKey = f('consumerKey');
  if (consumerKey === '') throw new PrepareError('OAuth 1.0: the consumer key is empty; set consumerKey on the auth.');
  const keepEmpty = auth.addEmptyParamsToSign === true;
  const hashAlgorithm = HASHES[hashName ?? 'SHA1'] ?? 'sha1';

  let hashFunction: (base: string, key: string) => string;
  if (family === 'RSA') {
    const key = await readPrivateKey(auth, ctx, 'OAuth 1.0 ' + method);
    if (key.asymmetricKeyType !== 'rsa') throw new PrepareError(`${ctx.where}: OAuth 1.0 ${method} needs an RSA private key; this one is ${key.asymmetricKeyType ?? 'not asymmetric'}.`);
    hashFunction = (base) => createSign(`RSA-${hashName}`).update(base).sign(key, 'base64');
  } else if (family === 'HMAC') {
    hashFunction = (base, key) => createHmac(hashAlgorithm, key).update(base).digest('base64');
  } else {
    hashFunction = (_base, key) => key;
  }

  const realm = f('realm');
  const oauth = new OAuth({
    consumer: { key: consumerKey, secret: f('consumerSecret') },
    signature_method: method,
    hash_function: hashFunction,
    version: f('version') || '1.0',
    ...(realm ? { realm } : {}),
  });
  const nonce = f('nonce');
  const timestamp = f('timestamp');
  oauth.getNonce = () => nonce || randomBytes(16).toString('hex');
  oauth.getTimeStamp = () => (timestamp || String(Math.floor(Date.now() / 1000))) as unknown as number;

  // Every parameter the server will see, decoded: the query, a URL-encoded body, extra oauth_*.
  const params: Params = {};
  for (const [key, value] of new URLSearchParams(target.url.search)) addParam(params, key, value);
  const body = target.body;
  const form = formBytes(body);
  if (form) for (const [key, value] of new URLSearchParams(Buffer.from(form.bytes).toString('utf8'))) addParam(params, key, value);
  const extra: Record<string, string> = {};
  for (const [field, name] of [['callback', 'oauth_callback'], ['verifier', 'oauth_verifier']] as const) {
    const value = f(field);
    if (value !== '' || (keepEmpty && auth[field] !== undefined)) extra[name] = value;
  }
  // The body hash covers bodies that are not forms (form parameters are signed one by one).
  if (auth.includeBodyHash === true && !form && family !== 'PLAINTEXT') {
    const bytes = body.kind === 'bytes' ? body.bytes : new Uint8Array();
    if (target.bodyEncodedBy) throw new PrepareError(`OAuth 1.0: includeBodyHash cannot hash the body of ${target.bodyEncodedBy} (the message is encoded when sending); turn includeBodyHash off for this request.`);
    if (body.kind === 'multipart') throw new PrepareError('OAuth 1.0: includeBodyHash cannot hash a multipart body (its boundary is chosen when sending); turn includeBodyHash off for this request.');
    extra.oauth_body_hash = createHash(hashAlgorithm).update(bytes).digest('base64');
  }
  for (const [key, value] of Object.entries(extra)) addParam(params, key, value);

  const token = f('token');
  // RFC 5849 3.4.1.2: the base URL leaves out the scheme's default port (grpc://host:80 is signed as
  // http://host, as the server reads it; http URLs have it left out already).
  const scheme = httpScheme(target.url);
  const defaultPort = scheme === 'https' ? '443' : scheme === 'http' ? '80' : undefined;
  const host = target.url.port === defaultPort ? target.url.hostname : target.url.host;
  let signed: OAuth.Authorization;
  try {
    signed = oauth.authorize(
      { url: `${scheme}://${host}${target.url.pathname}`, method: target.method, data: params },
      token !== '' || keepEmpty ? { key: token, secret: f('tokenSecret') } : { key: undefined as unknown as string, secret: f('tokenSecret') },
    );
  } catch (error) {
    throw new PrepareError(`OAuth 1.0: the request cannot be signed: ${(error as Error).message}.`);
  }
  const oauthParams: [string, string][] = [];
  for (const [key, value] of Object.entries({ ...signed, ...extra })) {
    if (key.startsWith('oauth_') && value !== undefined) oauthParams.push([key, String(value)]);
  }
  // Laid out as Postman sends them (order, `,` between header values), so a request reads the same
  // from either client; the order does not change the signature (RFC 5849 sorts for it).
  oauthParams.sort(([a], [b]) => POSTMAN_ORDER.indexOf(a) - POSTMAN_ORDER.indexOf(b));
  const enc = (text: string) => oauth.percentEncode(text);

  if (auth.addParamsToHeader !== false) {
    // disableHeaderEncoding (Postman's): the header's text as it is; the signature is the same.
    const inHeader = auth.disableHeaderEncoding === true ? (text: string) => text : enc;
    const values = oauthParams.map(([key, value]) => `${inHeader(key)}="${inHeader(value)}"`);
    setSignedAuthorization(target.headers, `OAuth ${[...(realm ? [`realm="${inHeader(realm)}"`] : []), ...values].join(',')}`);
    return;
  }
  const encoded = oauthParams.map(([key, value]) => `${enc(key)}=${enc(value)}`).join('&');
  if (form && target.method !== 'GET' && target.method !== 'HEAD') {
    const text = Buffer.from(form.bytes).toString('utf8');
    form.bytes = new Uint8Array(Buffer.from(text === '' ? encoded : `${text}&${encoded}`, 'utf8'));
  } else {
    target.url.search = target.url.search && target.url.search !== '?' ? `${target.url.search}&${encoded}` : `?${encoded}`;
  }
}
