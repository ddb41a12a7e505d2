/**
 * An HTTP answer whose body is cut off (an error) once more than `maxResponseMb` arrived, for
 * clients that read a body themselves: the GraphQL over SSE library and the MCP SDK buffer a
 * message until its end, so a server that never ends one would otherwise fill memory.
 */
import { Response as UndiciResponse, type Response } from 'undici';
import { maxResponseBytes } from '../response-limit.js';

/** `onTooLarge` is told once, when the body passes the limit (0: no limit, the answer as it is). */
export function limitedResponse(response: Response, maxResponseMb: number, onTooLarge: () => void): Response {
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
  return new UndiciResponse(body as unknown as ConstructorParameters<typeof UndiciResponse>[0], { status: response.status, statusText: response.statusText, headers: response.headers });
}
