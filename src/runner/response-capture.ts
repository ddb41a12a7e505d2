/**
 * A response kept for people to read (`ferry run --verbose`, `--report-bodies`): its headers and
 * the start of its body, cut at a size so a large download cannot fill memory or a report, and
 * binary bodies kept as a size only.
 */
import type { ProtocolResult } from '../protocols/index.js';

export interface CapturedResponse {
  /** In wire order. */
  headers: Array<[string, string]>;
  /** The body as text (its first `maxBodyBytes` bytes, cut on a character boundary); null when binary or empty. */
  body: string | null;
  /** Bytes of the whole body. */
  bodySize: number;
  /** The body was longer than the cut: `body` holds its start. */
  truncated: boolean;
  /** Not text (by its Content-Type, or bytes that are not UTF-8): only its size is kept. */
  binary?: true;
  /** The body's media type when the kind names one other than the Content-Type header (gRPC: JSON). */
  bodyType?: string;
}

/** Bytes of each body kept for reports (`--report-bodies`), as for stream messages. */
export const REPORT_BODY_BYTES = 64 * 1024;

const TEXT_TYPE = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|yaml|x-yaml|x-ndjson|problem\+json|ld\+json|csv)\b)|^image\/svg\+xml/i;
const BINARY_TYPE = /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-tar|x-7z-compressed|wasm|protobuf|x-protobuf|grpc|msgpack|vnd\.)/i;

export function captureResponse(answer: ProtocolResult, maxBodyBytes: number): CapturedResponse {
  const headers = answer.headers.map(([name, value]): [string, string] => [name, value]);
  const bytes = answer.body;
  const bodySize = bytes.byteLength;
  const truncated = bodySize > maxBodyBytes;
  if (bodySize === 0) return { headers, body: null, bodySize, truncated: false };
  const type = answer.bodyType ?? headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  const text = BINARY_TYPE.test(type) && !TEXT_TYPE.test(type) ? null : utf8Text(bytes.subarray(0, maxBodyBytes), TEXT_TYPE.test(type));
  if (text === null) return { headers, body: null, bodySize, truncated: false, binary: true };
  return { headers, body: text, bodySize, truncated, ...(answer.bodyType ? { bodyType: answer.bodyType } : {}) };
}

/**
 * The bytes as text, the last character dropped when the cut split it; null when they are not
 * UTF-8 or hold NUL bytes (binary), unless the Content-Type said text (then decoded leniently).
 */
function utf8Text(bytes: Uint8Array, declaredText: boolean): string | null {
  if (declaredText) return new TextDecoder('utf-8').decode(bytes, { stream: true });
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return null;
  }
}

/** The body cut further to `maxBytes` (UTF-8), on a character boundary; whether it was cut. */
export function cutText(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (text.length <= maxBytes / 4 || Buffer.byteLength(text) <= maxBytes) return { text, cut: false };
  let kept = Buffer.from(text).subarray(0, maxBytes).toString('utf8');
  if (kept.endsWith('\uFFFD')) kept = kept.slice(0, -1);
  return { text: kept, cut: true };
}
