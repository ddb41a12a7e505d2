import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { cBytes, commentLines, cString as s } from '../quote/literals.js';
import { curlRules } from './curl.js';

function render(req: CodeRequest): string {
  const body = req.body;
  let code = '';
  if (req.headers.length) {
    code += '  struct curl_slist *headers = NULL;\n';
    // An empty value is written "Name;": curl would drop "Name:" instead of sending it.
    for (const h of req.headers) code += `  headers = curl_slist_append(headers, ${s(h.value === '' ? `${h.name};` : `${h.name}: ${h.value}`)});\n`;
    code += '  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);\n';
  }
  code += `  curl_easy_setopt(curl, CURLOPT_URL, ${s(req.url)});\n`;
  if (req.method === 'HEAD') code += '  curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);\n';
  else if (!(req.method === 'GET' && body.kind === 'none')) code += `  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, ${s(req.method)});\n`;
  let pre = '';
  if (body.kind === 'text' || body.kind === 'binary') {
    // The size is given, so the body may hold NUL bytes.
    pre += `  static const char body[] = ${cBytes(body.bytes)};\n`;
    code += '  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);\n  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)(sizeof body - 1));\n';
  } else if (body.kind === 'multipart') {
    code += '  curl_mime *form = curl_mime_init(curl);\n  curl_mimepart *part;\n';
    for (const p of body.parts) {
      code += `  part = curl_mime_addpart(form);\n  curl_mime_name(part, ${s(p.name)});\n`;
      if (p.file) code += `  curl_mime_filedata(part, ${s(p.file.path)});\n  curl_mime_filename(part, ${s(p.file.fileName)});\n`;
      else code += `  curl_mime_data(part, ${s(p.value ?? '')}, CURL_ZERO_TERMINATED);\n`;
      if (p.contentType) code += `  curl_mime_type(part, ${s(p.contentType)});\n`;
    }
    code += '  curl_easy_setopt(curl, CURLOPT_MIMEPOST, form);\n';
  }
  code += '\n  CURLcode result = curl_easy_perform(curl);\n  if (result != CURLE_OK)\n    fprintf(stderr, "%s\\n", curl_easy_strerror(result));\n';
  if (body.kind === 'multipart') code += '  curl_mime_free(form);\n';
  if (req.headers.length) code += '  curl_slist_free_all(headers);\n';
  code += '  curl_easy_cleanup(curl);\n  curl_global_cleanup();\n  return result == CURLE_OK ? 0 : 1;\n';
  return (
    commentLines(req.comments, '//') +
    '#include <stdio.h>\n#include <curl/curl.h>\n\nint main(void) {\n' +
    pre +
    '  curl_global_init(CURL_GLOBAL_DEFAULT);\n  CURL *curl = curl_easy_init();\n  if (!curl)\n    return 1;\n' +
    code +
    '}\n'
  );
}

export const libcurlTarget: Target = {
  id: 'c/libcurl',
  lang: 'c',
  lib: 'libcurl',
  language: 'C',
  library: 'libcurl',
  tool: 'libcurl',
  platform: 'C99, libcurl 7.56+',
  fileName: 'request.c',
  rules: curlRules,
  render,
};
