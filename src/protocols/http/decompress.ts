/** Decoding response bodies by Content-Encoding: gzip, deflate, br and zstd (Node 20's zlib has no zstd, hence fzstd). */
import { lazyRequire } from '../../support/lazy-require.js';

// zlib (~5 ms of start-up) loads at the first encoded body: most responses of a short run have none.
const zlib = lazyRequire<typeof import('node:zlib')>(import.meta.url, 'node:zlib');

const fzstd = lazyRequire<typeof import('fzstd')>(import.meta.url, 'fzstd');

/** The decoded body would pass `maxBytes`: a compression bomb, or a body over the response size limit. */
export class DecodedTooLargeError extends Error {
  override name = 'DecodedTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`the decoded body is larger than ${maxBytes} bytes`);
  }
}

/**
 * Decodes `body` for a Content-Encoding header value (several codings are undone last first).
 * Unknown codings are left alone. `maxBytes` (0 = no limit): no decoding step produces more than
 * this; past it, DecodedTooLargeError, with at most `maxBytes` decoded bytes ever held.
 */
/** Most codings undone for one body. */
export const MAX_CODINGS = 5;

export function decodeBody(body: Uint8Array, contentEncoding: string | undefined, maxBytes = 0): Uint8Array {
  if (!contentEncoding || body.length === 0) return body;
  const codings = contentEncoding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  // Each coding is a pass over the body: thousands of stacked layers would block the process for
  // minutes (curl stops at 5 too, CVE-2022-32206).
  if (codings.length > MAX_CODINGS) {
    throw new Error(`the response has ${codings.length} content codings stacked (Content-Encoding); Ferry undoes at most ${MAX_CODINGS}. Turn settings.decompress off to get the body as sent.`);
  }
  let out = body;
  for (const coding of codings.reverse()) {
    try {
      out = decodeOne(out, coding, maxBytes);
    } catch (error) {
      if (error instanceof DecodedTooLargeError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' && maxBytes > 0) throw new DecodedTooLargeError(maxBytes);
      throw new Error(`the response says Content-Encoding: ${contentEncoding}, but its body could not be decoded as ${coding} (${(error as Error).message})`);
    }
  }
  return out;
}

function decodeOne(body: Uint8Array, coding: string, maxBytes: number): Uint8Array {
  // zlib stops with ERR_BUFFER_TOO_LARGE once its output would pass maxOutputLength.
  const limit = maxBytes > 0 ? { maxOutputLength: maxBytes } : {};
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib().gunzipSync(body, { finishFlush: zlib().constants.Z_SYNC_FLUSH, ...limit });
    case 'deflate':
      // Servers send both zlib-wrapped and raw deflate under this name.
      try {
        return zlib().inflateSync(body, limit);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
        return zlib().inflateRawSync(body, limit);
      }
    case 'br':
      return zlib().brotliDecompressSync(body, limit);
    case 'zstd':
      return decodeZstd(body, maxBytes);
    default:
      return body;
  }
}

/** fzstd's streaming decoder, so the output is counted as it grows (its one-shot decoder allocates what the frame header claims). */
function decodeZstd(body: Uint8Array, maxBytes: number): Uint8Array {
  if (maxBytes > 0) checkZstdWindows(body, maxBytes);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const decoder = new (fzstd().Decompress)((chunk) => {
    total += chunk.length;
    if (maxBytes > 0 && total > maxBytes) throw new DecodedTooLargeError(maxBytes);
    // fzstd may hand out views of its window, which later blocks overwrite.
    chunks.push(chunk.slice());
  });
  decoder.push(body, true);
  return Buffer.concat(chunks, total);
}

/**
 * fzstd allocates each frame's window (or, for single-segment frames, its declared content size)
 * up front, up to 2 GB. A frame that asks for more than `maxBytes` is refused before decoding.
 */
const uint32 = (bytes: Uint8Array, at: number) => ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;

function checkZstdWindows(body: Uint8Array, maxBytes: number): void {
  let at = 0;
  // Bounded: every step moves `at` forward by at least 3 bytes.
  while (at + 4 <= body.length) {
    const magic = uint32(body, at);
    if (magic >= 0x184d2a50 && magic <= 0x184d2a5f) {
      // Skippable frame: 4-byte little-endian length after the magic.
      const length = uint32(body, at + 4);
      at += 8 + length;
      continue;
    }
    if (magic !== 0xfd2fb528) return; // not zstd: the decoder says so
    const descriptor = body[at + 4] ?? 0;
    const singleSegment = (descriptor >> 5) & 1;
    const dictBytes = [0, 1, 2, 4][descriptor & 3]!;
    const sizeField = descriptor >> 6;
    const sizeBytes = sizeField ? 1 << sizeField : singleSegment;
    let pos = at + 5;
    let window = 0;
    if (!singleSegment) {
      const wd = body[pos] ?? 0;
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
      pos += 1;
    }
    pos += dictBytes;
    let contentSize = 0;
    for (let i = 0; i < sizeBytes; i++) contentSize += (body[pos + i] ?? 0) * 2 ** (8 * i);
    if (sizeBytes === 2) contentSize += 256;
    pos += sizeBytes;
    const claimed = singleSegment ? contentSize : window;
    if (claimed > maxBytes) throw new DecodedTooLargeError(maxBytes);
    // Blocks: 3-byte header (last flag, type, size); an RLE block carries 1 byte.
    for (;;) {
      if (pos + 3 > body.length) return;
      const header = body[pos]! | (body[pos + 1]! << 8) | (body[pos + 2]! << 16);
      const type = (header >> 1) & 3;
      pos += 3 + (type === 1 ? 1 : header >> 3);
      if (header & 1) break;
    }
    at = pos + ((descriptor >> 2) & 1 ? 4 : 0);
  }
}
