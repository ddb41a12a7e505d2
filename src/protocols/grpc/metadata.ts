/** gRPC metadata from the request's headers and auth (spec 2.8), and metadata as the result reports it. */
import { Metadata } from '@grpc/grpc-js';
import type { PreparedHeader } from '../../request/prepared.js';
import { compactBase64 } from '../../support/base64-text.js';
import { SendError } from '../send-error.js';

/** Headers HTTP/2 and gRPC set themselves; a body's Content-Type (JSON) is not gRPC's. grpc-encoding becomes the channel's compression (compression.ts), which grpc-js sends. */
const RESERVED = new Set(['content-type', 'host', 'te', 'user-agent', 'content-length', 'connection', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding']);

/** Keys ending in `-bin` carry binary values, written as base64 in the request (a value that is not base64 is refused, naming the key). */
export function requestMetadata(headers: readonly PreparedHeader[]): Metadata {
  const metadata = new Metadata();
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    if (RESERVED.has(key) || key.startsWith(':')) continue;
    checkEntry(name, key, value);
    metadata.add(key, key.endsWith('-bin') ? binaryValue(name, value) : value);
  }
  return metadata;
}

/**
 * gRPC's rules for an entry (grpc-js's own, checked first so the refusal is Ferry's and says what
 * to do): keys of lowercase letters, digits, `-`, `_` and `.`; text values of printable ASCII.
 * The value is not shown (it may be a token): the character and its place are.
 */
function checkEntry(name: string, key: string, value: string): void {
  const badKey = /[^0-9a-z_.-]/.exec(key);
  if (badKey) {
    throw new SendError(`metadata ${name} cannot be sent: gRPC metadata keys are letters, digits, -, _ and . only, and it has ${JSON.stringify(badKey[0])}; rename the header.`, 'invalid');
  }
  const badValue = key.endsWith('-bin') ? undefined : /[^ -~]/u.exec(value);
  if (badValue) {
    const shown = /\p{L}|\p{N}|\p{P}|\p{S}/u.test(badValue[0]) ? JSON.stringify(badValue[0]) : `U+${badValue[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new SendError(`metadata ${name} cannot be sent: its value has ${shown} at character ${[...value.slice(0, badValue.index)].length + 1}, and gRPC text metadata is printable ASCII only (space to ~); percent-encode the value, or send its bytes as base64 under a key ending in -bin.`, 'invalid');
  }
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
