/**
 * Secret values never leave `ferry mcp` unmasked (issue 23): every tool result and resource is
 * masked with every secret value this computer holds for the workspace (the workspace's and each
 * environment's), not only the active environment's, since a tool may name any environment.
 * The mask is the runner's `SecretMask` (`***`), applied to every string of a result before it is
 * turned into text, so a value is found as written, not as JSON escapes it.
 */
import type { PreparedRequest } from '../request/index.js';
import type { SecretMask } from '../variables/index.js';

/**
 * Adds the credentials of a prepared request that hold a secret in a form the mask cannot see:
 * a Basic credential is Base64 of `user:password`, so a secret password never appears as written;
 * a cached OAuth 2.0 token is this computer's, as a secret is.
 */
export function addPreparedCredentials(mask: SecretMask, prepared: PreparedRequest): void {
  for (const header of prepared.headers) {
    if (!/^(proxy-)?authorization$/i.test(header.name)) continue;
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header.value);
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      if (mask.text(decoded) !== decoded) mask.add(basic[1]!);
      continue;
    }
    if (prepared.authType === 'oauth2' && prepared.oauth2TokenCached) {
      const token = header.value.replace(/^\S+\s+/, '');
      if (token.length >= 8) mask.add(token);
    }
  }
}

