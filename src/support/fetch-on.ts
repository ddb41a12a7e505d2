/**
 * A fetch made on undici's `request`, for the libraries that take a fetch function (the MCP SDK's
 * HTTP transports, oauth4webapi's token requests, Socket.IO's signed long-polling). undici's own
 * `fetch` refuses the ports the Fetch standard calls bad (6000, 6665–6669, 10080…) with "fetch
 * failed: bad port", which Ferry's HTTP requests and every other kind reach. The request goes
 * through the dispatcher given (Ferry's pools: verifyTls, client certificates, their limits, the
 * proxy; undici's global one when none); the answer is a fetch Response whose body arrives as it
 * is read (event streams), is cut when the signal aborts, and is read no further when cancelled.
 * Redirects are answered as they are (`redirect` is not read): the MCP SDK follows them itself,
 * oauth4webapi asks for them so, and Socket.IO's unsigned polling does not follow them either.
 * Nothing is added to the request: no Accept-Encoding (an answer compressed because the caller's
 * own asked for it is decoded, content-coding.ts), no User-Agent.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { decodingStream } from './content-coding.js';
import { lazyRequire } from './lazy-require.js';

// undici's `request` and its global dispatcher from their own files, and Node's global Response:
// undici's index loads all of undici (~100 ms of start-up against ~40 ms for these; see
// protocols/http/undici-parts.ts, and test/protocols/undici-parts.test.ts for the paths).
const undiciRequest = lazyRequire<(this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>>(import.meta.url, 'undici/lib/api/api-request.js');
const undiciGlobal = lazyRequire<{ getGlobalDispatcher(): Dispatcher }>(import.meta.url, 'undici/lib/global.js');

/** Statuses whose answer has no body (a Response with one cannot be made). */
const NO_BODY = new Set([204, 205, 304]);

/** What a request may say: fetch's own init (its `body` also as Node's bytes); what is not listed below is not read. */
export type FetchInit = Omit<RequestInit, 'body'> & { body?: RequestInit['body'] | Uint8Array };

export type FetchOn = (url: string | URL, init?: FetchInit) => Promise<Response>;

/**
 * `maxBytes` (0 or absent = no limit): the caller's bound on an answer, which a zstd frame may not
 * ask to hold more than (content-coding.ts); the caller bounds the body it reads.
 */
export function fetchOn(dispatcher?: Dispatcher, maxBytes = 0): FetchOn {
  return async (url, init = {}) => {
    const target = new URL(url);
    const answer = await undiciRequest().call(dispatcher ?? undiciGlobal().getGlobalDispatcher(), {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: bodyOf(init.body),
      signal: init.signal ?? undefined,
    });
    const headers: [string, string][] = [];
    for (const [name, value] of Object.entries(answer.headers)) for (const one of Array.isArray(value) ? value : [value ?? '']) headers.push([name, one]);
    try {
      if (NO_BODY.has(answer.statusCode)) {
        await answer.body.dump();
        return new Response(null, { status: answer.statusCode, statusText: answer.statusText, headers });
      }
      const decoded = decodingStream(answer.body, answer.headers['content-encoding'], maxBytes);
      return new Response(pulled(decoded), { status: answer.statusCode, statusText: answer.statusText, headers: headers.filter(([name]) => decoded === answer.body || (name !== 'content-encoding' && name !== 'content-length')) });
    } catch (error) {
      answer.body.destroy();
      throw error;
    }
  };
}

/** The bodies these libraries send: text (JSON-RPC, Engine.IO packets), bytes, and URL-encoded forms (token requests). */
function bodyOf(body: FetchInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError(`a request body of type ${Object.prototype.toString.call(body)} cannot be sent; only text, bytes and URL-encoded forms.`);
}

/**
 * The Node stream as a web stream read one chunk at a time as the reader asks (so no more than
 * the stream's own buffer is held), ending with the stream's error, and destroying it when cancelled.
 */
function pulled(body: Readable): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // A reader gets the stream's error from `next`; one cancelled (or not reading) is past caring.
  body.on('error', () => {});
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      },
      cancel(reason) {
        body.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
