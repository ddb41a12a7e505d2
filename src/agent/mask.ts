/**
 * Secret values never leave `ferry mcp` unmasked (issue 23): every tool result and resource is
 * masked with every secret value this computer holds for the workspace (the workspace's and each
 * environment's), not only the active environment's, since a tool may name any environment.
 * The mask is the runner's `SecretMask` (`***`), applied to every string of a result before it is
 * turned into text, so a value is found as written, not as JSON escapes it.
 */
import type { WorkspaceData } from '../appdata/index.js';
import type { PreparedRequest } from '../request/index.js';
import { SecretMask } from '../variables/index.js';
import type { Workspace } from '../workspace/index.js';

/** A mask of every secret value stored on this computer for the workspace. */
export async function workspaceSecretMask(ws: Workspace, data: WorkspaceData): Promise<SecretMask> {
  const mask = new SecretMask();
  for (const scope of ['workspace', ...ws.environments.map((e) => e.id)]) {
    const values = await data.secrets.all(scope).catch(() => ({}) as Record<string, string>);
    for (const value of Object.values(values)) mask.add(value);
  }
  return mask;
}

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

/** Runs of Base64 long enough to hold a credential (`user:password` in a Basic header a server echoes). */
const BASE64_RUN = /[A-Za-z0-9+/]{8,}={0,2}/g;

/**
 * The text masked, and also every Base64 run whose decoded text holds a secret value: a server
 * that echoes the request's headers sends a Basic credential back encoded, and the mask alone
 * would not see the password in it.
 */
export function maskText(text: string, mask: SecretMask): string {
  if (mask.size === 0 || text === '') return text;
  const masked = mask.text(text);
  return masked.replace(BASE64_RUN, (run) => {
    const decoded = Buffer.from(run, 'base64').toString('utf8');
    return mask.text(decoded) === decoded ? run : '***';
  });
}

/** A copy of `value` with every string masked (keys too: a header name could carry nothing, but an object key may). */
export function maskDeep<T>(value: T, mask: SecretMask): T {
  if (mask.size === 0) return value;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return maskText(v, mask);
    if (v === null || typeof v !== 'object' || depth > 64) return v;
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) out[maskText(key, mask)] = walk(item, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
