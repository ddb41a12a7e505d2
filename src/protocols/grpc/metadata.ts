/** gRPC metadata from the request's headers and auth (spec 2.8), and metadata as the result reports it. */
import { Metadata } from '@grpc/grpc-js';
import type { PreparedHeader } from '../../request/prepared.js';
import { compactBase64 } from '../../support/base64-text.js';
import { SendError } from '../send-error.js';

/** Headers HTTP/2 and gRPC set themselves; a body's Content-Type (JSON) is not gRPC's. */
const RESERVED = new Set(['content-type', 'host', 'te', 'user-agent', 'content-length', 'connection', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding']);

/** Keys ending in `-bin` carry binary values, written as base64 in the request (a value that is not base64 is refused, naming the key). */
export function requestMetadata(headers: readonly PreparedHeader[]): Metadata {
  const metadata = new Metadata();
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    if (RESERVED.has(key) || key.startsWith(':')) continue;
    try {
      if (key.endsWith('-bin')) metadata.add(key, binaryValue(name, value));
      else metadata.add(key, value);
    } catch (error) {
      if (error instanceof SendError) throw error;
      throw new SendError(`metadata ${name} cannot be sent: ${(error as Error).message}.`, 'other');
    }
  }
  return metadata;
}

/** A `-bin` value's bytes: base64 by the one rule (standard or URL-safe); Node would decode anything else to other bytes without a word. */
function binaryValue(name: string, value: string): Buffer {
  const compact = compactBase64(value);
  if (compact === undefined) {
    throw new SendError(`metadata ${name} ends in -bin, so its value is binary written as base64, and ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)} is not base64; encode the bytes as base64 (or drop -bin from the key for text).`, 'other');
  }
  return Buffer.from(compact, /[-_]/.test(compact) ? 'base64url' : 'base64');
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
