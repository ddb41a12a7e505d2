/**
 * An HTTP answer whose body is cut off (an error) once more than `maxResponseMb` arrived, for
 * clients that read a body themselves: the GraphQL over SSE library and the MCP SDK buffer a
 * message until its end, so a server that never ends one would otherwise fill memory.
 */
import { maxResponseBytes } from '../response-limit.js';

/** What is read of a fetch Response: undici's (the MCP SDK's, from fetch-on.ts) or Node's global one (GraphQL over SSE). */
type AnyResponse = { readonly body: unknown; readonly status: number; readonly statusText: string; readonly headers: unknown };

/**
 * `onTooLarge` is told once, when the body passes the limit (0: no limit, the answer as it is).
 * The limited answer is made with the answer's own class, so this file loads no fetch of its own.
 */
export function limitedResponse<R extends AnyResponse>(response: R, maxResponseMb: number, onTooLarge: () => void): R {
  const limit = maxResponseBytes(maxResponseMb);
  if (limit === 0 || !response.body) return response;
  let seen = 0;
  // undici's and Node's stream types differ in their declarations only.
  const body = (response.body as unknown as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen <= limit) controller.enqueue(chunk);
        else {
          onTooLarge();
          controller.error(new Error('the answer passed maxResponseMb'));
        }
      },
    }),
  );
  const Made = response.constructor as new (body: unknown, init: { status: number; statusText: string; headers: unknown }) => R;
  return new Made(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
