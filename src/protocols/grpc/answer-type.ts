/**
 * Whether an answer is gRPC at all, by its Content-Type: one check for a send (call.ts), server
 * reflection (reflection.ts) and a live call (live.ts). A web server on the port or a proxy's
 * page answers text/html or text/plain, and grpc-js reads its body as message frames anyway, so
 * `hello` became a message of 1,701,604,463 bytes refused as past maxResponseMb (and a 502 page
 * a status mapped from HTTP). Named for what it is instead.
 */
import type * as grpc from '@grpc/grpc-js';
import { SendError } from '../send-error.js';

/** Whether a Content-Type is gRPC's; none said is taken as gRPC (a trailers-only answer may carry none). */
function grpcType(type: string): boolean {
  return type === '' || /^application\/grpc([+;]|$)/i.test(type);
}

/**
 * Whether an answer's headers already show it is not gRPC. A send, a reflection call and a live
 * call end on them (call.ts, reflection.ts, live.ts): grpc-js waits for the body's end, and a
 * page kept open never ends. grpc-js gives the HTTP status only at that end (`:status` is not in
 * the metadata), so words made then have none.
 */
export function notGrpcHead(headers: grpc.Metadata): boolean {
  return !grpcType(String(headers.get('content-type')[0] ?? ''));
}

/** The error for an answer whose headers (or, trailers-only, its status's metadata) are not gRPC's; undefined when they are, or say nothing. */
export function notGrpcAnswer(headers: grpc.Metadata | undefined, status: grpc.StatusObject, host: string): SendError | undefined {
  const type = String(headers?.get('content-type')[0] ?? status.metadata?.get('content-type')[0] ?? '');
  if (grpcType(type)) return undefined;
  const http = /Received HTTP status code (\d+)/.exec(status.details ?? '')?.[1];
  return new SendError(`${host} answered ${http ? `HTTP ${http} ` : ''}with Content-Type ${type}, not application/grpc: is it a gRPC server, and the port right?`, 'protocol');
}
