import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { powershellQuote as arg, powershellSafe, powershellString as q } from '../quote/shell.js';
import { commentLines } from '../quote/literals.js';
import { contentTypeOf, headersWithout } from '../shared.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'TRACE', 'OPTIONS', 'MERGE', 'PATCH'];

function render(req: CodeRequest): string {
  const body = req.body;
  let code = '';
  const headers = headersWithout(req, 'content-type');
  const contentType = contentTypeOf(req);
  if (headers.length) {
    code += '$headers = @{\n' + headers.map((h) => `  ${q(h.name)} = ${q(h.value)}\n`).join('') + '}\n';
  }
  const args = [`-Uri ${arg(req.url)}`];
  args.push(METHODS.includes(req.method) ? `-Method ${req.method[0]}${req.method.slice(1).toLowerCase()}` : `-CustomMethod ${arg(req.method)}`);
  if (headers.length) args.push('-Headers $headers');
  if (body.kind === 'text' && powershellSafe(body.text)) {
    // Bytes, so that every PowerShell 7 version sends UTF-8 (before 7.4 a string went out as Latin-1).
    code += `$body = [Text.Encoding]::UTF8.GetBytes(${q(body.text)})\n`;
  } else if (body.kind === 'text' || body.kind === 'binary') {
    code += `$body = [Convert]::FromBase64String(${q(Buffer.from(body.bytes).toString('base64'))})\n`;
  } else if (body.kind === 'multipart') {
    code += '$body = [System.Net.Http.MultipartFormDataContent]::new()\n';
    for (const p of body.parts) {
      if (p.file) {
        code += `$part = [System.Net.Http.ByteArrayContent]::new([IO.File]::ReadAllBytes(${q(p.file.path)}))\n`;
        if (p.contentType) code += `$part.Headers.ContentType = [System.Net.Http.Headers.MediaTypeHeaderValue]::Parse(${q(p.contentType)})\n`;
        code += `$body.Add($part, ${q(p.name)}, ${q(p.file.fileName)})\n`;
      } else {
        code += `$part = [System.Net.Http.StringContent]::new(${q(p.value ?? '')})\n`;
        code += p.contentType
          ? `$part.Headers.ContentType = [System.Net.Http.Headers.MediaTypeHeaderValue]::Parse(${q(p.contentType)})\n`
          : '$part.Headers.ContentType = $null\n';
        code += `$body.Add($part, ${q(p.name)})\n`;
      }
    }
  }
  if (body.kind !== 'none') args.push('-Body $body');
  if (contentType !== undefined && body.kind !== 'multipart') args.push(`-ContentType ${arg(contentType)}`);
  args.push('-SkipHeaderValidation');
  code += `$response = Invoke-WebRequest ${args.join(' `\n  ')}\n`;
  code += '$response.StatusCode\n$response.Content\n';
  return commentLines(req.comments, '#') + code;
}

export const powershell: Target = {
  id: 'powershell/invoke-webrequest',
  lang: 'powershell',
  lib: 'invoke-webrequest',
  language: 'PowerShell',
  library: 'Invoke-WebRequest',
  tool: 'Invoke-WebRequest',
  platform: 'PowerShell 7',
  fileName: 'request.ps1',
  rules: {
    repeatedHeaders: 'join',
    decompresses: true,
    noBodyWith: ['GET', 'HEAD'],
    addsHeaders: ['user-agent', 'accept-encoding', 'connection'],
  },
  render,
};
