/** gRPC metadata from the request's headers and auth (spec 2.8), and metadata as the result reports it. */
import { Metadata } from '@grpc/grpc-js';
import type { PreparedHeader } from '../../request/prepared.js';
import { SendError } from '../send-error.js';

/** Headers HTTP/2 and gRPC set themselves; a body's Content-Type (JSON) is not gRPC's. */
const RESERVED = new Set(['content-type', 'host', 'te', 'user-agent', 'content-length', 'connection', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding']);

/** Keys ending in `-bin` carry binary values, written as base64 in the request. */
export function requestMetadata(headers: readonly PreparedHeader[]): Metadata {
  const metadata = new Metadata();
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    if (RESERVED.has(key) || key.startsWith(':')) continue;
    try {
      if (key.endsWith('-bin')) metadata.add(key, Buffer.from(value, 'base64'));
      else metadata.add(key, value);
    } catch (error) {
      throw new SendError(`metadata ${name} cannot be sent: ${(error as Error).message}.`, 'other');
    }
  }
  return metadata;
}

/** In wire order as pairs; binary values as base64. */
export function metadataPairs(metadata: Metadata | undefined): [string, string][] {
  if (!metadata) return [];
  const pairs: [string, string][] = [];
  for (const [key, values] of Object.entries(metadata.toJSON())) {
    for (const value of values as Array<string | Buffer>) pairs.push([key, typeof value === 'string' ? value : Buffer.from(value).toString('base64')]);
  }
  return pairs;
}
