/**
 * The answer's size limit (`maxResponseMb`) for gRPC, and its words: one place for a send
 * (call.ts) and a live call (live.ts). grpc-js reads each message of an answer up to the limit
 * (a channel option); a stream of answers read by a send also counts its messages' bytes in all.
 */
import * as grpc from '@grpc/grpc-js';
import { maxResponseBytes } from '../response-limit.js';
import { SendError } from '../send-error.js';

/** The largest message of an answer grpc-js reads (`maxResponseMb`; -1 = no limit): at most 2^31-1, as grpc-js takes an int32 and 4096 MB is 2^32. */
export function maxMessageBytes(maxResponseMb: number): number {
  return Math.min(maxResponseBytes(maxResponseMb, -1), 2 ** 31 - 1);
}

/**
 * grpc-js refuses an answer's message past our limit with a RESOURCE_EXHAUSTED of its own, worded
 * as a server refusing a request's message past its limit is: ours when the limit it names is
 * ours and no message sent (`largestSent` bytes at most) was that large. Then the request fails
 * as other kinds past the limit do. A compressed message (grpc-encoding gzip or deflate) is judged
 * once inflated, where grpc-js stops at the limit: a small message inflating past it read as the
 * server's 8 RESOURCE_EXHAUSTED.
 */
export function tooLargeForUs(status: grpc.StatusObject, maxResponseMb: number, largestSent: number): SendError | undefined {
  if (status.code !== grpc.status.RESOURCE_EXHAUSTED) return undefined;
  const limit = maxMessageBytes(maxResponseMb);
  const inflated = /^Received message that decompresses to a size larger than (\d+)$/.exec(status.details);
  if (inflated && Number(inflated[1]) === limit) {
    return new SendError(`a message of the answer, once decompressed (the server compressed it), is larger than ${maxResponseMb} MB (maxResponseMb), so Ferry stopped decompressing it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`, 'tooLarge');
  }
  const match = /Received message larger than max \((\d+) vs (\d+)\)/.exec(status.details);
  if (!match || Number(match[2]) !== limit || largestSent > limit) return undefined;
  return new SendError(`a message of the answer is larger than ${maxResponseMb} MB (maxResponseMb; ${match[1]} bytes), so Ferry did not read it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`, 'tooLarge');
}

/** A send's stream of answers past `maxResponseMb` in all, as an SSE stream's is: its bytes counted as they arrive, so a stream without other limits ends. */
export function streamTooLarge(maxResponseMb: number): SendError {
  return new SendError(`the messages of the answer add up to more than ${maxResponseMb} MB (maxResponseMb), so Ferry stopped reading the stream; raise the limit with ferry config set maxResponseMb N, or 0 for no limit, or stop the stream sooner with settings.stream (maxEvents, timeoutMs).`, 'tooLarge');
}
