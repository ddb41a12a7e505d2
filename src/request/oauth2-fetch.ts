/**
 * "Get token" (the app's auth editor): the OAuth 2.0 access token a send of this request would
 * use, fetched and cached by the same code a send runs (`applyAuth` → `oauth2AccessToken`, the
 * same settings, variables and cache key), without preparing or sending the request itself.
 */
import { render } from '../template/index.js';
import { oauth2AccessToken, oauth2Settings } from './auth.js';
import { PrepareError } from './errors.js';
import { effectiveAuth } from './inherit.js';
import type { PrepareInput, PrepareOptions } from './prepare.js';

export interface FetchedToken {
  /** True when a cached, unexpired token was there (nothing fetched). */
  cached: boolean;
  /** Epoch milliseconds; absent when the provider gave no expiry. */
  expiresAt?: number;
  /** The token's first characters and its length, never the whole value (it is a secret). */
  masked: string;
  /** Where the auth came from: the request, a folder (its path) or the workspace. */
  source: string;
}

/** The token shown masked: enough to tell two tokens apart, too little to use one. */
export function maskToken(token: string): string {
  const shown = token.length >= 16 ? token.slice(0, 4) : '';
  return `${shown}… (${token.length} characters)`;
}

/** `where`: the file the auth is edited in, for messages (default: the request's). */
export async function fetchOAuth2Token(input: PrepareInput, options: PrepareOptions = {}, where = input.path ? `requests/${input.path}` : `request "${input.request.name}"`): Promise<FetchedToken> {
  const variables = input.variables;
  const fill = variables ? (text: string) => render(text, 'request', { variables }) : (text: string) => text;
  const { auth, source } = effectiveAuth(input.request, input.folders, input.workspace.file);
  if (auth.type !== 'oauth2') throw new PrepareError(`${where}: its auth is ${auth.type === 'none' ? 'none' : auth.type}, not OAuth 2.0; choose OAuth 2.0 (here or on a folder) to get a token.`);
  try {
    const token = await oauth2AccessToken(oauth2Settings(auth, fill), { fetchTokens: true, data: options.data, ...options.oauth2 });
    if (!token) throw new PrepareError('OAuth 2.0: no token was given.');
    return { cached: token.cached, ...(token.expiresAt !== undefined ? { expiresAt: token.expiresAt } : {}), masked: maskToken(token.token), source: String(source) };
  } catch (error) {
    if (error instanceof PrepareError) throw new PrepareError(`${where}: ${error.message}`);
    throw error;
  }
}
