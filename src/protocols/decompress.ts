/** Decoding response bodies by Content-Encoding: gzip, deflate, br and zstd (Node 20's zlib has no zstd, hence fzstd). */
import zlib from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';

/** Decodes `body` for a Content-Encoding header value (several codings are undone last first). Unknown codings are left alone. */
export function decodeBody(body: Uint8Array, contentEncoding: string | undefined): Uint8Array {
  if (!contentEncoding || body.length === 0) return body;
  const codings = contentEncoding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  let out = body;
  for (const coding of codings.reverse()) {
    try {
      out = decodeOne(out, coding);
    } catch (error) {
      throw new Error(`the response says Content-Encoding: ${contentEncoding}, but its body could not be decoded as ${coding} (${(error as Error).message})`);
    }
  }
  return out;
}

function decodeOne(body: Uint8Array, coding: string): Uint8Array {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      // Servers send both zlib-wrapped and raw deflate under this name.
      try {
        return zlib.inflateSync(body);
      } catch {
        return zlib.inflateRawSync(body);
      }
    case 'br':
      return zlib.brotliDecompressSync(body);
    case 'zstd':
      return zstdDecompress(body);
    default:
      return body;
  }
}
