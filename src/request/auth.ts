/**
 * Applying the effective auth to a request (spec 2.6, 5.5): Basic, Bearer, API key, OAuth 2.0
 * tokens; Digest and NTLM are answered by the HTTP client; AWS Signature V4, OAuth 1.0, JWT
 * Bearer, ASAP, Hawk and Akamai EdgeGrid are signed over the final request (sign.ts).
 */
import { parse as parseQuery } from 'node:querystring';
import { loadOnce } from '../support/load-once.js';
import type { Auth } from '../model/index.js';
import { PrepareError } from './errors.js';
import type { OAuth2Options, OAuth2Settings } from './oauth2.js';
import { lazyRequire } from '../support/lazy-require.js';
import type { NtlmCredentials, PreparedBody, PreparedHeader } from './prepared.js';
import { addQueryParam } from './url.js';

const oauth2Client = loadOnce(() => import('./oauth2.js'));

const aws4 = lazyRequire<typeof import('aws4')>(import.meta.url, 'aws4');

export const AUTH_NAMES: Record<string, string> = {
  basic: 'Basic',
  bearer: 'Bearer',
  apiKey: 'API key',
  oauth2: 'OAuth 2.0',
  digest: 'Digest',
  ntlm: 'NTLM',
  awsv4: 'AWS Signature V4',
  oauth1: 'OAuth 1.0',
  jwt: 'JWT Bearer',
  hawk: 'Hawk',
  edgegrid: 'Akamai EdgeGrid',
  asap: 'ASAP',
};

export interface AuthTarget {
  url: URL;
  headers: PreparedHeader[];
  digest?: { username: string; password: string };
  ntlm?: NtlmCredentials;
  oauth2TokenCached?: boolean;
  /** Filled with the credential values the auth put on the wire (see PreparedRequest.credentials). */
  credentials?: string[];
}

export interface ApplyAuthOptions {
  fill: (text: string) => string;
  oauth2: OAuth2Options;
  /** What to do with a type Ferry cannot send: fail (sending) or leave it out (code export). */
  unsendable: 'error' | 'omit';
}

const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

function hasHeader(headers: readonly PreparedHeader[], name: string): boolean {
  const lower = name.toLowerCase();
  return headers.some((h) => h.name.toLowerCase() === lower);
}

/** Adds an auth header unless the request's own headers already set one of that name. */
function addHeader(target: AuthTarget, name: string, value: string): void {
  if (!hasHeader(target.headers, name)) target.headers.push({ name, value });
}

/** OAuth 2.0 tokens (oauth4webapi): loaded when a request uses OAuth 2.0, not with every run. */
export async function oauth2AccessToken(settings: OAuth2Settings, options: OAuth2Options): ReturnType<typeof import('./oauth2.js').oauth2AccessToken> {
  return (await oauth2Client()).oauth2AccessToken(settings, options);
}

export async function applyAuth(auth: Auth, target: AuthTarget, options: ApplyAuthOptions): Promise<void> {
  const f = (field: string) => options.fill(str(auth[field]));
  switch (auth.type) {
    case 'inherit':
    case 'none':
      return;
    case 'basic': {
      const basic = Buffer.from(`${f('username')}:${f('password')}`, 'utf8').toString('base64');
      addHeader(target, 'Authorization', `Basic ${basic}`);
      if (!PLACEHOLDER.test(f('password'))) addCredentials(target, f('password'), basic);
      return;
    }
    case 'bearer': {
      const token = f('token');
      // No token (a variable a login script has not set yet): no header, as Postman sends none,
      // rather than a bare `Bearer` a server may refuse where it takes anonymous requests.
      if (token === '') return;
      const prefix = auth.prefix === undefined ? 'Bearer' : f('prefix');
      addHeader(target, 'Authorization', withPrefix(prefix, token));
      addCredentials(target, token);
      return;
    }
    case 'apiKey': {
      const key = f('key');
      if (key === '') throw new PrepareError('API key auth: the key (header or parameter name) is empty.');
      if (auth.location === 'query') addQueryParam(target.url, key, f('value'));
      else addHeader(target, key, f('value'));
      addCredentials(target, f('value'));
      return;
    }
    case 'oauth2': {
      const settings = oauth2Settings(auth, options.oauth2.settingsFill ?? options.fill);
      const token = await oauth2AccessToken(settings, options.oauth2);
      const prefix = auth.headerPrefix === undefined ? 'Bearer' : f('headerPrefix');
      target.oauth2TokenCached = token?.cached ?? false;
      addHeader(target, 'Authorization', withPrefix(prefix, token?.token ?? '<access-token>'));
      addCredentials(target, settings.password, settings.clientSecret, token?.token ?? '');
      return;
    }
    case 'digest':
      target.digest = { username: f('username'), password: f('password') };
      addCredentials(target, f('password'));
      return;
    case 'ntlm': {
      const username = f('username');
      if (username === '' && options.unsendable === 'omit') return;
      if (username === '') throw new PrepareError('NTLM auth: the username is empty; set username (and domain, or write DOMAIN\\user).');
      // `DOMAIN\user` typed in the username, as Windows shows it, when no domain is set.
      const slash = username.indexOf('\\');
      const domain = f('domain') || (slash > 0 ? username.slice(0, slash) : '');
      target.ntlm = { username: slash > 0 && !f('domain') ? username.slice(slash + 1) : username, password: f('password'), domain, workstation: f('workstation') };
      addCredentials(target, f('password'));
      return;
    }
    case 'awsv4':
    case 'oauth1':
    case 'jwt':
    case 'asap':
    case 'hawk':
    case 'edgegrid':
      // Signed by sign.ts once headers and body are final; the keys are masked like passwords.
      addCredentials(target, ...SIGNING_SECRETS.map(f));
      return;
    default:
      if (options.unsendable === 'omit') return;
      throw new PrepareError(`auth type ${auth.type} (${AUTH_NAMES[auth.type] ?? auth.type}) cannot be sent yet; choose another auth type for this request.`);
  }
}

/** The fields of the signing types that hold a key (spec 5.5): never shown in run output. */
const SIGNING_SECRETS = ['secretKey', 'secretAccessKey', 'sessionToken', 'consumerSecret', 'tokenSecret', 'secret', 'authKey', 'clientSecret', 'privateKey'];

/** A value that still holds a `{{placeholder}}` (code export without substitution) is not a credential. */
const PLACEHOLDER = /\{\{[^{}\n]*\}\}/;

function addCredentials(target: AuthTarget, ...values: string[]): void {
  for (const value of values) if (value !== '' && !PLACEHOLDER.test(value)) (target.credentials ??= []).push(value);
}

function withPrefix(prefix: string, token: string): string {
  return prefix.trim() === '' ? token : `${prefix.trim()} ${token}`;
}

export function oauth2Settings(auth: Auth, fill: (text: string) => string): OAuth2Settings {
  const f = (field: string) => fill(str(auth[field]));
  return {
    grantType: (auth.grantType as OAuth2Settings['grantType']) ?? 'clientCredentials',
    tokenUrl: f('tokenUrl'),
    authUrl: f('authUrl'),
    redirectUri: f('redirectUri'),
    clientId: f('clientId'),
    clientSecret: f('clientSecret'),
    scope: f('scope'),
    audience: f('audience'),
    username: f('username'),
    password: f('password'),
    clientAuth: auth.clientAuth === 'body' ? 'body' : 'basicHeader',
    pkce: auth.pkce !== false,
  };
}

/**
 * AWS Signature V4 over the final method, URL, headers and body (field names as collection
 * exports write them: accessKey, secretKey, region, service, sessionToken).
 */
export function signAwsV4(auth: Auth, method: string, url: URL, headers: PreparedHeader[], body: PreparedBody, fill: (text: string) => string, bodyEncoded = false): void {
  const f = (...fields: string[]) => {
    for (const field of fields) if (auth[field] !== undefined && auth[field] !== '') return fill(str(auth[field]));
    return '';
  };
  const accessKeyId = f('accessKey', 'accessKeyId');
  const secretAccessKey = f('secretKey', 'secretAccessKey');
  if (!accessKeyId || !secretAccessKey) {
    throw new PrepareError('AWS Signature V4: accessKey and secretKey are needed; set them on the auth (variables work, e.g. {{awsSecret}}).');
  }
  const signed: Record<string, string> = {};
  for (const h of headers) {
    // The Cookie header is sent unsigned (as curl's cookie engine does): the cookie jar adds its
    // cookies to it when sending, after signing, and AWS needs only Host and X-Amz-* signed.
    if (h.name.toLowerCase() === 'cookie') continue;
    const existing = Object.keys(signed).find((k) => k.toLowerCase() === h.name.toLowerCase());
    // A header sent twice is signed as AWS reads it: each value trimmed, joined by a bare comma.
    if (existing) signed[existing] = `${signed[existing]!.trim()},${h.value.trim()}`;
    else signed[h.name] = h.value;
  }
  const before = new Set(Object.keys(signed).map((k) => k.toLowerCase()));
  let payload: Buffer | undefined;
  if (body.kind === 'bytes' && !bodyEncoded) payload = Buffer.from(body.bytes);
  // The multipart boundary is chosen when sending, and a kind that encodes the body (gRPC's
  // protobuf frames) makes its bytes then too: the payload cannot be signed.
  else if ((body.kind === 'multipart' || bodyEncoded) && !before.has('x-amz-content-sha256')) signed['X-Amz-Content-Sha256'] = 'UNSIGNED-PAYLOAD';
  const request = {
    host: url.host,
    path: url.pathname + url.search,
    method,
    headers: signed,
    body: payload,
    service: f('service') || undefined,
    region: f('region') || undefined,
  };
  const signer = new (aws4().RequestSigner)(request, { accessKeyId, secretAccessKey, sessionToken: f('sessionToken') || undefined });
  // aws4 reads the path itself and, when it holds a character such as [ or {, re-encodes all of it
  // with encodeURI(decodeURI(…)), which signs an escape like %2F or %2B as %252F: it gets the
  // path and the decoded query as sent instead. A + in the query is a plus to AWS (signed %2B),
  // not the space of an HTML form, so it is kept before decoding.
  signer.parsePath = () => {
    const query = parseQuery(url.search.slice(1).replace(/\+/g, '%2B'));
    signer.parsedPath = { path: url.pathname, query: query as Record<string, string | string[]> };
  };
  signer.sign();
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    // Host and Content-Length are sent by the HTTP client with the same values.
    if (before.has(lower) || lower === 'host' || lower === 'content-length') continue;
    headers.push({ name, value: String(value) });
  }
}
