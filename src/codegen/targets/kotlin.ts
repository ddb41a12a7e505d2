import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, kotlinString as s } from '../quote/literals.js';
import { contentTypeOf, headersWithout, jvmStringPieces } from '../shared.js';
import { contentDisposition } from '../multipart.js';

function mediaType(type: string | undefined): string {
  return type === undefined ? 'null' : `${s(type)}.toMediaTypeOrNull()`;
}

/** A string expression; past one JVM constant's size, pieces joined at run time. */
function longString(value: string): string {
  const pieces = jvmStringPieces(value);
  if (pieces.length === 1) return s(value);
  return `listOf(\n${pieces.map((p) => `        ${s(p)}`).join(',\n')}\n    ).joinToString("")`;
}

function render(req: CodeRequest): string {
  const body = req.body;
  const imports = new Set(['okhttp3.OkHttpClient', 'okhttp3.Request']);
  let pre = '';
  let bodyExpr: string | undefined;
  // OkHttp writes Content-Type from the body's media type, so it is given there rather than as a header.
  const headers = body.kind === 'none' ? req.headers : headersWithout(req, 'content-type');
  const type = contentTypeOf(req);
  if (type !== undefined && body.kind !== 'none') imports.add('okhttp3.MediaType.Companion.toMediaTypeOrNull');
  if (body.kind === 'text') {
    imports.add('okhttp3.RequestBody.Companion.toRequestBody');
    // Bytes, not the String overload: that one would add "; charset=utf-8" to Content-Type.
    bodyExpr = `${longString(body.text)}.toByteArray().toRequestBody(${mediaType(type)})`;
  } else if (body.kind === 'binary') {
    imports.add('okhttp3.RequestBody.Companion.toRequestBody');
    imports.add('okio.ByteString.Companion.decodeBase64');
    bodyExpr = `${longString(body.base64)}.decodeBase64()!!.toRequestBody(${mediaType(type)})`;
  } else if (body.kind === 'multipart') {
    imports.add('okhttp3.MultipartBody');
    pre += '    val form = MultipartBody.Builder()\n        .setType(MultipartBody.FORM)\n';
    for (const p of body.parts) {
      if (p.file) {
        imports.add('java.io.File');
        imports.add('okhttp3.RequestBody.Companion.asRequestBody');
        if (p.contentType) imports.add('okhttp3.MediaType.Companion.toMediaTypeOrNull');
        pre += `        .addFormDataPart(${s(p.name)}, ${s(p.file.fileName)}, File(${s(p.file.path)}).asRequestBody(${mediaType(p.contentType)}))\n`;
      } else if (p.contentType) {
        imports.add('okhttp3.Headers.Companion.headersOf');
        imports.add('okhttp3.MediaType.Companion.toMediaTypeOrNull');
        imports.add('okhttp3.RequestBody.Companion.toRequestBody');
        const disposition = s(contentDisposition(p));
        pre += `        .addPart(headersOf("Content-Disposition", ${disposition}), ${s(p.value ?? '')}.toByteArray().toRequestBody(${mediaType(p.contentType)}))\n`;
      } else pre += `        .addFormDataPart(${s(p.name)}, ${s(p.value ?? '')})\n`;
    }
    pre += '        .build()\n\n';
    bodyExpr = 'form';
  }
  let builder = `    val request = Request.Builder()\n        .url(${s(req.url)})\n`;
  for (const h of headers) builder += `        .addHeader(${s(h.name)}, ${s(h.value)})\n`;
  builder += `        .method(${s(req.method)}, ${bodyExpr ?? 'null'})\n        .build()\n`;
  const comments = req.comments;
  return (
    commentLines(comments, '//') +
    [...imports].sort().map((i) => `import ${i}\n`).join('') +
    `\nfun main() {\n${pre}${builder}\n    OkHttpClient().newCall(request).execute().use { response ->\n        println(response.code)\n        println(response.body!!.string())\n    }\n}\n`
  );
}

export const kotlinTarget: Target = {
  id: 'kotlin/okhttp',
  lang: 'kotlin',
  lib: 'okhttp',
  language: 'Kotlin',
  library: 'OkHttp 4',
  tool: 'OkHttp',
  platform: 'Android, JVM',
  fileName: 'Main.kt',
  rules: {
    repeatedHeaders: 'keep',
    decompresses: true,
    noBodyWith: ['GET', 'HEAD'],
    addsHeaders: ['user-agent', 'accept-encoding', 'connection'],
  },
  render,
};
