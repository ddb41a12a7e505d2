/**
 * Each call of a signed gRPC request signed for its own path (spec 5.5). A send makes calls besides
 * the method's: server reflection's (to find the method's schema, or to list the server's methods
 * for the app), each to `/grpc.reflection.v1.ServerReflection/ServerReflectionInfo` (or v1alpha).
 * Signing auth types (AWS, OAuth 1.0, Hawk, JWT…) sign the path, and Hawk and AWS the time too, so
 * such a call is signed afresh for its path when it starts (its own nonce and time); the call to
 * the path the request was signed for when prepared keeps that signature.
 */
import * as grpc from '@grpc/grpc-js';
import type { PreparedRequest } from '../../request/prepared.js';
import { SendError } from '../send-error.js';
import { signHop } from '../sign-hop.js';
import { requestMetadata } from './metadata.js';
import { callPath, callUrl } from './method-name.js';

/** The interceptors the request's calls go through: the signing one when the request is signed, else none. */
export function signingInterceptors(prepared: PreparedRequest): grpc.Interceptor[] {
  const again = prepared.signEachHop;
  if (!again) return [];
  const signedFor = callPath(prepared.method);
  const headers = prepared.headers.map((h) => [h.name, h.value] as [string, string]);
  const signCall: grpc.Interceptor = (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, listener, next) => {
        const path = options.method_definition.path;
        if (path === signedFor) return next(metadata, listener);
        const url = callUrl(new URL(prepared.url), path);
        const couldNotSign = (reason: string) => new SendError(`the call to ${path} could not be signed: ${reason}`, 'other');
        signHop(again, 'POST', url, headers, undefined, { kind: 'none' }, couldNotSign).then(
          (signed) => next(requestMetadata(signed.headers.map(([name, value]) => ({ name, value }))), listener),
          // Ends the call before it is sent, with the reason as its status (the caller reports it).
          (error: unknown) => listener.onReceiveStatus?.({ code: grpc.status.INTERNAL, details: (error as Error).message, metadata: new grpc.Metadata() }),
        );
      },
    });
  return [signCall];
}
