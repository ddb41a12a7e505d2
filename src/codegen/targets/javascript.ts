import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, jsString as s } from '../quote/literals.js';
import { typedTextPartsComment } from '../shared.js';

function headersObject(req: CodeRequest, pad: string): string {
  if (!req.headers.length) return '';
  return `${pad}headers: {\n${req.headers.map((h) => `${pad}  ${s(h.name)}: ${s(h.value)},\n`).join('')}${pad}},\n`;
}

/** FormData built the same way for fetch and axios; files are read with Node's fs (in browsers, use a File from an <input>). */
function formData(req: CodeRequest): string {
  if (req.body.kind !== 'multipart') return '';
  let code = '';
  if (req.body.parts.some((p) => !p.file && /\r|\n/.test(p.value ?? ''))) {
    code += '// FormData sends line breaks in text fields as CRLF.\n';
  }
  code += 'const form = new FormData();\n';
  for (const p of req.body.parts) {
    if (p.file) {
      const type = p.contentType ? `, { type: ${s(p.contentType)} }` : '';
      code += `form.append(${s(p.name)}, new Blob([await readFile(${s(p.file.path)})]${type}), ${s(p.file.fileName)});\n`;
    } else code += `form.append(${s(p.name)}, ${s(p.value ?? '')});\n`;
  }
  return code;
}

function imports(req: CodeRequest, extra: string[]): string {
  const lines = [...extra];
  if (req.body.kind === 'multipart' && req.body.parts.some((p) => p.file)) lines.push('import { readFile } from "node:fs/promises";');
  return lines.length ? lines.join('\n') + '\n\n' : '';
}

/** Forbidden request header names of the Fetch standard that remain after the shared rules. */
const BROWSER_FORBIDDEN = new Set(['accept-charset', 'access-control-request-headers', 'access-control-request-method', 'cookie', 'cookie2', 'date', 'dnt', 'origin', 'referer', 'set-cookie', 'trailer', 'via']);

/** Browsers drop forbidden headers silently; Node.js sends them. Say which, so the browser case is not a surprise. */
function browserComment(req: CodeRequest): string[] {
  const names = [...new Set(req.headers.map((h) => h.name).filter((n) => BROWSER_FORBIDDEN.has(n.toLowerCase()) || /^(proxy|sec)-/i.test(n)))];
  return names.length ? [`In browsers fetch silently drops ${names.join(', ')} (forbidden header ${names.length > 1 ? 'names' : 'name'}); Node.js sends ${names.length > 1 ? 'them' : 'it'}.`] : [];
}

function renderFetch(req: CodeRequest): string {
  const body = req.body;
  let pre = formData(req);
  let bodyLine = '';
  if (body.kind === 'text') bodyLine = `  body: ${s(body.text)},\n`;
  else if (body.kind === 'binary') {
    pre += `const body = Uint8Array.from(atob(${s(body.base64)}), (c) => c.charCodeAt(0));\n`;
    bodyLine = '  body,\n';
  } else if (body.kind === 'multipart') bodyLine = '  body: form,\n';
  const comments = [...req.comments, ...browserComment(req), ...typedTextPartsComment(req, 'FormData')];
  return (
    commentLines(comments, '//') +
    imports(req, []) +
    pre +
    `const response = await fetch(${s(req.url)}, {\n  method: ${s(req.method)},\n` +
    headersObject(req, '  ') +
    bodyLine +
    '});\n\nconsole.log(response.status);\nconsole.log(await response.text());\n'
  );
}

function renderAxios(req: CodeRequest): string {
  const body = req.body;
  let pre = formData(req);
  let dataLines = '';
  if (body.kind === 'text') {
    dataLines = `  data: ${s(body.text)},\n  // Send the text as written (axios would re-encode JSON text).\n  transformRequest: [(data) => data],\n`;
  } else if (body.kind === 'binary') {
    pre += `const data = Buffer.from(${s(body.base64)}, "base64");\n`;
    dataLines = '  data,\n';
  } else if (body.kind === 'multipart') dataLines = '  data: form,\n';
  const comments = [...req.comments, ...typedTextPartsComment(req, 'FormData')];
  return (
    commentLines(comments, '//') +
    imports(req, ['import axios from "axios";']) +
    pre +
    `const response = await axios.request({\n  method: ${s(req.method)},\n  url: ${s(req.url)},\n` +
    headersObject(req, '  ') +
    dataLines +
    '  responseType: "text",\n  // Answer every status instead of throwing on 4xx and 5xx.\n  validateStatus: () => true,\n});\n\nconsole.log(response.status);\nconsole.log(response.data);\n'
  );
}

export const fetchTarget: Target = {
  id: 'javascript/fetch',
  lang: 'javascript',
  lib: 'fetch',
  language: 'JavaScript',
  library: 'fetch',
  tool: 'fetch',
  platform: 'browsers, Node.js 18+',
  fileName: 'request.mjs',
  rules: {
    repeatedHeaders: 'join',
    decompresses: true,
    noBodyWith: ['GET', 'HEAD'],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'accept-language', 'sec-fetch-mode', 'connection'],
  },
  render: renderFetch,
};

export const axiosTarget: Target = {
  id: 'javascript/axios',
  lang: 'javascript',
  lib: 'axios',
  language: 'JavaScript',
  library: 'axios',
  tool: 'axios',
  platform: 'Node.js, ES module',
  fileName: 'request.mjs',
  rules: {
    repeatedHeaders: 'join',
    decompresses: true,
    noBodyWith: [],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'connection'],
  },
  render: renderAxios,
};
