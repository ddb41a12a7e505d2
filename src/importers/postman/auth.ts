/**
 * Collection auth (v2.0 objects and v2.1 key/value lists) to the format's auth (spec 2.6, 4.2).
 * Signing types Ferry only keeps (digest, NTLM, AWS, OAuth 1.0, JWT, Hawk, EdgeGrid, ASAP) keep
 * their settings under the collection's own field names.
 */
import { IMPORTED_AUTH_TYPES, OAUTH2_REDIRECT_URI, type Auth } from '../../model/index.js';
import { addGrouped, type GroupedNotes, type ScriptContext } from './scripts.js';

/** The foreign client's hosted OAuth callback pages, which cannot reach a local app. */
const HOSTED_CALLBACKS = /^https?:\/\/(oauth\.pstmn\.io|www\.getpostman\.com|app\.getpostman\.com|www\.postman\.com)\//i;

/** Reads `{type, [type]: [{key, value}] | {…}}` into a plain map of the type's settings. */
export function authParams(auth: Record<string, unknown>, type: string): Record<string, unknown> {
  const raw = auth[type];
  const out: Record<string, unknown> = {};
  if (Array.isArray(raw)) {
    for (const entry of raw) {
      if (entry && typeof entry === 'object' && typeof (entry as { key?: unknown }).key === 'string') {
        out[(entry as { key: string }).key] = (entry as { value?: unknown }).value;
      }
    }
  } else if (raw && typeof raw === 'object') {
    Object.assign(out, raw);
  }
  return out;
}

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** `undefined` means inherit (no auth field written). */
export function mapAuth(auth: unknown, where: string, ctx: Pick<ScriptContext, 'notes' | 'grouped'>): Auth | undefined {
  const { notes } = ctx;
  if (!auth || typeof auth !== 'object') return undefined;
  const a = auth as Record<string, unknown>;
  const type = String(a.type ?? '');
  const p = authParams(a, type);
  switch (type) {
    case 'inherit': case '': return undefined;
    case 'noauth': return { type: 'none' };
    case 'basic': return { type: 'basic', username: str(p.username) ?? '', password: str(p.password) ?? '' };
    case 'bearer': return { type: 'bearer', token: str(p.token) ?? '' };
    case 'apikey':
      return { type: 'apiKey', key: str(p.key) ?? '', value: str(p.value) ?? '', location: p.in === 'query' ? 'query' : 'header' };
    case 'oauth2': return mapOAuth2(p, where, ctx.grouped);
    default:
      if ((IMPORTED_AUTH_TYPES as readonly string[]).includes(type)) return { type: type as Auth['type'], ...withoutUndefined(sentFields(type, p)) };
      notes.push(`${where}: auth type "${type}" is not supported; it was imported as no auth.`);
      return { type: 'none' };
  }
}

/**
 * Settings of a signing auth that are left out on import: `saveHelperData` (a screen option of
 * Postman's app) and Hawk's `appId` (older exports; Postman signs with `app`), which Postman does
 * not send with, so that each run does not warn about them.
 */
export const AUTH_FIELDS_NOT_IMPORTED: Record<string, readonly string[]> = { '*': ['saveHelperData'], hawk: ['appId'] };

function sentFields(type: string, p: Record<string, unknown>): Record<string, unknown> {
  const left = [...AUTH_FIELDS_NOT_IMPORTED['*']!, ...(AUTH_FIELDS_NOT_IMPORTED[type] ?? [])];
  return Object.fromEntries(Object.entries(p).filter(([key]) => !left.includes(key)));
}

function withoutUndefined(p: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== null));
}

function mapOAuth2(p: Record<string, unknown>, where: string, grouped: GroupedNotes): Auth {
  const grantRaw = String(p.grant_type ?? p.grantType ?? 'authorization_code');
  let grantType: 'clientCredentials' | 'password' | 'authorizationCode';
  if (/client/i.test(grantRaw)) grantType = 'clientCredentials';
  else if (/password/i.test(grantRaw)) grantType = 'password';
  else grantType = 'authorizationCode';
  if (/implicit/i.test(grantRaw)) {
    addGrouped(grouped, 'The OAuth 2.0 implicit grant was imported as authorization code with PKCE: the OAuth 2.0 Security Best Current Practice (RFC 9700) deprecates the implicit grant, which returns the token in the redirect URL where it can leak. With PKCE the redirect brings a one-time code, and Ferry exchanges it at the token endpoint for the token: set tokenUrl, and check that the provider allows the authorization code grant for this client', where);
  }
  // Newman sends a saved token as it is, where addTokenTo says; Ferry neither keeps tokens in
  // the workspace (spec 5.2) nor puts them in the query: say so rather than drop them silently.
  if (str(p.accessToken)) {
    addGrouped(grouped, 'The OAuth 2.0 access token saved in the collection was not imported (tokens stay out of the workspace); Ferry gets a token through the grant when the request is sent', where);
  }
  if (p.addTokenTo === 'queryParams') {
    addGrouped(grouped, 'OAuth 2.0 tokens are sent in the Authorization header; the collection added them to the URL query (addTokenTo: queryParams), which Ferry does not do', where);
  }
  const auth: Auth = { type: 'oauth2', grantType };
  const set = (field: string, value: unknown) => {
    const s = str(value);
    if (s !== undefined && s !== '') auth[field] = s;
  };
  set('tokenUrl', p.accessTokenUrl ?? p.tokenUrl);
  set('authUrl', p.authUrl);
  set('clientId', p.clientId);
  set('clientSecret', p.clientSecret);
  set('scope', p.scope);
  set('audience', p.audience);
  set('username', p.username);
  set('password', p.password);
  const clientAuth = String(p.client_authentication ?? p.clientAuth ?? '');
  if (clientAuth === 'body') auth.clientAuth = 'body';
  // The collection's plain authorization code grant sends no PKCE challenge; keep it that way.
  // (The implicit grant becomes authorization code WITH PKCE, as its note says.)
  if (grantType === 'authorizationCode' && !/pkce|implicit/i.test(grantRaw)) auth.pkce = false;
  if (p.headerPrefix !== undefined && p.headerPrefix !== null) auth.headerPrefix = String(p.headerPrefix);
  const redirect = str(p.redirect_uri ?? p.callBackUrl ?? p.redirectUri);
  if (grantType === 'authorizationCode') {
    if (!redirect || HOSTED_CALLBACKS.test(redirect) || p.useBrowser === true) {
      auth.redirectUri = OAUTH2_REDIRECT_URI;
      addGrouped(grouped, `The OAuth 2.0 redirect URL is now ${OAUTH2_REDIRECT_URI}; register it with the provider`, where);
    } else auth.redirectUri = redirect;
  }
  return auth;
}
