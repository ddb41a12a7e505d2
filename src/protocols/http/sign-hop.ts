/**
 * A redirect within the request's origin, signed again (spec 5.5): a signing auth (AWS, OAuth 1.0,
 * JWT, ASAP, Hawk, EdgeGrid) signs the method and URL, so the earlier hop's signature would be
 * refused on the new path. The headers the first signing added are taken off and the hop is signed
 * afresh for its own method, URL and body, as curl and Postman do. The signers load with the first
 * redirect of a signed request; a send without one never loads them.
 */
import type { PreparedBody, PreparedRequest } from '../../request/prepared.js';
import { loadOnce } from '../../support/load-once.js';
import { SendError } from '../send-error.js';
import { withoutQueryParams } from '../../request/url.js';

const signer = loadOnce(() => import('../../request/sign.js'));

/** Signs the hop to `url` with `method` and `body`: the URL, headers and body to send (OAuth 1.0 may sign in the query or a form body). */
export async function signHop(
  again: NonNullable<PreparedRequest['signEachHop']>,
  method: string,
  url: URL,
  headers: readonly [string, string][],
  body: Buffer | undefined,
  sent: PreparedBody,
): Promise<{ url: URL; headers: [string, string][]; body: Buffer | undefined }> {
  const added = new Set(again.added);
  const couldNotSign = (error: unknown) => new SendError(`${url.host} redirected to ${url.href}, which could not be signed again: ${(error as Error).message}`, 'redirects');
  const signing = await again.signing().catch((error: unknown) => Promise.reject(couldNotSign(error)));
  // OAuth 1.0 outside the header: the earlier hop's oauth_* parameters (in the query, or in a form
  // body a 307 or 308 sends again) are taken off before signing afresh.
  const inParams = signing.auth.type === 'oauth1' && signing.auth.addParamsToHeader === false;
  if (inParams) {
    url = new URL(url.href);
    url.search = withoutOAuth(url.search.slice(1));
    if (body !== undefined && sent.kind === 'bytes' && sent.source === 'formUrlencoded') body = Buffer.from(withoutOAuth(body.toString('utf8')), 'utf8');
  }
  const target = {
    method,
    url: new URL(url.href),
    headers: headers.filter(([name]) => !added.has(name.toLowerCase())).map(([name, value]) => ({ name, value })),
    body: (body === undefined
      ? { kind: 'none' }
      : { kind: 'bytes', source: sent.kind === 'bytes' ? sent.source : 'binary', bytes: body, isText: sent.kind === 'bytes' && sent.isText }) as PreparedBody,
  };
  try {
    await (await signer()).signAgain(signing, target, (text) => text);
  } catch (error) {
    throw couldNotSign(error);
  }
  const signedBody = target.body.kind === 'bytes' ? Buffer.from(target.body.bytes.buffer, target.body.bytes.byteOffset, target.body.bytes.byteLength) : undefined;
  return { url: target.url, headers: target.headers.map((h) => [h.name, h.value] as [string, string]), body: signedBody };
}

/** `a=1&oauth_nonce=…&b=2` without its oauth_* pairs, as written (the others keep their encoding). */
function withoutOAuth(pairs: string): string {
  return withoutQueryParams(pairs, (name) => /^oauth_/i.test(name));
}
