import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, csharpString as s } from '../quote/literals.js';

/** Headers .NET keeps on the content, not on the request. */
const CONTENT_HEADERS = new Set(['allow', 'content-disposition', 'content-encoding', 'content-language', 'content-location', 'content-md5', 'content-range', 'content-type', 'expires', 'last-modified']);

function render(req: CodeRequest): string {
  const body = req.body;
  const comments = [...req.comments];
  let code = `using var client = new HttpClient();\nusing var request = new HttpRequestMessage(new HttpMethod(${s(req.method)}), ${s(req.url)});\n`;
  if (body.kind === 'text') code += `request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(${s(body.text)}));\n`;
  else if (body.kind === 'binary') code += `request.Content = new ByteArrayContent(Convert.FromBase64String(${s(body.base64)}));\n`;
  else if (body.kind === 'multipart') {
    code += 'var form = new MultipartFormDataContent();\nHttpContent part;\n';
    for (const p of body.parts) {
      if (p.file) {
        code += `part = new ByteArrayContent(File.ReadAllBytes(${s(p.file.path)}));\n`;
        if (p.contentType) code += `part.Headers.ContentType = MediaTypeHeaderValue.Parse(${s(p.contentType)});\n`;
        code += `form.Add(part, ${s(p.name)}, ${s(p.file.fileName)});\n`;
      } else {
        code += `part = new ByteArrayContent(Encoding.UTF8.GetBytes(${s(p.value ?? '')}));\n`;
        if (p.contentType) code += `part.Headers.ContentType = MediaTypeHeaderValue.Parse(${s(p.contentType)});\n`;
        code += `form.Add(part, ${s(p.name)});\n`;
      }
    }
    code += 'request.Content = form;\n';
  }
  const skipped: string[] = [];
  for (const h of req.headers) {
    const onContent = CONTENT_HEADERS.has(h.name.toLowerCase());
    if (onContent && body.kind === 'none') skipped.push(h.name);
    else code += `${onContent ? 'request.Content' : 'request'}.Headers.TryAddWithoutValidation(${s(h.name)}, ${s(h.value)});\n`;
  }
  if (skipped.length) comments.push(`${skipped.join(', ')} left out: HttpClient sends content headers only with a body.`);
  code +=
    '\nusing var response = await client.SendAsync(request);\nConsole.WriteLine((int)response.StatusCode);\nConsole.WriteLine(await response.Content.ReadAsStringAsync());\n';
  const usings = ['using System.Text;'];
  if (body.kind === 'multipart' && body.parts.some((p) => p.contentType)) usings.push('using System.Net.Http.Headers;');
  return commentLines(comments, '//') + usings.sort().join('\n') + '\n\n' + code;
}

export const csharpTarget: Target = {
  id: 'csharp/httpclient',
  lang: 'csharp',
  lib: 'httpclient',
  language: 'C#',
  library: 'HttpClient',
  tool: 'HttpClient',
  platform: '.NET 6+, top-level program',
  fileName: 'Program.cs',
  rules: {
    repeatedHeaders: 'join',
    decompresses: false,
    noBodyWith: [],
    addsHeaders: ['connection'],
  },
  render,
};
