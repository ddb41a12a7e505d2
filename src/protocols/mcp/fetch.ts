/**
 * The fetch the MCP SDK's HTTP transports are given, made on undici's `request`: undici's `fetch`
 * refuses the ports the Fetch standard calls bad (6000, 6665–6669, 10080…) with "fetch failed: bad
 * port", which every other kind of Ferry's reaches. The request goes through the dispatcher given
 * (Ferry's pools: verifyTls, their limits, the proxy); the answer is a fetch Response whose body
 * arrives as it is read (event streams), is cut when the signal aborts, and is read no further
 * when cancelled. Redirects are answered as they are: the SDK follows them itself, within the origin.
 */
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { request, Response, type Dispatcher } from 'undici';

/** Statuses whose answer has no body (a Response with one cannot be made). */
const NO_BODY = new Set([204, 205, 304]);

/** Content codings undone as fetch undoes them; a server sends one only when the request's own Accept-Encoding asked for it. */
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  'x-gzip': () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  deflate: () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  br: () => zlib.createBrotliDecompress(),
};

export function fetchOn(dispatcher: Dispatcher): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const body = init.body ?? undefined;
    // The SDK sends its JSON-RPC messages as text.
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) throw new TypeError(`an MCP request body of type ${Object.prototype.toString.call(body)} cannot be sent; only text and bytes.`);
    const answer = await request(url, {
      dispatcher,
      method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body,
      signal: init.signal ?? undefined,
    });
    const headers: [string, string][] = [];
    for (const [name, value] of Object.entries(answer.headers)) for (const one of Array.isArray(value) ? value : [value ?? '']) headers.push([name, one]);
    try {
      if (NO_BODY.has(answer.statusCode)) {
        await answer.body.dump();
        return new Response(null, { status: answer.statusCode, statusText: answer.statusText, headers });
      }
      const decoded = decode(answer.body, answer.headers['content-encoding']);
      return new Response(pulled(decoded), { status: answer.statusCode, statusText: answer.statusText, headers: headers.filter(([name]) => decoded === answer.body || (name !== 'content-encoding' && name !== 'content-length')) });
    } catch (error) {
      answer.body.destroy();
      throw error;
    }
  };
}

/** The body with its content coding undone; one Ferry cannot undo is said, not passed on as text. */
function decode(body: Readable, encoding: string | string[] | undefined): Readable {
  const coding = String(encoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body;
  const decoder = DECODERS[coding];
  if (!decoder) throw new Error(`the server compressed its answer as Content-Encoding: ${coding}, which Ferry cannot undo for MCP (gzip, deflate and br only); leave out the request's Accept-Encoding header.`);
  return pipeline(body, decoder(), () => {}) as unknown as Readable;
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
