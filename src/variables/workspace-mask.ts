/**
 * Masking what leaves Ferry for a page or an agent with every secret value this computer holds for
 * the workspace (the workspace's and each environment's): `ferry mcp`'s results and resources and
 * the app's server traffic. Every string of a value is masked before it is turned into text, so a
 * value is found as written, not as JSON escapes it.
 */
import type { WorkspaceData } from '../appdata/index.js';
import type { Workspace } from '../workspace/index.js';
import { SecretMask } from './secret-mask.js';

/** A mask of every secret value stored on this computer for the workspace (added to `mask` when given). */
export async function workspaceSecretMask(ws: Workspace, data: WorkspaceData, mask = new SecretMask()): Promise<SecretMask> {
  for (const scope of ['workspace', ...ws.environments.map((e) => e.id)]) {
    const values = await data.secrets.all(scope).catch(() => ({}) as Record<string, string>);
    for (const value of Object.values(values)) mask.add(value);
  }
  return mask;
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
    // Bytes (a traffic record's payload) are not text to mask.
    if (v === null || typeof v !== 'object' || depth > 64 || ArrayBuffer.isView(v)) return v;
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) out[maskText(key, mask)] = walk(item, depth + 1);
    return out;
  };
  return walk(value, 0) as T;
}
