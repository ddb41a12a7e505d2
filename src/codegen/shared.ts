import type { CodeHeader, CodeRequest } from './normalize.js';

/** The request's Content-Type value, if any (the last one wins, as on the wire for most servers). */
export function contentTypeOf(req: CodeRequest): string | undefined {
  let found: string | undefined;
  for (const h of req.headers) if (h.name.toLowerCase() === 'content-type') found = h.value;
  return found;
}

export function headersWithout(req: CodeRequest, ...names: string[]): CodeHeader[] {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return req.headers.filter((h) => !drop.has(h.name.toLowerCase()));
}

/** Text parts whose content type the library cannot set, for a comment. */
export function typedTextParts(req: CodeRequest): string[] {
  return req.body.kind === 'multipart' ? req.body.parts.filter((p) => !p.file && p.contentType).map((p) => p.name) : [];
}

export function typedTextPartsComment(req: CodeRequest, library: string): string[] {
  const names = typedTextParts(req);
  return names.length ? [`${library} cannot set a Content-Type on text parts; sent without it: ${names.join(', ')}.`] : [];
}

/** Splits Base64 into lines of a given width, for readable code. */
export function chunk(text: string, width: number): string[] {
  return text.match(new RegExp(`.{1,${width}}`, 'g')) ?? [''];
}

/**
 * A JVM string constant holds at most 65535 bytes ("constant string too long" in javac, a backend
 * error in kotlinc), and both compilers fold constants joined with `+` into one. Java and Kotlin
 * code therefore joins longer text from pieces at run time; a piece of 16000 UTF-16 units is at
 * most 48000 bytes in the class file. Returns the pieces, or one piece when the text fits.
 */
export function jvmStringPieces(value: string): string[] {
  return value.length <= 16000 ? [value] : value.match(/[\s\S]{1,16000}/g)!;
}

export const STANDARD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => (l ? prefix + l : l))
    .join('\n');
}
