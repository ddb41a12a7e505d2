/** The OAuth 2.0 settings of a request and the key its token is cached under (no OAuth library needed). */
import { createHash } from 'node:crypto';

/** The OAuth 2.0 fields with variables already filled. */
export interface OAuth2Settings {
  grantType: 'clientCredentials' | 'password' | 'authorizationCode';
  tokenUrl: string;
  authUrl: string;
  redirectUri: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  audience: string;
  username: string;
  password: string;
  clientAuth: 'basicHeader' | 'body';
  pkce: boolean;
}

export function tokenCacheKey(s: OAuth2Settings): string {
  const identity = [s.grantType, s.tokenUrl, s.authUrl, s.clientId, s.scope, s.audience, s.username];
  return `oauth2:${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32)}`;
}
