/**
 * Auth types that sign the final request (spec 5.5): run once the method, URL, headers and body
 * are final, on every send, so each signature, nonce and timestamp is fresh.
 */
import { loadOnce } from '../support/load-once.js';
import type { Auth } from '../model/index.js';
import { AUTH_NAMES, signAwsV4 } from './auth.js';
import { PrepareError } from './errors.js';
import { readPrivateKey, type SignContext } from './sign-key.js';
import type { SignTarget } from './sign-oauth1.js';
import type { RepeatSigning } from './prepared.js';

const oauth1Signer = loadOnce(() => import('./sign-oauth1.js'));
const jwtSigner = loadOnce(() => import('./sign-jwt.js'));
const hawkSigner = loadOnce(() => import('./sign-hawk.js'));
const edgegridSigner = loadOnce(() => import('./sign-edgegrid.js'));

export type { SignContext } from './sign-key.js';
export type { SignTarget } from './sign-oauth1.js';

/** A signer returns false when it leaves the request unsigned (Hawk without an id or key, as Newman). */
const SIGNERS: Partial<Record<Auth['type'], (auth: Auth, target: SignTarget, ctx: SignContext) => void | boolean | Promise<void | boolean>>> = {
  awsv4: (auth, t, ctx) => signAwsV4(auth, t.method, t.url, t.headers, t.body, ctx.fill, t.bodyEncodedBy !== undefined),
  // Each signer's library (jose, oauth-1.0a, hawk) loads when a request of its type is signed.
  oauth1: async (auth, t, ctx) => (await oauth1Signer()).signOAuth1(auth, t, ctx),
  jwt: async (auth, t, ctx) => (await jwtSigner()).signJwt(auth, t, ctx),
  asap: async (auth, t, ctx) => (await jwtSigner()).signAsap(auth, t, ctx),
  hawk: async (auth, t, ctx) => (await hawkSigner()).signHawk(auth, t, ctx),
  edgegrid: async (auth, t, ctx) => (await edgegridSigner()).signEdgegrid(auth, t, ctx),
};

/** True for the types `signRequest` signs. */
export const signsRequest = (type: string): boolean => type in SIGNERS;

/**
 * Signs the request in place (headers, and for some placements the URL or body); messages name
 * `ctx.where`. True when it was signed (false: not a signing type, or the auth leaves it unsigned).
 */
export async function signRequest(auth: Auth, target: SignTarget, ctx: SignContext): Promise<boolean> {
  const signer = SIGNERS[auth.type];
  if (!signer) return false;
  try {
    return (await signer(auth, target, ctx)) !== false;
  } catch (error) {
    if (error instanceof PrepareError) throw new PrepareError(error.message.startsWith(ctx.where) ? error.message : `${ctx.where}: ${error.message}`);
    // A signing library's own refusal fails this request with its reason, not the whole run.
    throw new PrepareError(`${ctx.where}: ${AUTH_NAMES[auth.type] ?? auth.type} could not sign the request: ${(error as Error).message ?? String(error)}; check the auth's fields.`);
  }
}

/** Who reads a private key, for messages. */
const KEY_USERS: Partial<Record<Auth['type'], string>> = { oauth1: 'OAuth 1.0', jwt: 'JWT Bearer', asap: 'ASAP' };

/** The signing `auth` makes, to do again at every send (see `RepeatSigning`). */
export async function repeatSigning(auth: Auth, ctx: SignContext): Promise<RepeatSigning> {
  const filled: Auth = { ...auth };
  for (const [field, value] of Object.entries(auth)) if (field !== 'type' && typeof value === 'string') filled[field] = ctx.fill(value);
  if (typeof filled.privateKeyFile === 'string' && filled.privateKeyFile.trim() !== '') {
    const key = await readPrivateKey(filled, { ...ctx, fill: (text) => text }, KEY_USERS[auth.type] ?? auth.type);
    filled.privateKey = key.export({ type: 'pkcs8', format: 'pem' }) as string;
    filled.privateKeyFile = '';
  }
  return { auth: filled, root: ctx.root, allowFilesOutside: ctx.allowFilesOutside, where: ctx.where };
}

/** Signs `target` in place as `signing` says; `fill` fills what changes per send (the caller's markers). */
export function signAgain(signing: RepeatSigning, target: SignTarget, fill: (text: string) => string): Promise<boolean> {
  return signRequest(signing.auth, target, { fill, root: signing.root, allowFilesOutside: signing.allowFilesOutside, where: signing.where });
}
