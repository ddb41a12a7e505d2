import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, swiftString as s } from '../quote/literals.js';
import { MULTIPART_CONTENT_TYPE, multipartSegments } from '../multipart.js';
import { headersWithout } from '../shared.js';

function render(req: CodeRequest): string {
  const body = req.body;
  const comments = [...req.comments];
  let code = `var request = URLRequest(url: URL(string: ${s(req.url)})!)\nrequest.httpMethod = ${s(req.method)}\n`;
  let headers = req.headers;
  let pre = '';
  if (body.kind === 'multipart') {
    comments.push('URLSession has no multipart support: the body is built by hand.');
    headers = [...headersWithout(req, 'content-type'), { name: 'Content-Type', value: MULTIPART_CONTENT_TYPE }];
    pre += 'var form = Data()\n';
    for (const seg of multipartSegments(body.parts)) {
      pre += seg.kind === 'file' ? `form.append(try Data(contentsOf: URL(fileURLWithPath: ${s(seg.path)})))\n` : `form.append(Data(${s(seg.text)}.utf8))\n`;
    }
    pre += '\n';
  }
  for (const h of headers) code += `request.setValue(${s(h.value)}, forHTTPHeaderField: ${s(h.name)})\n`;
  if (body.kind === 'text') code += `request.httpBody = Data(${s(body.text)}.utf8)\n`;
  else if (body.kind === 'binary') code += `request.httpBody = Data(base64Encoded: ${s(body.base64)})!\n`;
  else if (body.kind === 'multipart') code += 'request.httpBody = form\n';
  return (
    commentLines(comments, '//') +
    'import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n\n' +
    pre +
    code +
    '\nlet (data, response) = try await URLSession.shared.data(for: request)\n' +
    'print((response as! HTTPURLResponse).statusCode)\nprint(String(decoding: data, as: UTF8.self))\n'
  );
}

export const swiftTarget: Target = {
  id: 'swift/urlsession',
  lang: 'swift',
  lib: 'urlsession',
  language: 'Swift',
  library: 'URLSession',
  tool: 'URLSession',
  platform: 'iOS, macOS',
  fileName: 'main.swift',
  rules: {
    repeatedHeaders: 'join',
    buildsMultipart: true,
    decompresses: true,
    noBodyWith: ['GET', 'HEAD'],
    refusedHeaders: ['connection'],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'accept-language', 'connection'],
  },
  render,
};
