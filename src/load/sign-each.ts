/**
 * Each send of a target whose auth signs requests (AWS, OAuth 1.0, JWT, ASAP, Hawk, EdgeGrid),
 * signed afresh: filled for this send, then given its own nonce, time and signature, as a server
 * that refuses a repeated nonce or an old timestamp wants (k6 and Postman's runner sign each too).
 * A redirect within the origin is signed again for its own method and URL (signRedirect), as a run
 * signs it. The signers load with the first signed send; a test without one never loads them.
 */
import type { PreparedBody } from '../request/prepared.js';
import { loadOnce } from '../support/load-once.js';
import type { WireSigning } from './wire.js';

const signer = loadOnce(() => import('../request/sign.js'));
const hopSigner = loadOnce(() => import('../protocols/sign-hop.js'));

export interface SignedSend {
  url: URL;
  /** Name, value, name, value… */
  headers: string[];
  /** OAuth 1.0 may put its parameters in a form body. */
  body: Uint8Array | undefined;
}

/** Signs one send: `fill` fills the auth's values that change per send, as it filled the request. */
export async function signSend(signing: WireSigning, method: string, url: URL, headers: readonly string[], body: Uint8Array | undefined, fill: (text: string) => string): Promise<SignedSend> {
  const target = {
    method,
    // A copy: `url` may be the target's URL parsed once for every send, and signing may add to its query.
    url: new URL(url.href),
    headers: [] as { name: string; value: string }[],
    body: (body === undefined ? { kind: 'none' } : { kind: 'bytes', source: signing.bodySource, bytes: body, isText: signing.bodyIsText }) as PreparedBody,
  };
  for (let i = 0; i < headers.length; i += 2) target.headers.push({ name: headers[i]!, value: headers[i + 1]! });
  await (await signer()).signAgain(signing, target, fill);
  return { url: target.url, headers: target.headers.flatMap((h) => [h.name, h.value]), body: target.body.kind === 'bytes' ? target.body.bytes : undefined };
}

/**
 * A redirect's next hop within the origin, signed again as `ferry run` signs it
 * (protocols/sign-hop.ts): the headers the signature added taken off (and OAuth 1.0's parameters
 * from the query or form body), then signed for the hop's own method, URL and body.
 */
export async function signRedirect(signing: WireSigning, method: string, url: URL, headers: readonly string[], body: Uint8Array | undefined, fill: (text: string) => string): Promise<SignedSend> {
  const pairs: [string, string][] = [];
  for (let i = 0; i < headers.length; i += 2) pairs.push([headers[i]!, headers[i + 1]!]);
  const sent = (body === undefined ? { kind: 'none' } : { kind: 'bytes', source: signing.bodySource, bytes: body, isText: signing.bodyIsText }) as PreparedBody;
  const bytes = body && Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const again = { added: signing.added, signing: () => Promise.resolve(signing) };
  const signed = await (await hopSigner()).signHop(again, method, url, pairs, bytes, sent, undefined, fill);
  return { url: signed.url, headers: signed.headers.flat(), body: signed.body };
}
