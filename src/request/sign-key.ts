/**
 * The private key of a signing auth type (OAuth 1.0 RSA, JWT, ASAP): PEM text in `privateKey`
 * (often a secret variable) or a file named by `privateKeyFile`, read under the body-file rules
 * (inside the workspace unless files outside it are allowed; links never followed).
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { FileTooLargeError, readFileNoFollow } from '../support/read-no-follow.js';
import { checkBodyFile } from './body.js';
import { PrepareError } from './errors.js';

/** What the signers need to find key files and fill fields. */
export interface SignContext {
  fill: (text: string) => string;
  root: string;
  allowFilesOutside: boolean;
  where: string;
  /**
   * The key files this prepared request has read, by the path as written: its later signings
   * (each redirect, each send of a load test) take the key from here, so one request is signed
   * with one key even when the file changes meanwhile, and the file is read once.
   */
  keyFiles?: Map<string, string>;
}

/** A PEM key file is a few kilobytes; a larger file is not a key. */
const MAX_KEY_FILE_BYTES = 1024 * 1024;

export async function readPrivateKey(auth: Record<string, unknown>, ctx: SignContext, what: string): Promise<KeyObject> {
  const file = ctx.fill(String(auth.privateKeyFile ?? '')).trim();
  let pem = ctx.fill(String(auth.privateKey ?? ''));
  let source = 'privateKey';
  if (file !== '') {
    const read = ctx.keyFiles?.get(file);
    if (read !== undefined) pem = read;
    else {
      const absolute = await checkBodyFile(file, ctx, `${what} private key`);
      try {
        pem = await readFileNoFollow(absolute, 'utf8', MAX_KEY_FILE_BYTES);
      } catch (error) {
        if (error instanceof FileTooLargeError) throw new PrepareError(`${ctx.where}: the ${what} private key file ${file} is over 1 MB; it is not a PEM key.`);
        throw new PrepareError(`${ctx.where}: the ${what} private key file ${file} cannot be read: ${(error as Error).message}.`);
      }
      ctx.keyFiles?.set(file, pem);
    }
    source = `privateKeyFile ${file}`;
  }
  if (pem.trim() === '') {
    throw new PrepareError(`${ctx.where}: ${what} needs a private key: set privateKey to the PEM text (a secret variable works, e.g. {{privateKey}}) or privateKeyFile to a .pem file in the workspace.`);
  }
  try {
    return parsedKey(pem);
  } catch (error) {
    if (ENCRYPTED_PEM.test(pem) || (error as { code?: string }).code === 'ERR_OSSL_CRYPTO_INTERRUPTED_OR_CANCELLED') {
      // The auth types have no passphrase field (collection exports carry none): OpenSSL's own words
      // ("interrupted or cancelled") would not say so.
      throw new PrepareError(
        `${ctx.where}: the ${what} private key (${source}) is encrypted with a passphrase, which Ferry cannot ask for when signing; decrypt it once (openssl pkey -in ${file || 'FILE'} -out key.pem asks for the passphrase) and name the decrypted file, or put its PEM text in a secret variable used in privateKey.`,
      );
    }
    throw new PrepareError(`${ctx.where}: the ${what} private key (${source}) is not a usable PEM private key (${(error as Error).message}); use an unencrypted PKCS#8, PKCS#1 or EC key.`);
  }
}

/** PKCS#8 `ENCRYPTED PRIVATE KEY`, or a traditional PEM key with `Proc-Type: 4,ENCRYPTED`. */
const ENCRYPTED_PEM = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,\s*ENCRYPTED/;

/** Keys parsed lately, by their PEM text: a load test signs every request with the same key. */
const parsedKeys = new Map<string, KeyObject>();

function parsedKey(pem: string): KeyObject {
  const known = parsedKeys.get(pem);
  if (known !== undefined) return known;
  // Collection exports may keep the PEM on one line with literal \n.
  const key = createPrivateKey(pem.includes('-----BEGIN') ? pem.replace(/\\n/g, '\n') : pem);
  if (parsedKeys.size >= 8) parsedKeys.delete(parsedKeys.keys().next().value!);
  parsedKeys.set(pem, key);
  return key;
}

/**
 * Sets the signed Authorization header, replacing one the request carries: an Authorization
 * header saved with a signing type is an old signature (collection exports include the last one
 * sent), which the server would refuse. Postman does the same.
 */
export function setSignedAuthorization(headers: { name: string; value: string }[], value: string): void {
  for (let i = headers.length - 1; i >= 0; i--) if (headers[i]!.name.toLowerCase() === 'authorization') headers.splice(i, 1);
  headers.push({ name: 'Authorization', value });
}

/** The scheme the server sees: WebSocket upgrades and gRPC calls are HTTP requests (ws → http, wss → https). */
export function httpScheme(url: URL): string {
  const scheme = url.protocol.slice(0, -1);
  return scheme === 'wss' || scheme === 'grpcs' ? 'https' : scheme === 'ws' || scheme === 'grpc' ? 'http' : scheme;
}
