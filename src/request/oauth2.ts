/**
 * OAuth 2.0 access tokens (spec 2.6, 5.2) through oauth4webapi: client credentials, password,
 * and authorization code with PKCE (S256) over a loopback redirect. Tokens are cached in the
 * data folder until they expire and refreshed with the refresh token when there is one.
 */
import * as oauth from 'oauth4webapi';
import type { Dispatcher } from 'undici';
import type { CachedToken, WorkspaceData } from '../appdata/index.js';
import { OAUTH2_REDIRECT_URI } from '../model/index.js';
import { fetchOn } from '../support/fetch-on.js';
import { PrepareError } from './errors.js';
import { waitForLoopbackCallback } from './oauth2-callback.js';
import { tokenCacheKey, type OAuth2Settings } from './oauth2-cache-key.js';

export type { OAuth2Settings } from './oauth2-cache-key.js';
export { tokenCacheKey };

export interface OAuth2Options {
  data?: WorkspaceData;
  /** False: only a cached, unexpired token is used and nothing is fetched (code export). */
  fetchTokens: boolean;
  /** Used for token requests (TLS verification follows the request's settings). */
  dispatcher?: Dispatcher;
  /** Authorization code grant: shows the URL the user opens in a browser. */
  onAuthorizeUrl?: (url: string) => void;
  /**
   * Why nobody can sign in in a browser here, and what to do instead (`ferry run` in a CI job): the
   * authorization code grant then fails at once saying so, rather than wait for a redirect that
   * never comes. A refresh token cached beforehand is still used.
   */
  noBrowser?: string;
  /** How long to wait for the browser to come back to the loopback redirect. Default 5 minutes. */
  authorizeTimeoutMs?: number;
  /** Stops waiting for the browser and for the token endpoint (Ctrl-C in a run). */
  signal?: AbortSignal;
  /** Longest wait for each token endpoint answer (the request's timeoutMs); 0 or absent = no limit. */
  timeoutMs?: number;
  /** Tokens already read in this run, by cache key (saves re-reading the data folder per request). */
  memo?: Map<string, CachedToken>;
  /**
   * Fills `{{variables}}` in the OAuth 2.0 settings when the request itself keeps its
   * placeholders (code export without substitution), so the cached token is still found.
   */
  settingsFill?: (text: string) => string;
  /** Sees the settings before a token request goes to tokenUrl, and may refuse it (throws a PrepareError). */
  beforeTokenRequest?: (settings: OAuth2Settings) => void;
}

/** Seconds before expiry at which a token counts as expired, so it does not lapse in flight. */
const EXPIRY_SKEW_MS = 30_000;


function fresh(token: CachedToken | undefined, now = Date.now()): boolean {
  return token !== undefined && (token.expiresAt === undefined || token.expiresAt - EXPIRY_SKEW_MS > now);
}

/** The access token to send, or undefined (only when `fetchTokens` is false and none is cached). */
export async function oauth2AccessToken(settings: OAuth2Settings, options: OAuth2Options): Promise<{ token: string; cached: boolean; expiresAt?: number } | undefined> {
  const key = tokenCacheKey(settings);
  let cached = options.memo?.get(key);
  // Expired in memory: another process (the app, a run beside this one) may have got a new one
  // since, and with refresh tokens rotated, the one in memory no longer works.
  if ((cached === undefined || !fresh(cached)) && options.data) cached = (await options.data.token(key)) ?? cached;
  if (cached && fresh(cached)) {
    options.memo?.set(key, cached);
    return { token: cached.accessToken, cached: true, ...(cached.expiresAt !== undefined ? { expiresAt: cached.expiresAt } : {}) };
  }
  if (!options.fetchTokens) return undefined;
  if (!settings.tokenUrl) throw new PrepareError('OAuth 2.0: tokenUrl is empty; set the token endpoint of the provider.');
  if (!settings.clientId) throw new PrepareError('OAuth 2.0: clientId is empty; set the client id the provider gave you for this application.');

  options.beforeTokenRequest?.(settings);
  let token: CachedToken | undefined;
  if (cached?.refreshToken) {
    token = await refresh(settings, cached.refreshToken, options).catch(() => undefined);
    if (!token && options.data) {
      // Refused: another process may have refreshed it at the same moment, and the provider
      // rotated the refresh token. What that process saved is taken, or refreshed in turn.
      const now = await options.data.token(key);
      if (now && fresh(now)) token = now;
      else if (now?.refreshToken && now.refreshToken !== cached.refreshToken) token = await refresh(settings, now.refreshToken, options).catch(() => undefined);
    }
  }
  if (!token && settings.grantType === 'authorizationCode' && options.noBrowser) {
    throw new PrepareError(`OAuth 2.0 authorization code needs someone to sign in in a browser: ${options.noBrowser}`);
  }
  token ??= await grant(settings, options);
  options.memo?.set(key, token);
  await options.data?.saveToken(key, token);
  return { token: token.accessToken, cached: false, ...(token.expiresAt !== undefined ? { expiresAt: token.expiresAt } : {}) };
}

interface Endpoint {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  clientAuth: oauth.ClientAuth;
  http: oauth.TokenEndpointRequestOptions;
}

function endpoint(s: OAuth2Settings, options: OAuth2Options): Endpoint {
  let tokenUrl: URL;
  try {
    tokenUrl = new URL(s.tokenUrl);
  } catch {
    throw new PrepareError(`OAuth 2.0: tokenUrl "${s.tokenUrl}" is not a valid URL.`);
  }
  const as: oauth.AuthorizationServer = {
    issuer: tokenUrl.origin,
    token_endpoint: tokenUrl.href,
    ...(s.authUrl ? { authorization_endpoint: s.authUrl } : {}),
  };
  const client: oauth.Client = { client_id: s.clientId };
  // A public client (no secret) sends its client_id as a form field.
  const clientAuth = !s.clientSecret
    ? oauth.None()
    : s.clientAuth === 'body'
      ? oauth.ClientSecretPost(s.clientSecret)
      : oauth.ClientSecretBasic(s.clientSecret);
  // Made on undici's request: its fetch refuses the Fetch standard's "bad ports" (6000, 6665–6669, 10080…).
  const send = fetchOn(options.dispatcher, MAX_TOKEN_RESPONSE_BYTES);
  const timeoutMs = options.timeoutMs ?? 0;
  const http: oauth.TokenEndpointRequestOptions = {
    // Local and test providers often speak plain HTTP; the user chose the URL.
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (async (url: string, init: RequestInit) => {
      // A provider that never answers must not hold the send past its time limit, nor Ctrl-C.
      const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
      const signals = [options.signal, timeout].filter((signal): signal is AbortSignal => signal !== undefined);
      try {
        const response = await send(url, { ...init, ...(signals.length ? { signal: AbortSignal.any(signals) } : {}) });
        return await cappedResponse(response);
      } catch (error) {
        if (timeout?.aborted) throw new PrepareError(`no answer within ${timeoutMs} ms (the request's timeoutMs); check tokenUrl.`);
        throw error;
      }
    }) as unknown as typeof fetch,
  };
  return { as, client, clientAuth, http };
}

/** A token endpoint's answer is read up to this size: tokens are small; an endless answer must not fill memory. */
export const MAX_TOKEN_RESPONSE_BYTES = 1024 * 1024;

/** The response with its body read whole, up to the cap (past it the connection is dropped and the grant fails). */
async function cappedResponse(response: Response): Promise<Response> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > MAX_TOKEN_RESPONSE_BYTES) {
        await response.body.cancel().catch(() => {});
        throw new PrepareError(`its answer is larger than 1 MB, which no token response is (stopped reading); check tokenUrl.`);
      }
      chunks.push(chunk);
    }
  }
  const bytes = Buffer.concat(chunks);
  const body = response.ok ? withTokenType(bytes) : bytes;
  const read = new Response(body.length ? body : null, { status: response.status, statusText: response.statusText, headers: response.headers });
  answers.set(read, bytes);
  return read;
}

/**
 * A token answer without `token_type` (RFC 6749 5.1 requires it; some providers leave it out) is
 * taken as a bearer token, as Postman and Insomnia take it: oauth4webapi would refuse it. Ferry
 * sends any token with `headerPrefix`, so the type only needs to be there.
 */
function withTokenType(bytes: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return bytes; // not JSON: oauth4webapi's refusal says so
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return bytes;
  const token = json as { access_token?: unknown; token_type?: unknown };
  if (typeof token.access_token !== 'string' || token.token_type !== undefined) return bytes;
  return Buffer.from(JSON.stringify({ ...token, token_type: 'Bearer' }), 'utf8');
}

/**
 * Every `token_type` is taken (Slack answers `bot` or `user`, others `N_A` or `mac`), as Postman
 * takes them: oauth4webapi accepts only bearer and DPoP unless told of others, and Ferry sends any
 * token the same way (`headerPrefix`, default Bearer).
 */
const ANY_TOKEN_TYPE = { recognizedTokenTypes: new Proxy({}, { get: () => () => {} }) } as oauth.ProcessTokenResponseOptions;

/** The body of each token endpoint answer, kept for messages (oauth4webapi has read it by then). */
const answers = new WeakMap<Response, Buffer>();

/** What the token endpoint answered, for a message: status, and the OAuth error or the start of the body. */
function describeAnswer(response: Response): string {
  const text = (answers.get(response) ?? Buffer.alloc(0)).toString('utf8');
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  let body: { error?: unknown; error_description?: unknown } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: shown as text below
  }
  if (typeof body?.error === 'string') return oauthError(String(response.status), body.error, body.error_description);
  const type = response.headers.get('content-type');
  const what = `the provider answered ${status}${type ? ` (${type})` : ''}`;
  // A success's body may hold a token: it is not shown.
  if (response.ok) return `${what}, not 200 with a JSON token; check tokenUrl.`;
  // eslint-disable-next-line no-control-regex
  const shown = text.replace(/[\x00-\x20\x7f]+/g, ' ').trim();
  return `${what}${shown ? `: ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}` : ' with an empty body'}; check tokenUrl.`;
}

function oauthError(status: string, error: string, description: unknown): string {
  const text = `the provider answered ${status}: ${error}${typeof description === 'string' && description ? ` (${description})` : ''}`;
  // The usual cause: a wrong secret, or a provider that wants it in the other place.
  return error === 'invalid_client' ? `${text}; check clientId, clientSecret and clientAuth (basicHeader or body).` : text;
}

function extraParams(s: OAuth2Settings): Record<string, string> {
  const params: Record<string, string> = {};
  if (s.scope) params.scope = s.scope;
  if (s.audience) params.audience = s.audience;
  return params;
}

async function grant(s: OAuth2Settings, options: OAuth2Options): Promise<CachedToken> {
  const e = endpoint(s, options);
  try {
    switch (s.grantType) {
      case 'clientCredentials': {
        const response = await oauth.clientCredentialsGrantRequest(e.as, e.client, e.clientAuth, extraParams(s), e.http);
        return toCached(await oauth.processClientCredentialsResponse(e.as, e.client, response, ANY_TOKEN_TYPE));
      }
      case 'password': {
        const params = { username: s.username, password: s.password, ...extraParams(s) };
        const response = await oauth.genericTokenEndpointRequest(e.as, e.client, e.clientAuth, 'password', params, e.http);
        return toCached(await oauth.processGenericTokenEndpointResponse(e.as, e.client, response, ANY_TOKEN_TYPE));
      }
      case 'authorizationCode':
        return await authorizationCode(s, e, options);
    }
  } catch (error) {
    throw new PrepareError(`OAuth 2.0 (${s.grantType}) token request to ${s.tokenUrl} failed: ${describeOAuthError(error)}`);
  }
}

async function refresh(s: OAuth2Settings, refreshToken: string, options: OAuth2Options): Promise<CachedToken> {
  const e = endpoint(s, options);
  const response = await oauth.refreshTokenGrantRequest(e.as, e.client, e.clientAuth, refreshToken, e.http);
  const token = toCached(await oauth.processRefreshTokenResponse(e.as, e.client, response, ANY_TOKEN_TYPE));
  // A provider may keep the refresh token and not send it again.
  token.refreshToken ??= refreshToken;
  return token;
}

async function authorizationCode(s: OAuth2Settings, e: Endpoint, options: OAuth2Options): Promise<CachedToken> {
  if (!s.authUrl) throw new PrepareError('OAuth 2.0 authorization code: authUrl is empty; set the authorization endpoint.');
  const redirectUri = s.redirectUri || OAUTH2_REDIRECT_URI;
  const state = oauth.generateRandomState();
  const verifier = s.pkce ? oauth.generateRandomCodeVerifier() : undefined;
  const authorizeUrl = new URL(s.authUrl);
  const q = authorizeUrl.searchParams;
  q.set('response_type', 'code');
  q.set('client_id', s.clientId);
  q.set('redirect_uri', redirectUri);
  q.set('state', state);
  if (s.scope) q.set('scope', s.scope);
  if (s.audience) q.set('audience', s.audience);
  if (verifier) {
    q.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    q.set('code_challenge_method', 'S256');
  }
  const callback = await waitForLoopbackCallback(redirectUri, state, options.authorizeTimeoutMs ?? 300_000, options.signal, () => {
    if (!options.onAuthorizeUrl) throw new PrepareError('OAuth 2.0 authorization code needs a browser; nothing here can show the authorization URL.');
    options.onAuthorizeUrl(authorizeUrl.href);
  });
  const params = oauth.validateAuthResponse(e.as, e.client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(e.as, e.client, e.clientAuth, params, redirectUri, verifier ?? oauth.nopkce, e.http);
  return toCached(await oauth.processAuthorizationCodeResponse(e.as, e.client, response, ANY_TOKEN_TYPE));
}

function toCached(response: oauth.TokenEndpointResponse): CachedToken {
  const token: CachedToken = { accessToken: response.access_token, tokenType: response.token_type };
  if (response.refresh_token) token.refreshToken = response.refresh_token;
  if (typeof response.expires_in === 'number') token.expiresAt = Date.now() + response.expires_in * 1000;
  if (response.scope) token.scope = response.scope;
  return token;
}

function describeOAuthError(error: unknown): string {
  if (error instanceof PrepareError) return error.message;
  if (error instanceof oauth.ResponseBodyError) return oauthError(String(error.status), error.error, error.error_description);
  // A 401 with WWW-Authenticate, or an answer that is not a token response (a wrong tokenUrl's 404 page).
  if (error instanceof oauth.WWWAuthenticateChallengeError) return describeAnswer(error.response);
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response && answers.has(error.cause)) return describeAnswer(error.cause);
  if (error instanceof oauth.AuthorizationResponseError) {
    return `authorization was refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
  }
  const err = error as Error & { cause?: unknown };
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${err.message ?? String(error)}${cause}`;
}
