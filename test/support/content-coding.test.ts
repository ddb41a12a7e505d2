/**
 * The one table of content codings, in both shapes: whole bodies (decodeBody, the HTTP client) and
 * streams (decodingStream, the fetch made on Ferry's pools for MCP, OAuth 2.0 and Socket.IO). Each
 * coding is decoded alike by both, the stream fed a byte at a time and in uneven chunks; zstd
 * bodies come from the zstd program (frames with checksums, several frames, skippable frames).
 */
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DecodedTooLargeError, decodeBody, decodingStream, MAX_CODINGS } from '../../src/support/content-coding.js';

const TEXT = Buffer.from(`${'Ferry decodes what it asked for. '.repeat(400)}é✓ the end`, 'utf8');
const zstd = (bytes: Buffer, ...flags: string[]) => execFileSync('zstd', ['-q', '-c', ...flags], { input: bytes });
/** A skippable frame (RFC 8878 3.1.2) holding `size` bytes. */
const skippable = (size: number) => Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, size & 0xff, size >> 8, 0, 0]), Buffer.alloc(size, 7)]);

const BODIES: Array<[coding: string, body: Buffer]> = [
  ['gzip', zlib.gzipSync(TEXT)],
  ['x-gzip', zlib.gzipSync(TEXT)],
  ['deflate', zlib.deflateSync(TEXT)],
  // Raw deflate under the same name, as some servers send it.
  ['deflate', zlib.deflateRawSync(TEXT)],
  ['br', zlib.brotliCompressSync(TEXT)],
  ['zstd', zstd(TEXT)],
  ['zstd', Buffer.concat([skippable(300), zstd(TEXT.subarray(0, 5000), '--no-check'), zstd(TEXT.subarray(5000))])],
  ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(TEXT))],
  ['identity', TEXT],
];

/** `body` through decodingStream, fed in chunks of the sizes given in turn. */
async function streamed(body: Buffer, coding: string, sizes: number[], maxBytes = 0): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < body.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(body.subarray(at, at + size));
    at += size;
  }
  const out: Buffer[] = [];
  for await (const chunk of decodingStream(Readable.from(chunks), coding, maxBytes)) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

describe('content codings: one table, whole bodies and streams', () => {
  for (const [coding, body] of BODIES) {
    it(`${coding} (${body.length} bytes): decoded the same whole, streamed a byte at a time, and in uneven chunks`, async () => {
      expect(Buffer.from(decodeBody(body, coding))).toEqual(TEXT);
      expect(await streamed(body, coding, [1])).toEqual(TEXT);
      expect(await streamed(body, coding, [2, 7, 1, 600, 3])).toEqual(TEXT);
    });
  }

  it('a coding Ferry does not know: left alone whole (the body as sent), refused streamed (no compressed bytes taken for the body), saying which', async () => {
    expect(Buffer.from(decodeBody(TEXT, 'compress'))).toEqual(TEXT);
    expect(() => decodingStream(Readable.from([TEXT]), 'compress')).toThrow("the server compressed its answer as Content-Encoding: compress, which Ferry cannot undo (gzip, x-gzip, deflate, br, zstd). Leave out the request's Accept-Encoding header.");
  });

  it(`more than ${MAX_CODINGS} codings stacked are refused by both`, () => {
    const many = Array(MAX_CODINGS + 1).fill('gzip').join(', ');
    expect(() => decodeBody(TEXT, many)).toThrow(`${MAX_CODINGS + 1} content codings stacked`);
    expect(() => decodingStream(Readable.from([TEXT]), many)).toThrow(`${MAX_CODINGS + 1} content codings stacked (Content-Encoding); Ferry undoes at most ${MAX_CODINGS}. Leave out the request's Accept-Encoding header.`);
  });

  it('a zstd frame asking for a window over the limit is refused before the decoder holds it, in both shapes, the frame header split across chunks', async () => {
    // A 2 MB content size declared up front (single segment): the decoder would hold all of it.
    const big = zstd(Buffer.alloc(2 * 1024 * 1024, 0x61));
    expect(() => decodeBody(big, 'zstd', 1024 * 1024)).toThrow(DecodedTooLargeError);
    await expect(streamed(big, 'zstd', [1], 1024 * 1024)).rejects.toThrow(DecodedTooLargeError);
    // The same frame after a small one: each frame is checked, not only the first.
    const second = Buffer.concat([zstd(Buffer.from('small')), big]);
    await expect(streamed(second, 'zstd', [3, 5], 1024 * 1024)).rejects.toThrow(DecodedTooLargeError);
    expect(await streamed(big, 'zstd', [4096], 4 * 1024 * 1024)).toHaveLength(2 * 1024 * 1024);
  });

  it('a body that is not what its coding says fails the stream with zlib\'s or fzstd\'s error', async () => {
    await expect(streamed(Buffer.from('not gzip at all'), 'gzip', [4])).rejects.toThrow();
    await expect(streamed(Buffer.from('not zstd at all'), 'zstd', [4])).rejects.toThrow();
  });
});
