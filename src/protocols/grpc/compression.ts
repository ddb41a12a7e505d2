/**
 * A request's `grpc-encoding` header: how its messages are compressed. grpc-js compresses a
 * channel's messages (`grpc.default_compression_algorithm`) and sends the header itself, and each
 * request has a channel of its own (call.ts `openChannel`), so the header becomes that option.
 * grpc-js knows gzip and deflate (and identity: none); any other value is refused, naming it,
 * rather than sent uncompressed under a header saying otherwise (or dropped without a word).
 */
import * as grpc from '@grpc/grpc-js';
import type { PreparedHeader } from '../../request/prepared.js';
import { SendError } from '../send-error.js';

const ENCODINGS = ['gzip', 'deflate', 'identity'] as const;
type Encoding = (typeof ENCODINGS)[number];

/** The channel options compressing the request's messages as its `grpc-encoding` says; none without it (or with identity). */
export function compressionOptions(headers: readonly PreparedHeader[]): grpc.ChannelOptions {
  const encoding = requestEncoding(headers);
  if (encoding === undefined || encoding === 'identity') return {};
  return { 'grpc.default_compression_algorithm': grpc.compressionAlgorithms[encoding] };
}

/** The encoding a channel opened with `options` (compressionOptions) compresses with: gzip or deflate, or undefined for none. */
export function channelEncoding(options: grpc.ChannelOptions): 'gzip' | 'deflate' | undefined {
  const algorithm = options['grpc.default_compression_algorithm'] as grpc.compressionAlgorithms | undefined;
  return algorithm === grpc.compressionAlgorithms.gzip ? 'gzip' : algorithm === grpc.compressionAlgorithms.deflate ? 'deflate' : undefined;
}

/** grpc-js's state shared by the calls of a channel (its compression filter's, not in its API). */
interface ChannelInternals {
  internalChannel?: { filterStackFactory?: { factories?: Array<{ sharedFilterConfig?: { serverSupportedEncodingHeader?: string } }> } };
}

/**
 * Whether grpc-js sends `grpc-encoding` (and compresses) on the next call over `channel`, which
 * compresses with `encoding`. A call's answer naming in its grpc-accept-encoding the encodings
 * the server takes, without this one, makes grpc-js send every later call of the channel
 * uncompressed, without the header: the method's call after server reflection's calls. Read
 * where grpc-js keeps it, by its own rule (1.14's compression-filter.js); where that is not found (another
 * grpc-js), the header is taken as sent.
 */
export function sendsEncoding(channel: grpc.Channel, encoding: string | undefined): boolean {
  if (encoding === undefined) return false;
  const factories = (channel as unknown as ChannelInternals).internalChannel?.filterStackFactory?.factories ?? [];
  const accepted = factories.find((f) => f.sharedFilterConfig !== undefined)?.sharedFilterConfig?.serverSupportedEncodingHeader;
  return accepted === undefined || accepted.split(',').includes(encoding);
}

/** The one encoding the request's `grpc-encoding` entries name (case aside), if any. */
function requestEncoding(headers: readonly PreparedHeader[]): Encoding | undefined {
  const entries = headers.filter((h) => h.name.toLowerCase() === 'grpc-encoding');
  if (entries.length === 0) return undefined;
  const values = [...new Set(entries.map((h) => h.value.trim().toLowerCase()))];
  const name = entries[0]!.name;
  if (values.length > 1) {
    throw new SendError(`metadata ${name} is set ${values.length} ways (${values.map((v) => JSON.stringify(v)).join(', ')}); a call's messages have one encoding, so keep one ${name} header: gzip, deflate or identity.`, 'invalid');
  }
  const value = values[0]!;
  if (!(ENCODINGS as readonly string[]).includes(value)) {
    throw new SendError(`metadata ${name} is ${JSON.stringify(value)}, which Ferry cannot compress with: it sends a gRPC request's messages compressed with gzip or deflate, or uncompressed with identity; set ${name} to one of those, or remove the header.`, 'invalid');
  }
  return value as Encoding;
}
