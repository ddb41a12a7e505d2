/** multipart/form-data encoding of prepared parts (RFC 7578); file parts are read when sending. */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FILE_PART_CONTENT_TYPE } from '../../model/constants.js';
import { readBodyFile } from '../../request/body.js';
import type { PreparedMultipartPart } from '../../request/prepared.js';
import { SendError } from '../send-error.js';

/** Quotes a name or file name as browsers do: `"` and line breaks percent-encoded. */
function quoted(text: string): string {
  return `"${text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

export async function encodeMultipart(parts: readonly PreparedMultipartPart[]): Promise<{ body: Buffer; contentType: string }> {
  const boundary = `----FerryFormBoundary${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(part.name)}`;
    let content: Buffer;
    if (part.file) {
      head += `; filename=${quoted(path.basename(part.file.path))}`;
      head += `\r\nContent-Type: ${part.contentType || FILE_PART_CONTENT_TYPE}`;
      content = await readPartFile(part.file);
    } else {
      if (part.contentType) head += `\r\nContent-Type: ${part.contentType}`;
      content = Buffer.from(part.value ?? '', 'utf8');
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'), content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The request's headers with the encoded body's Content-Type: a typed one that names a boundary
 * is kept (the user wrote the whole header), any other is replaced by the encoder's.
 */
export function withMultipartType(headers: Array<[string, string]>, contentType: string): Array<[string, string]> {
  const kept = headers.filter(([name, value]) => name.toLowerCase() !== 'content-type' || /boundary=/i.test(value));
  if (!kept.some(([name]) => name.toLowerCase() === 'content-type')) kept.push(['Content-Type', contentType]);
  return kept;
}

/**
 * A file part's bytes. It was checked when the request was prepared (inside the workspace, no
 * link, at most 1 GB) and is read now: without following a link at its end (O_NOFOLLOW), so a
 * file replaced by one meanwhile is refused, not read through.
 */
function readPartFile(file: { path: string; absolutePath: string }): Promise<Buffer> {
  return readBodyFile(file.absolutePath, (why) => {
    if (why === 'link') return new SendError(`the multipart file ${file.path} is now a symbolic link; Ferry never follows links.`, 'other');
    if (why === 'tooLarge') return new SendError(`the multipart file ${file.path} grew past 1 GB since it was checked; Ferry sends body files of at most 1 GB.`, 'other');
    return new SendError(`the multipart file ${file.path} no longer exists (looked for ${file.absolutePath}).`, 'other');
  });
}
