/**
 * Subscriptions over GraphQL over SSE (transport `sse`), with the `graphql-sse` library's client
 * in distinct-connections mode: one POST per subscription, answered with an event stream of `next`
 * events until `complete`. The POST is sent by Ferry's HTTP client (sendHttp: TLS verification,
 * proxy, HTTP version, cookies, redirects with their auth rules) with the request's headers and auth;
 * a signing auth signs the POST the library makes (its URL and body) and each same-origin redirect
 * again, as for any HTTP request. A refusal whose body is a GraphQL
 * `errors` list (a query the server does not validate) ends the stream with `error`, as the
 * WebSocket protocols' `error` message does; other refusals fail the send with the server's words.
 * The library's fetch answers are Node's global Response: undici's package index would load all of
 * undici (110 files) for that one class.
 */
import { STATUS_CODES } from 'node:http';
import { DEFAULT_SETTINGS } from '../../../model/index.js';
import type { PreparedHeader, PreparedRequest, PreparedSettings } from '../../../request/prepared.js';
import { describeSocketError } from '../../connection-errors.js';
import type { ProtocolResult, SendContext } from '../../kind.js';
import { SendError } from '../../send-error.js';
import { responseTooLarge } from '../http-errors.js';
import { limitedResponse } from '../limited-response.js';
import { sendHttp } from '../http.js';
import { withStreamHeaders } from '../../sse/stream-headers.js';
import { StreamSession } from '../../stream/session.js';
import type { GraphqlOperation } from './operation.js';
import { connectionHeaders, receiveResult, subscribeText } from './target.js';
import { openLive } from '../../live/connection.js';
import type { ConnectHandlers, LiveConnection } from '../../live/types.js';
import { subscriptionEnd } from './connection.js';

/** Most bytes of a refusal's body read for its message. */
const REFUSAL_BYTES = 64 * 1024;

export async function subscribeSse(prepared: PreparedRequest, operation: GraphqlOperation, url: URL, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const { createClient } = await import('graphql-sse');
  checkSettings(prepared);
  const session = new StreamSession(prepared, signal);
  const state = startSse(createClient, prepared, operation, url, context, session);
  await session.finish();
  const answer = state.answer;
  const headers: [string, string][] = answer ? [...answer.headers] : [];
  const status = answer?.status ?? 0;
  return session.result({
    outcome: {
      status,
      text: answer?.statusText ?? '',
      ok: status < 400 && session.messages?.stoppedBy !== 'error',
      rule: 'a subscription without tests fails at 400 and above, or when the server ends it with an error',
    },
    url: url.href,
    headers,
    headerBytes: headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0),
    detail: { transport: 'graphql-sse' },
  });
}

/** The subscription kept open (live): its results are messages until the server completes it or the user closes it. */
export async function connectSse(prepared: PreparedRequest, operation: GraphqlOperation, url: URL, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const { createClient } = await import('graphql-sse');
  checkSettings(prepared);
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  const state = startSse(createClient, prepared, operation, url, context, session);
  return openLive(session, {
    noun: `the GraphQL subscription at ${url.host}`,
    info: () => ({ url: url.href, headers: state.answer ? [...state.answer.headers] : [], detail: { transport: 'graphql-sse' } }),
    peerEnd: (stop) => subscriptionEnd(stop, url),
  });
}

/** Refused before the session opens (the HTTP client would refuse it at the POST). */
function checkSettings(prepared: PreparedRequest): void {
  const settings: PreparedSettings = prepared.settings ?? (DEFAULT_SETTINGS as unknown as PreparedSettings);
  if (settings.httpVersion === 'http3') {
    throw new SendError('HTTP/3 is not supported yet: set settings.httpVersion to auto, http1 or http2 for this request.', 'unsupported');
  }
}

/** POSTs the subscription and wires its events to the session: the one connection code of send and connect. */
function startSse(
  createClient: typeof import('graphql-sse').createClient,
  prepared: PreparedRequest,
  operation: GraphqlOperation,
  url: URL,
  context: SendContext,
  session: StreamSession,
): { answer: Response | undefined } {
  const state: { answer: Response | undefined } = { answer: undefined };
  let refusal: { status: number; statusText: string; body: string } | undefined;
  /** The HTTP client's own error (the library keeps only its text): refused, TLS… */
  let fetchError: unknown;
  /** The event stream passed `maxResponseMb`. */
  let tooLarge = false;

  const fetchFn = async (input: string, init?: RequestInit) => {
    let response: Response;
    try {
      response = await postThroughClient(prepared, input, init, context);
    } catch (error) {
      fetchError ??= error;
      throw error;
    }
    if (init?.method === 'POST') state.answer = response;
    if (!response.ok && init?.method === 'POST') refusal = { status: response.status, statusText: response.statusText, body: await readSome(response) };
    return response.ok ? limitedResponse(response, context.maxResponseMb, () => (tooLarge = true)) : response;
  };
  const client = createClient({
    url: url.href,
    singleConnection: false,
    fetchFn: fetchFn as unknown as typeof fetch,
    retryAttempts: 0,
    on: { connected: () => session.open().sent({ event: 'subscribe', text: subscribeText(operation) }) },
  });
  const { operationName, ...rest } = operation.payload;
  const unsubscribe = client.subscribe({ ...rest, ...(operationName ? { operationName } : {}) }, {
    next: (value) => receiveResult(session, value),
    error: (error: unknown) => {
      if (tooLarge) session.fail(responseTooLarge(context.maxResponseMb));
      else if (session.messages) session.messages.closed();
      else if (refusal && graphqlErrors(refusal.body)) session.open().endWith('error', { event: 'error', text: JSON.stringify(graphqlErrors(refusal.body)) });
      else if (refusal) session.fail(refused(url, refusal));
      else {
        const cause = fetchError ?? error;
        session.fail(describeSocketError((cause as { cause?: unknown })?.cause ?? cause, url, 'subscribing over SSE to'));
      }
    },
    complete: () => session.messages?.stop('complete'),
  });
  session.onClose(() => {
    unsubscribe();
    client.dispose();
  });
  return state;
}

/**
 * The library's POST sent by the HTTP client, answered as a fetch Response: an event stream as it
 * arrives, any other answer whole. The request's headers and auth go with the library's Content-Type
 * and Accept (cookies from the jar are added per hop by the client). A signed request is signed for
 * this POST (the subscription URL and the body the library writes, not the prepared ones), and again
 * for each redirect within the origin; a redirect elsewhere drops its credentials, as for any request.
 */
async function postThroughClient(prepared: PreparedRequest, input: string, init: RequestInit | undefined, context: SendContext): Promise<Response> {
  const given = new Headers(init?.headers as HeadersInit | undefined);
  const headers: PreparedHeader[] = [...connectionHeaders(prepared)];
  for (const name of ['content-type', 'accept']) {
    const value = given.get(name);
    if (value !== null) headers.push({ name: name === 'accept' ? 'Accept' : 'Content-Type', value });
  }
  const bytes = Buffer.from(typeof init?.body === 'string' ? init.body : '', 'utf8');
  let post: PreparedRequest = withStreamHeaders({ ...prepared, url: input, method: 'POST', headers, body: { kind: 'bytes', source: 'graphql', bytes, isText: true } });
  if (prepared.signEachHop) {
    const { signHop } = await import('../../sign-hop.js');
    const signed = await signHop(prepared.signEachHop, 'POST', new URL(input), post.headers.map((h) => [h.name, h.value] as [string, string]), bytes, post.body);
    post = { ...post, url: signed.url.href, headers: signed.headers.map(([name, value]) => ({ name, value })) };
  }

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let finish: (() => void) | undefined;
  // Cancelled by the reader (the library, on unsubscribe): nothing more is put in the stream.
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => {
      cancelled = true;
      finish?.();
    },
  });
  let streaming = false;
  return new Promise<Response>((resolve, reject) => {
    sendHttp(post, {
      agents: context.agents,
      ...(context.cookies ? { cookies: context.cookies } : {}),
      maxResponseMb: context.maxResponseMb,
      ...(init?.signal ? { signal: init.signal as AbortSignal } : {}),
      // A 2xx answer is handed over as it arrives (limited() bounds it); others are read whole.
      streamBody: (status, answerHeaders) => {
        if (status < 200 || status > 299) return undefined;
        streaming = true;
        resolve(new Response(body, { status, statusText: STATUS_CODES[status] ?? '', headers: answerHeaders as [string, string][] }));
        return {
          discards: true,
          start: (end) => void (finish = end),
          feed: (chunk) => {
            if (!cancelled) controller.enqueue(new Uint8Array(chunk));
            return undefined;
          },
        };
      },
    }).then(
      (result) => {
        if (streaming && !cancelled) controller.close();
        else resolve(new Response(Buffer.from(result.body), { status: result.status, statusText: result.statusText, headers: result.headers }));
      },
      (error: unknown) => {
        if (!streaming) reject(error);
        else if (!cancelled) controller.error(error);
      },
    );
  });
}

/** The `errors` list of a GraphQL JSON answer, or undefined. */
function graphqlErrors(body: string): unknown[] | undefined {
  try {
    const errors = (JSON.parse(body) as { errors?: unknown }).errors;
    return Array.isArray(errors) ? errors : undefined;
  } catch {
    return undefined;
  }
}

function refused(url: URL, refusal: { status: number; statusText: string; body: string }): SendError {
  const said = refusal.body.trim().replace(/\s+/g, ' ').slice(0, 300);
  return new SendError(
    `${url.host} answered HTTP ${refusal.status}${refusal.statusText ? ` ${refusal.statusText}` : ''} instead of an event stream${said ? ` (${said})` : ''}; check the URL (body.graphql.subscriptionUrl), the auth and the headers.`,
    'protocol',
  );
}

/** The first bytes of an answer's body as text (a refusal's reason). */
async function readSome(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    chunks.push(Buffer.from(chunk as Uint8Array));
    size += (chunk as Uint8Array).length;
    if (size >= REFUSAL_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, REFUSAL_BYTES).toString('utf8');
}
