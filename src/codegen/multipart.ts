import type { CodePart } from './normalize.js';

/** The boundary of multipart bodies that snippets build by hand (fixed, so the code reads the same every time). */
export const BOUNDARY = '----FerryFormBoundary7MA4YWxkTrZu0gW';

/** Quoted-string value for Content-Disposition, escaped the way browsers do (WHATWG). */
export function dispositionValue(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/** The Content-Disposition value of a part. */
export function contentDisposition(p: CodePart): string {
  const name = `form-data; name="${dispositionValue(p.name)}"`;
  return p.file ? `${name}; filename="${dispositionValue(p.file.fileName)}"` : name;
}

export type MultipartSegment = { kind: 'text'; text: string } | { kind: 'file'; path: string };

/**
 * A multipart/form-data body as text pieces and file contents, in order, for the targets
 * whose library has no multipart support (Wget, Java, Swift). Adjacent text pieces are merged.
 */
export function multipartSegments(parts: CodePart[]): MultipartSegment[] {
  const out: MultipartSegment[] = [];
  const text = (t: string): void => {
    const last = out[out.length - 1];
    if (last?.kind === 'text') last.text += t;
    else out.push({ kind: 'text', text: t });
  };
  for (const p of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: ${contentDisposition(p)}\r\n`;
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    text(head + '\r\n');
    if (p.file) out.push({ kind: 'file', path: p.file.path });
    else text(p.value ?? '');
    text('\r\n');
  }
  text(`--${BOUNDARY}--\r\n`);
  return out;
}

export const MULTIPART_CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
