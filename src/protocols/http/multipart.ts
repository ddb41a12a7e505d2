/** multipart/form-data encoding of prepared parts (RFC 7578); file parts are read when sending. */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FILE_PART_CONTENT_TYPE } from '../../model/constants.js';
import type { PreparedMultipartPart } from '../../request/prepared.js';

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
      content = await fs.readFile(part.file.absolutePath);
    } else {
      if (part.contentType) head += `\r\nContent-Type: ${part.contentType}`;
      content = Buffer.from(part.value ?? '', 'utf8');
    }
    chunks.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'), content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
