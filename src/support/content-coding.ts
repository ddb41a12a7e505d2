/**
 * The content codings Ferry undoes (HTTP's Content-Encoding): gzip, deflate, br and zstd (Node
 * 20's zlib has no zstd, hence fzstd). One table, each coding in two shapes: whole bodies
 * (`decodeBody`: the HTTP client, load captures) and streams (`decodingStream`: the fetch made on
 * Ferry's pools, for MCP's event streams, OAuth 2.0 and Socket.IO).
 */
import { Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import { lazyRequire } from './lazy-require.js';

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

/** Most codings undone for one body. */
export const MAX_CODINGS = 5;

/** One content coding in both shapes. `whole`: no step produces more than `maxBytes` (0 = no limit). */
interface ContentCoding {
  whole(body: Uint8Array, maxBytes: number): Uint8Array;
  /** `maxBytes`: what a zstd frame's window may take (0 = no limit); output is bounded by the reader. */
  stream(maxBytes: number): NodeJS.ReadWriteStream;
}

const gzip: ContentCoding = {
  whole: (body, maxBytes) => zlib().gunzipSync(body, { finishFlush: zlib().constants.Z_SYNC_FLUSH, ...outputLimit(maxBytes) }),
  stream: () => zlib().createGunzip({ finishFlush: zlib().constants.Z_SYNC_FLUSH }),
};

/** The codings Ferry undoes, by the name Content-Encoding gives (lower-case). */
const CODINGS: Readonly<Record<string, ContentCoding>> = {
  gzip,
  'x-gzip': gzip,
  deflate: {
    // Servers send both zlib-wrapped and raw deflate under this name.
    whole(body, maxBytes) {
      try {
        return zlib().inflateSync(body, outputLimit(maxBytes));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error;
        return zlib().inflateRawSync(body, outputLimit(maxBytes));
      }
    },
    stream: () => new DeflateEither(),
  },
  br: {
    whole: (body, maxBytes) => zlib().brotliDecompressSync(body, outputLimit(maxBytes)),
    stream: () => zlib().createBrotliDecompress(),
  },
  zstd: {
    whole: (body, maxBytes) => decodeZstd(body, maxBytes),
    stream: (maxBytes) => new ZstdStream(maxBytes),
  },
};

// zlib stops with ERR_BUFFER_TOO_LARGE once its output would pass maxOutputLength.
const outputLimit = (maxBytes: number) => (maxBytes > 0 ? { maxOutputLength: maxBytes } : {});

/** The codings of a Content-Encoding value, in the order they were applied (`identity` left out); `instead`: what to do when there are too many. */
function codingsOf(contentEncoding: string | string[] | undefined, instead: string): string[] {
  const value = Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? '');
  const codings = value.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  // Each coding is a pass over the body: thousands of stacked layers would block the process for
  // minutes (curl stops at 5 too, CVE-2022-32206).
  if (codings.length > MAX_CODINGS) {
    throw new Error(`the response has ${codings.length} content codings stacked (Content-Encoding); Ferry undoes at most ${MAX_CODINGS}. ${instead}`);
  }
  return codings;
}

/**
 * Decodes `body` for a Content-Encoding header value (several codings are undone last first).
 * Unknown codings are left alone. `maxBytes` (0 = no limit): no decoding step produces more than
 * this; past it, DecodedTooLargeError, with at most `maxBytes` decoded bytes ever held.
 */
export function decodeBody(body: Uint8Array, contentEncoding: string | undefined, maxBytes = 0): Uint8Array {
  if (!contentEncoding || body.length === 0) return body;
  let out = body;
  for (const coding of codingsOf(contentEncoding, 'Turn settings.decompress off to get the body as sent.').reverse()) {
    try {
      out = CODINGS[coding]?.whole(out, maxBytes) ?? out;
    } catch (error) {
      if (error instanceof DecodedTooLargeError) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' && maxBytes > 0) throw new DecodedTooLargeError(maxBytes);
      throw new Error(`the response says Content-Encoding: ${contentEncoding}, but its body could not be decoded as ${coding} (${(error as Error).message})`);
    }
  }
  return out;
}

/**
 * `body` with its Content-Encoding undone as it arrives (several codings, last first), for a
 * reader that cannot wait for the whole body (an event stream). A coding Ferry cannot undo is
 * refused (an Error saying which), not passed on as if it were the body; so are more than
 * MAX_CODINGS. `maxBytes` (0 = no limit) bounds what a zstd frame may ask to hold; the reader
 * bounds the output (limitedResponse, a capped read).
 */
export function decodingStream(body: Readable, contentEncoding: string | string[] | undefined, maxBytes = 0): Readable {
  const instead = "Leave out the request's Accept-Encoding header.";
  const codings = codingsOf(contentEncoding, instead);
  const unknown = codings.find((coding) => !CODINGS[coding]);
  if (unknown) throw new Error(`the server compressed its answer as Content-Encoding: ${unknown}, which Ferry cannot undo (${Object.keys(CODINGS).join(', ')}). ${instead}`);
  let out = body;
  for (const coding of codings.reverse()) out = pipeline(out, CODINGS[coding]!.stream(maxBytes), () => {}) as unknown as Readable;
  return out;
}

/** Deflate as a stream: zlib-wrapped or raw, told apart by the first two bytes (a zlib header is a multiple of 31 with method 8). */
class DeflateEither extends Transform {
  private inner: NodeJS.ReadWriteStream | undefined;
  private head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.inner) return void this.feed(chunk, done);
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 2) return done();
    const [cmf, flg] = [this.head[0]!, this.head[1]!];
    const wrapped = (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
    this.inner = wrapped ? zlib().createInflate() : zlib().createInflateRaw();
    this.inner.on('data', (out: Buffer) => this.push(out));
    this.inner.on('error', (error: Error) => this.destroy(error));
    this.feed(this.head, done);
  }

  override _flush(done: TransformCallback): void {
    const inner = this.inner;
    if (!inner) return done(this.head.length ? new Error('a deflate body of 1 byte') : null);
    inner.once('end', () => done());
    inner.end();
  }

  private feed(chunk: Buffer, done: TransformCallback): void {
    if (this.inner!.write(chunk)) done();
    else this.inner!.once('drain', () => done());
  }
}

/** fzstd's streaming decoder, so the output is counted as it grows (its one-shot decoder allocates what the frame header claims). */
function decodeZstd(body: Uint8Array, maxBytes: number): Uint8Array {
  if (maxBytes > 0) new ZstdWindows(maxBytes).take(body);
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

/** zstd as a stream, with fzstd's streaming decoder; frames that ask for a window over `maxBytes` (0 = no limit) are refused. */
class ZstdStream extends Transform {
  // fzstd may hand out views of its window, which later blocks overwrite.
  private readonly decoder = new (fzstd().Decompress)((chunk) => void this.push(Buffer.from(chunk)));
  private readonly windows: ZstdWindows | undefined;

  constructor(maxBytes: number) {
    super();
    this.windows = maxBytes > 0 ? new ZstdWindows(maxBytes) : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.decode(chunk, false, done);
  }

  override _flush(done: TransformCallback): void {
    this.decode(new Uint8Array(0), true, done);
  }

  private decode(chunk: Uint8Array, last: boolean, done: TransformCallback): void {
    try {
      this.windows?.take(chunk);
      this.decoder.push(chunk, last);
      done();
    } catch (error) {
      done(error as Error);
    }
  }
}

const uint32 = (bytes: Uint8Array, at: number) => ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;

/**
 * fzstd allocates each frame's window (or, for single-segment frames, its declared content size)
 * up front, up to 2 GB. A frame that asks for more than `maxBytes` is refused (DecodedTooLargeError)
 * before the decoder sees it. Reads the frame and block headers of a body given whole or in
 * chunks as they arrive (it keeps only a header's bytes, and skips what the headers say to).
 */
class ZstdWindows {
  private state: 'frame' | 'block' | 'notZstd' = 'frame';
  /** Bytes still to pass over (a block's content, a skippable frame). */
  private skip = 0;
  /** The bytes of a header not yet complete. */
  private head: Buffer = Buffer.alloc(0);
  private checksum = false;

  constructor(private readonly maxBytes: number) {}

  take(chunk: Uint8Array): void {
    let bytes: Buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Bounded: each step passes over at least one header.
    while (this.state !== 'notZstd') {
      const passed = Math.min(this.skip, bytes.length);
      this.skip -= passed;
      bytes = bytes.subarray(passed);
      if (this.skip > 0 || bytes.length === 0) return;
      this.head = this.head.length ? Buffer.concat([this.head, bytes]) : bytes;
      bytes = Buffer.alloc(0);
      const used = this.header(this.head);
      if (used === 0) {
        this.head = Buffer.from(this.head); // kept past this chunk: a copy of the few bytes
        return;
      }
      bytes = this.head.subarray(used);
      this.head = Buffer.alloc(0);
    }
  }

  /** Reads the header at the start of `at`: the bytes it took, 0 when more are needed. */
  private header(at: Buffer): number {
    if (this.state === 'block') {
      if (at.length < 3) return 0;
      // Block header: last flag, type, size; an RLE block carries 1 byte.
      const header = at[0]! | (at[1]! << 8) | (at[2]! << 16);
      const type = (header >> 1) & 3;
      this.skip = type === 1 ? 1 : header >> 3;
      if (header & 1) {
        // The frame's last block, then its checksum when it has one.
        this.state = 'frame';
        if (this.checksum) this.skip += 4;
      }
      return 3;
    }
    if (at.length < 4) return 0;
    const magic = uint32(at, 0);
    if (magic >= 0x184d2a50 && magic <= 0x184d2a5f) {
      // Skippable frame: 4-byte little-endian length after the magic.
      if (at.length < 8) return 0;
      this.skip = uint32(at, 4);
      return 8;
    }
    if (magic !== 0xfd2fb528) {
      this.state = 'notZstd'; // the decoder says so
      return 4;
    }
    if (at.length < 5) return 0;
    const descriptor = at[4]!;
    const singleSegment = (descriptor >> 5) & 1;
    const dictBytes = [0, 1, 2, 4][descriptor & 3]!;
    const sizeField = descriptor >> 6;
    const sizeBytes = sizeField ? 1 << sizeField : singleSegment;
    const length = 5 + (singleSegment ? 0 : 1) + dictBytes + sizeBytes;
    if (at.length < length) return 0;
    let pos = 5;
    let window = 0;
    if (!singleSegment) {
      const wd = at[pos]!;
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
      pos += 1;
    }
    pos += dictBytes;
    let contentSize = 0;
    for (let i = 0; i < sizeBytes; i++) contentSize += at[pos + i]! * 2 ** (8 * i);
    if (sizeBytes === 2) contentSize += 256;
    if ((singleSegment ? contentSize : window) > this.maxBytes) throw new DecodedTooLargeError(this.maxBytes);
    this.checksum = ((descriptor >> 2) & 1) === 1;
    this.state = 'block';
    return length;
  }
}
