/**
 * One request/response exchange on an undici dispatcher (for the HTTP client, http.ts): the
 * body is read whole up to the response size limit, or handed to a stream reader that may end it
 * early (SSE). Past the limit, or when Content-Length already says so, the exchange is aborted.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { Deadline } from '../deadline.js';
import { headerText, headerTextOfLatin1, takeHttp2Answer } from './header-text.js';
import { BodyBuffer } from './body-buffer.js';
import { describeNetworkError, responseTooLarge } from './http-errors.js';
import { SendError } from '../send-error.js';
import type { HttpSendContext, StreamReader } from './types.js';
import { expectHead, type SentHead } from './sent-head.js';

export interface Hop {
  status: number;
  statusText: string;
  rawHeaders: [string, string][];
  body: Buffer;
  headersSize: number;
  firstByteAt: number;
  /** The request's head as undici wrote it (its header lines), for what scripts see as sent. */
  sentHead: SentHead;
}

/** The response size limit of one send: `maxResponseMb` and the same in bytes (0 = no limit). */
export interface BodyLimit {
  maxMb: number;
  maxBytes: number;
}

/** Statuses and methods whose Content-Length describes no body that follows. */
const declaresNoBody = (method: string, status: number) => method === 'HEAD' || status === 204 || status === 304;

export function values(headers: readonly [string, string][], name: string): string[] {
  const out: string[] = [];
  for (const [key, value] of headers) if (key.toLowerCase() === name) out.push(value);
  return out;
}

/** Path and query as sent. A `?` typed with nothing after it stays: `URL#search` alone drops it. */
export function requestTarget(url: URL): string {
  return url.pathname + (url.search || (url.href.split('#')[0]!.endsWith('?') ? '?' : ''));
}

/**
 * One request/response exchange on the dispatcher, body read whole up to `limit`: past it (or
 * when Content-Length already says so) the exchange is aborted, which closes an HTTP/1.1
 * connection and resets an HTTP/2 stream, so no more of the body is read. A stream reader from
 * `streamBody` may end the body early the same way, keeping what was read until then.
 */
export function exchange(
  dispatcher: Dispatcher,
  url: URL,
  method: string,
  headers: [string, string][],
  body: Buffer | undefined,
  deadline: Deadline,
  limit: BodyLimit,
  streamBody?: HttpSendContext['streamBody'],
): Promise<Hop> {
  if (deadline.error) return Promise.reject(deadline.error);
  return new Promise<Hop>((resolve, reject) => {
    let answer = new BodyBuffer();
    let received = 0;
    let hop: Omit<Hop, 'body'> | undefined;
    let abortExchange: ((reason: Error) => void) | undefined;
    let stopped: SendError | undefined;
    let reader: StreamReader | undefined;
    let finished = false;
    let sentHead: SentHead = {};
    const stop = (error?: SendError) => {
      if (finished) return;
      stopped ??= error ?? responseTooLarge(limit.maxMb);
      answer.clear();
      abortExchange?.(stopped);
      reject(stopped);
    };
    // The stream reader is done: the body read so far is the response, the rest is not read.
    const finish = () => {
      if (finished || stopped || !hop) return;
      finished = true;
      resolve({ ...hop, body: answer.take() });
      abortExchange?.(new SendError('stopped reading the stream.', 'other'));
    };
    const flat: string[] = [];
    for (const [name, value] of headers) flat.push(name, value);
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: requestTarget(url),
          method,
          headers: flat,
          body: method === 'GET' || method === 'HEAD' ? (body && body.length > 0 ? body : undefined) : body,
          // Connection reuse for bodies of any method; the server decides.
          reset: false,
        } as Dispatcher.DispatchOptions,
        {
          onConnect(abort: (reason?: Error) => void) {
            sentHead = expectHead(method, requestTarget(url));
            abortExchange = abort;
            deadline.attach(abort);
          },
          onHeaders(statusCode: number, rawHeaders: Buffer[] | string[], _resume: () => void, statusText: string) {
            const pairs: [string, string][] = [];
            let size = 0;
            // An HTTP/2 answer: its fields as sent, read by the rule an HTTP/1.1 answer's are.
            const h2 = takeHttp2Answer(statusCode);
            if (h2) {
              for (const [name, value] of h2) pairs.push([name, headerTextOfLatin1(value)]);
            } else {
              for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i]!.toString(), headerText(rawHeaders[i + 1]!)]);
            }
            for (const [name, value] of pairs) size += name.length + value.length + 4;
            // Interim answers (100 Continue, 103 Early Hints) are not the response.
            if (statusCode < 200) return true;
            hop = { status: statusCode, statusText: statusText ?? '', rawHeaders: pairs, headersSize: size, firstByteAt: performance.now(), sentHead };
            const declared = declaresNoBody(method, statusCode) ? NaN : Number(values(pairs, 'content-length')[0] ?? NaN);
            if (limit.maxBytes > 0 && declared > limit.maxBytes) {
              stop();
              return false;
            }
            if (streamBody) {
              try {
                reader = streamBody(statusCode, pairs, url);
              } catch (error) {
                stop(describeNetworkError(error, url));
                return false;
              }
              if (reader) {
                deadline.stopTimer();
                reader.start(finish);
              }
            }
            // The body read whole: held once, in a buffer of the size it says it has.
            if (!reader) answer = new BodyBuffer(declared);
            return true;
          },
          onData(chunk: Buffer) {
            if (stopped || finished) return false;
            if (reader?.discards) {
              reader.feed(chunk);
              return true;
            }
            received += chunk.length;
            if (limit.maxBytes > 0 && received > limit.maxBytes) {
              stop();
              return false;
            }
            const keep = reader?.feed(chunk);
            if (keep !== undefined) {
              answer.push(chunk.subarray(0, keep));
              finish();
              return false;
            }
            answer.push(chunk);
            return true;
          },
          onComplete() {
            if (stopped || finished) return;
            if (!hop) return reject(new SendError(`${url.host} closed the exchange without a response.`, 'protocol'));
            resolve({ ...hop, body: answer.take() });
          },
          onError(error: Error) {
            if (finished) return;
            reject(stopped ?? error);
          },
        } as unknown as Dispatcher.DispatchHandler,
      );
    } catch (error) {
      reject(error);
    }
  });
}
