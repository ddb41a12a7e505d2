/**
 * Auth types that sign the final request (spec 5.5): run once the method, URL, headers and body
 * are final, on every send, so each signature, nonce and timestamp is fresh.
 */
import { loadOnce } from '../support/load-once.js';
import type { Auth } from '../model/index.js';
import { signAwsV4 } from './auth.js';
import { PrepareError } from './errors.js';
import type { SignContext } from './sign-key.js';
import type { SignTarget } from './sign-oauth1.js';

const oauth1Signer = loadOnce(() => import('./sign-oauth1.js'));
const jwtSigner = loadOnce(() => import('./sign-jwt.js'));
const hawkSigner = loadOnce(() => import('./sign-hawk.js'));
const edgegridSigner = loadOnce(() => import('./sign-edgegrid.js'));

export type { SignContext } from './sign-key.js';
export type { SignTarget } from './sign-oauth1.js';

const SIGNERS: Partial<Record<Auth['type'], (auth: Auth, target: SignTarget, ctx: SignContext) => void | Promise<void>>> = {
  awsv4: (auth, t, ctx) => signAwsV4(auth, t.method, t.url, t.headers, t.body, ctx.fill),
  // Each signer's library (jose, oauth-1.0a, hawk) loads when a request of its type is signed.
  oauth1: async (auth, t, ctx) => (await oauth1Signer()).signOAuth1(auth, t, ctx),
  jwt: async (auth, t, ctx) => (await jwtSigner()).signJwt(auth, t, ctx),
  asap: async (auth, t, ctx) => (await jwtSigner()).signAsap(auth, t, ctx),
  hawk: async (auth, t, ctx) => (await hawkSigner()).signHawk(auth, t, ctx),
  edgegrid: async (auth, t, ctx) => (await edgegridSigner()).signEdgegrid(auth, t, ctx),
};

/** True for the types `signRequest` signs. */
export const signsRequest = (type: string): boolean => type in SIGNERS;

/** Signs the request in place (headers, and for some placements the URL or body); messages name `ctx.where`. */
export async function signRequest(auth: Auth, target: SignTarget, ctx: SignContext): Promise<void> {
  const signer = SIGNERS[auth.type];
  if (!signer) return;
  try {
    await signer(auth, target, ctx);
  } catch (error) {
    if (error instanceof PrepareError) throw new PrepareError(error.message.startsWith(ctx.where) ? error.message : `${ctx.where}: ${error.message}`);
    throw error;
  }
}
