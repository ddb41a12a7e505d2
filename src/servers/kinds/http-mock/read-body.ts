/** Reads a request body into memory, up to a limit (mock routes match and template on it). */
import type { AnyRequest } from '../../http-types.js';

/** The most request body a mock route reads; larger bodies get 413. */
export const MAX_MOCK_REQUEST_BYTES = 32 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export function readBody(req: AnyRequest, limit = MAX_MOCK_REQUEST_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stream = req as NodeJS.ReadableStream & { destroyed?: boolean };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.removeAllListeners('data');
        stream.resume(); // drain what is left, but keep none of it
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    stream.on('error', reject);
    stream.on('aborted', () => reject(new Error('aborted')));
  });
}
