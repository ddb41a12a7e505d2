/**
 * SSE requests in runs (spec 2.7 `settings.stream`, 2.8): the request is prepared and sent like an
 * HTTP request (same headers, auth, dispatcher, cookies, size limit); a 2xx `text/event-stream`
 * answer is read event by event until the first of: the named event, `maxEvents` events, the time
 * limit, or the server closing the stream. The body is the bytes read up to the end of the event
 * that stopped reading, so scripts see exactly those events. Other answers are read as HTTP bodies.
 */
import { lazyRequire } from '../../support/lazy-require.js';

const eventsource = lazyRequire<typeof import('eventsource-parser')>(import.meta.url, 'eventsource-parser');
import type { PreparedRequest } from '../../request/prepared.js';
import { SendError, sendHttp, type HttpResult, type HttpSendContext, type StreamReader } from '../http/http.js';
import { DEFAULT_STREAM, MessageStream, type StreamMessage, type StreamSettings, type StreamSummary } from '../stream/messages.js';

export interface SseResult extends HttpResult {
  /** How the event stream was read; absent when the answer was not an event stream (read as HTTP). */
  stream?: StreamSummary;
  /** The events read, as received messages (the first 1,000). */
  messages?: StreamMessage[];
}

export { withStreamHeaders } from './stream-headers.js';

export async function sendSse(
  prepared: PreparedRequest,
  stream: StreamSettings | undefined,
  ctx: Omit<HttpSendContext, 'streamBody'>,
  onMessage?: (message: StreamMessage) => void,
): Promise<SseResult> {
  const url = new URL(prepared.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SendError(`an SSE request needs an http:// or https:// URL, not ${url.protocol}//.`, 'unsupported');
  }
  const settings = stream ?? DEFAULT_STREAM;
  let read: EventReader | undefined;
  try {
    const response = await sendHttp(prepared, {
      ...ctx,
      streamBody: (status, headers) => {
        if (status < 200 || status > 299 || !isEventStream(headers)) return undefined;
        const encoding = headerValue(headers, 'content-encoding');
        if (encoding && encoding.toLowerCase() !== 'identity') {
          throw new SendError(
            `the server compressed the event stream (Content-Encoding: ${encoding}); Ferry reads event streams uncompressed only. Leave out the request's Accept-Encoding header (Ferry then asks for identity).`,
            'protocol',
          );
        }
        read?.close(); // an earlier hop's reader (cannot happen with 2xx, but never leave a timer)
        read = new EventReader(settings, onMessage);
        return read;
      },
    });
    return read?.messages ? { ...response, stream: read.messages.summary(), messages: read.messages.messages } : response;
  } finally {
    read?.close();
  }
}

/** Media type `text/event-stream`, parameters ignored. */
function isEventStream(headers: readonly [string, string][]): boolean {
  const type = headerValue(headers, 'content-type') ?? '';
  return type.split(';')[0]!.trim().toLowerCase() === 'text/event-stream';
}

function headerValue(headers: readonly [string, string][], name: string): string | undefined {
  return headers.find(([key]) => key.toLowerCase() === name)?.[1];
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Parses the stream as it arrives and says where to stop, by the shared stop rule. Chunks are fed
 * a line at a time, so reading stops right after the line that completed the deciding event:
 * later events that came in the same chunk are not part of the body.
 */
class EventReader implements StreamReader {
  /** Made when reading starts: the time limit counts from there. */
  messages: MessageStream | undefined;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser = eventsource().createParser({
    // An unnamed event is a `message` event; an empty name is no name.
    onEvent: (event) => this.messages?.received({ ...(event.event ? { event: event.event } : {}), text: event.data }),
  });

  constructor(private readonly settings: StreamSettings, private readonly onMessage?: (message: StreamMessage) => void) {}

  start(finish: () => void): void {
    this.messages = new MessageStream(this.settings, (message) => message.event ?? 'message', undefined, this.onMessage);
    void this.messages.done.then((why) => {
      if (why === 'timeout') finish();
    });
  }

  feed(chunk: Buffer): number | undefined {
    const messages = this.messages;
    if (!messages || messages.stopped) return 0;
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      // A line ends at LF, or at a CR not followed by LF (a CR at the chunk's end waits for the next byte).
      if (byte !== LF && (byte !== CR || i + 1 >= chunk.length || chunk[i + 1] === LF)) continue;
      this.parser.feed(this.decoder.decode(chunk.subarray(from, i + 1), { stream: true }));
      from = i + 1;
      if (messages.stopped) return from;
    }
    if (from < chunk.length) this.parser.feed(this.decoder.decode(chunk.subarray(from), { stream: true }));
    return messages.stopped ? chunk.length : undefined;
  }

  /** Reading ended: a stream the server closed (no other verdict yet) stopped by `closed`. */
  close(): void {
    this.messages?.closed();
  }
}
