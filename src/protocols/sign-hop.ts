/**
 * A further HTTP request of a signed send, signed again (spec 5.5): a signing auth (AWS, OAuth 1.0,
 * JWT, ASAP, Hawk, EdgeGrid) signs the method and URL, and some sign the body, the time and a nonce,
 * so the signature made when preparing would be refused on another request. The headers the first
 * signing added are taken off and the request is signed afresh for its own method, URL and body:
 * a redirect within the origin (as curl and Postman do; HTTP and WebSocket), each call of a gRPC
 * send besides the one it was prepared for (server reflection's), each request of an MCP session or
 * a Socket.IO connection, a GraphQL subscription's upgrade, a load test's redirect (load/sign-each.ts). The signers load with the first such
 * request; a send without one never loads them.
 */
import type { ClientRequest } from 'node:http';
import type { PreparedBody, PreparedRequest } from '../request/prepared.js';
import { loadOnce } from '../support/load-once.js';
import { SendError } from './send-error.js';
import { withoutQueryParams } from '../request/url.js';

const signer = loadOnce(() => import('../request/sign.js'));

/** A redirect's refusal: the hop to `url` could not be signed (the reason ends with what to do). */
export const redirectNotSigned = (url: URL) => (reason: string) => new SendError(`${url.host} redirected to ${url.href}, which could not be signed again: ${reason}`, 'redirects');

/**
 * Signs the request to `url` with `method` and `body`: the URL, headers and body to send (OAuth 1.0
 * may sign in the query or a form body). `couldNotSign` words a failure (a redirect's by default).
 */
export async function signHop(
  again: NonNullable<PreparedRequest['signEachHop']>,
  method: string,
  url: URL,
  headers: readonly [string, string][],
  body: Buffer | undefined,
  sent: PreparedBody,
  couldNotSign: (reason: string) => SendError = redirectNotSigned(url),
  // The auth's `{{…}}` values: already filled in a send; a load test fills them per request (its data row, captures).
  fill: (text: string) => string = (text) => text,
): Promise<{ url: URL; headers: [string, string][]; body: Buffer | undefined }> {
  const added = new Set(again.added);
  const signing = await again.signing().catch((error: unknown) => Promise.reject(couldNotSign((error as Error).message)));
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
    // A kind that encodes its messages when sending (gRPC): their bytes are not signed (AWS: UNSIGNED-PAYLOAD).
    ...(again.bodyEncodedBy ? { bodyEncodedBy: again.bodyEncodedBy } : {}),
  };
  try {
    await (await signer()).signAgain(signing, target, fill);
  } catch (error) {
    throw couldNotSign((error as Error).message);
  }
  const signedBody = target.body.kind === 'bytes' ? Buffer.from(target.body.bytes.buffer, target.body.bytes.byteOffset, target.body.bytes.byteLength) : undefined;
  return { url: target.url, headers: target.headers.map((h) => [h.name, h.value] as [string, string]), body: signedBody };
}

/**
 * A request made by a library (`ws`'s upgrade, not sent yet: it waits for `end()`) to `url`, signed
 * again in place for a GET of that URL without a body: the earlier signature's headers replaced by
 * this one's (its query too, for OAuth 1.0 in the query), then sent. A failure destroys it with the
 * reason, which the library reports as the connection's error.
 */
export function signThenSend(again: NonNullable<PreparedRequest['signEachHop']>, request: ClientRequest, url: URL, couldNotSign: (reason: string) => SendError): void {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(request.getHeaders())) {
    if (name === 'host' || value === undefined) continue;
    for (const one of [value].flat()) headers.push([name, String(one)]);
  }
  signHop(again, 'GET', url, headers, undefined, { kind: 'none' }, couldNotSign).then(
    (signed) => {
      const added = new Set(again.added);
      for (const name of added) request.removeHeader(name);
      for (const [name, value] of signed.headers) if (added.has(name.toLowerCase()) || request.getHeader(name) === undefined) request.setHeader(name, value);
      request.path = signed.url.pathname + signed.url.search;
      request.end();
    },
    (error: Error) => request.destroy(error),
  );
}

/** `a=1&oauth_nonce=…&b=2` without its oauth_* pairs, as written (the others keep their encoding). */
function withoutOAuth(pairs: string): string {
  return withoutQueryParams(pairs, (name) => /^oauth_/i.test(name));
}
