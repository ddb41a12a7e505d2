/**
 * Socket.IO's transports for a signed request (spec 5.5): every request of the connection is signed
 * afresh for its own method, URL and body, as a server checking each signature wants. None of them
 * goes to the request's URL (its path is the namespace): long-polling's GETs and POSTs and the
 * WebSocket upgrade go to `socketio.path` with Engine.IO's query (`?EIO=4&transport=polling&t=…`,
 * later `&sid=…`), each URL its own. The upgrade is signed before it is sent (ws's `finishRequest`);
 * long-polling goes through a fetch on Ferry's connection pools (support/fetch-on.ts: verifyTls,
 * client certificates, the run's proxy, any port), each request signed first, read within maxResponseMb as every poll is
 * (polling.ts). Unsigned requests keep socket.io-client's WebSocket transport and polling.ts's long-polling.
 */
import type { ClientRequest } from 'node:http';
import type { Fetch, NodeWebSocket } from 'socket.io-client';
import type { PreparedBody, PreparedRequest } from '../../request/prepared.js';
import type { SendContext } from '../kind.js';
import { preparedFetch } from '../prepared-fetch.js';
import { SendError } from '../send-error.js';
import { signHop, signThenSend } from '../sign-hop.js';
import type { PollRequest } from './polling.js';

type Again = NonNullable<PreparedRequest['signEachHop']>;
type TransportClass = typeof NodeWebSocket | typeof Fetch;

/**
 * The transports, in the order `names` gives, signing each request with `again`; `webSocket` is
 * the WebSocket transport to sign the upgrade of (websocket-transport.ts), `polling` makes the
 * long-polling class (polling.ts) from how a request goes out.
 */
export function signedTransports(again: Again, prepared: PreparedRequest, context: SendContext, names: readonly ('websocket' | 'polling')[], webSocket: typeof NodeWebSocket, polling: (request: PollRequest) => typeof Fetch): TransportClass[] {
  // Made on undici's request: its fetch refuses the Fetch standard's "bad ports" (6000, 6665–6669, 10080…).
  const send = preparedFetch(prepared, context);
  const couldNotSign = (method: string, url: URL) => (reason: string) => new SendError(`the Socket.IO ${method} to ${url.host}${url.pathname} could not be signed: ${reason}`, 'other');
  const sign = (method: string, url: URL, headers: Record<string, unknown>, bytes?: Buffer) => {
    const pairs = Object.entries(headers).map(([name, value]) => [name, String(value)] as [string, string]);
    const body: PreparedBody = bytes ? { kind: 'bytes', source: 'text', bytes, isText: true } : { kind: 'none' };
    return signHop(again, method, url, pairs, bytes, body, couldNotSign(method, url));
  };

  class SignedWebSocket extends webSocket {
    override createSocket(uri: string, protocols: string | string[] | undefined, opts: Record<string, unknown>): ReturnType<NodeWebSocket['createSocket']> {
      // ws sends the upgrade when this calls end(): signed first, for the URL the upgrade goes to.
      opts.finishRequest = (request: ClientRequest) => signThenSend(again, request, new URL(uri), couldNotSign('GET', new URL(uri)));
      return super.createSocket(uri, protocols, opts);
    }
  }

  // Each poll and POST signed for its own URL and body, then sent through Ferry's pools.
  const signedPoll: PollRequest = async (transport, data, signal) => {
    const post = data !== undefined;
    const headers: Record<string, unknown> = { ...((transport.opts.extraHeaders as Record<string, unknown> | undefined) ?? {}), ...(post ? { 'Content-Type': 'text/plain;charset=UTF-8' } : {}) };
    const url = new URL(transport.uri());
    const signed = await sign(post ? 'POST' : 'GET', url, headers, post ? Buffer.from(data, 'utf8') : undefined);
    const answer = await send(signed.url, { method: post ? 'POST' : 'GET', headers: signed.headers, ...(post ? { body: signed.body ?? data } : {}), signal });
    return { status: answer.status, body: (answer.body ?? []) as AsyncIterable<Uint8Array> };
  };
  const SignedPolling = polling(signedPoll);

  return names.map((name) => (name === 'websocket' ? SignedWebSocket : SignedPolling));
}
