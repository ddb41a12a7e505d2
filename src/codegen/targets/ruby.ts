import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, rubyString as s } from '../quote/literals.js';

const CLASSES: Record<string, string> = {
  GET: 'Get', POST: 'Post', PUT: 'Put', PATCH: 'Patch', DELETE: 'Delete', HEAD: 'Head', OPTIONS: 'Options',
};

function render(req: CodeRequest): string {
  const body = req.body;
  let code = `uri = URI(${s(req.url)})\n`;
  const cls = CLASSES[req.method];
  code += cls
    ? `request = Net::HTTP::${cls}.new(uri)\n`
    : `request = Net::HTTPGenericRequest.new(${s(req.method)}, true, true, uri)\n`;
  for (const h of req.headers) code += `request[${s(h.name)}] = ${s(h.value)}\n`;
  if (body.kind === 'text') code += `request.body = ${s(body.text)}\n`;
  else if (body.kind === 'binary') code += `request.body = ${s(body.base64)}.unpack1("m")\n`;
  else if (body.kind === 'multipart') {
    const rows = body.parts.map((p) => {
      if (p.file) {
        const type = p.contentType ? `, content_type: ${s(p.contentType)}` : '';
        return `  [${s(p.name)}, File.open(${s(p.file.path)}, "rb"), { filename: ${s(p.file.fileName)}${type} }],\n`;
      }
      return `  [${s(p.name)}, ${s(p.value ?? '')}${p.contentType ? `, { content_type: ${s(p.contentType)} }` : ''}],\n`;
    });
    code += `request.set_form([\n${rows.join('')}], "multipart/form-data")\n`;
  }
  code +=
    '\nresponse = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|\n  http.request(request)\nend\n\nputs response.code\nputs response.body\n';
  return commentLines(req.comments, '#') + 'require "net/http"\n\n' + code;
}

export const rubyTarget: Target = {
  id: 'ruby/net-http',
  lang: 'ruby',
  lib: 'net-http',
  language: 'Ruby',
  library: 'Net::HTTP',
  tool: 'Net::HTTP',
  platform: 'Ruby 2.7+',
  fileName: 'request.rb',
  rules: {
    repeatedHeaders: 'join',
    decompresses: true,
    noBodyWith: ['HEAD'],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'connection'],
  },
  render,
};
