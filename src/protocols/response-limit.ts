/**
 * The response size limit in bytes, from the application setting `maxResponseMb` (SendContext):
 * one conversion for every kind. A megabyte here is a MiB; 0 (or less) means no limit, which each
 * kind spells its own way, so the caller says what "no limit" is for it (0, undefined, grpc-js's
 * -1, WebSocket's 100 MB of the `ws` library).
 */

/** 1 MB as `maxResponseMb` counts it: 1,048,576 bytes. */
export const MB = 1024 * 1024;

/** `maxResponseMb` in bytes, or `noLimit` when it is 0 (no limit); 0 unless the kind says otherwise. */
export function maxResponseBytes(maxResponseMb: number): number;
export function maxResponseBytes<T>(maxResponseMb: number, noLimit: T): number | T;
export function maxResponseBytes(maxResponseMb: number, ...noLimit: [] | [unknown]): unknown {
  if (maxResponseMb > 0) return maxResponseMb * MB;
  // Not a default parameter: an explicit `undefined` (TCP's deframer) would become 0.
  return noLimit.length > 0 ? noLimit[0] : 0;
}
