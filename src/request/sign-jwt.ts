/**
 * JWT Bearer and ASAP (Atlassian service-to-service) tokens, signed with `jose`: HS256–512 with a
 * secret, RS/PS/ES with a private key. A fresh token is made for every send.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { PrepareError } from './errors.js';
import { setQueryParam } from './url.js';
import type { SignTarget } from './sign-oauth1.js';
import { readPrivateKey, setSignedAuthorization, type SignContext } from './sign-key.js';

function jsonObject(text: string, what: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PrepareError(`${what} is not valid JSON (${(error as Error).message}); write a JSON object such as {"sub": "me"}.`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new PrepareError(`${what} must be a JSON object, like {"sub": "me"}.`);
  return value as Record<string, unknown>;
}

async function sign(payload: Record<string, unknown>, header: Record<string, unknown>, key: Parameters<SignJWT['sign']>[0], what: string): Promise<string> {
  try {
    return await new SignJWT(payload as JWTPayload).setProtectedHeader(header as { alg: string }).sign(key);
  } catch (error) {
    throw new PrepareError(`${what}: the token cannot be signed with this key: ${(error as Error).message}.`);
  }
}

export async function signJwt(auth: Record<string, unknown>, target: SignTarget, ctx: SignContext): Promise<void> {
  const f = (field: string) => ctx.fill(String(auth[field] ?? ''));
  const alg = String(auth.algorithm ?? 'HS256');
  const payload = jsonObject(f('payload'), 'JWT Bearer: the payload');
  const header = { typ: 'JWT', ...jsonObject(auth.header === undefined ? '' : f('header'), 'JWT Bearer: the header'), alg };
  let key: Parameters<SignJWT['sign']>[0];
  if (alg.startsWith('HS')) {
    const secret = f('secret');
    if (secret === '') throw new PrepareError('JWT Bearer: the secret is empty; set secret on the auth (a secret variable works, e.g. {{jwtSecret}}).');
    key = auth.isSecretBase64Encoded === true ? new Uint8Array(Buffer.from(secret, 'base64')) : new TextEncoder().encode(secret);
  } else {
    key = await readPrivateKey(auth, ctx, `JWT Bearer ${alg}`);
  }
  const token = await sign(payload, header, key, `JWT Bearer ${alg}`);
  if (auth.addTokenTo === 'queryParam') {
    const name = f('queryParamKey') || 'token';
    // Replaced, not added: a redirect's Location may carry the earlier hop's token.
    setQueryParam(target.url, name, token);
  } else {
    const prefix = auth.headerPrefix === undefined ? 'Bearer' : f('headerPrefix').trim();
    setSignedAuthorization(target.headers, prefix === '' ? token : `${prefix} ${token}`);
  }
}

export async function signAsap(auth: Record<string, unknown>, target: SignTarget, ctx: SignContext): Promise<void> {
  const f = (field: string) => ctx.fill(String(auth[field] ?? ''));
  const alg = String(auth.alg ?? 'RS256');
  const claims = jsonObject(auth.claims === undefined ? '' : f('claims'), 'ASAP: the claims');
  const iss = String(claims.iss ?? f('iss'));
  const aud = claims.aud ?? f('aud');
  const kid = String(claims.kid ?? f('kid'));
  const missing = [['iss', iss], ['aud', aud], ['kid', kid]].filter(([, v]) => v === '').map(([n]) => n);
  if (missing.length > 0) throw new PrepareError(`ASAP: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} empty; the issuer, audience and key id are required.`);
  const expText = auth.exp === undefined ? '3600' : f('exp').trim();
  const expSeconds = Number(expText || '3600');
  if (!Number.isInteger(expSeconds) || expSeconds <= 0) throw new PrepareError(`ASAP: exp must be the token's lifetime in whole seconds (like 3600), got "${expText}".`);
  const now = Math.floor(Date.now() / 1000);
  const key = await readPrivateKey(auth, ctx, `ASAP ${alg}`);
  const payload = {
    iss,
    sub: claims.sub ?? (f('sub') || iss),
    aud,
    jti: randomUUID(),
    iat: now,
    exp: now + expSeconds,
    ...claims,
  };
  delete (payload as Record<string, unknown>).kid;
  const token = await sign(payload, { alg, kid, typ: 'JWT' }, key, `ASAP ${alg}`);
  setSignedAuthorization(target.headers, `Bearer ${token}`);
}
