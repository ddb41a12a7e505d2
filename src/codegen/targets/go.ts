import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, goString as s } from '../quote/literals.js';
import { contentDisposition } from '../multipart.js';

function render(req: CodeRequest): string {
  const body = req.body;
  const imports = new Set(['fmt', 'io', 'net/http']);
  let pre = '';
  let reader = 'nil';
  let contentTypeFromWriter = false;
  if (body.kind === 'text') {
    imports.add('strings');
    reader = `strings.NewReader(${s(body.text)})`;
  } else if (body.kind === 'binary') {
    imports.add('bytes');
    imports.add('encoding/base64');
    pre += `\tpayload, err := base64.StdEncoding.DecodeString(${s(body.base64)})\n\tif err != nil {\n\t\tpanic(err)\n\t}\n`;
    reader = 'bytes.NewReader(payload)';
  } else if (body.kind === 'multipart') {
    imports.add('bytes');
    imports.add('mime/multipart');
    pre += '\tvar payload bytes.Buffer\n\tform := multipart.NewWriter(&payload)\n';
    for (const p of body.parts) {
      const disposition = s(contentDisposition(p));
      imports.add('net/textproto');
      pre += '\t{\n';
      pre += `\t\theader := textproto.MIMEHeader{}\n\t\theader.Set("Content-Disposition", ${disposition})\n`;
      if (p.contentType) pre += `\t\theader.Set("Content-Type", ${s(p.contentType)})\n`;
      pre += '\t\tpart, err := form.CreatePart(header)\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n';
      if (p.file) {
        imports.add('os');
        pre += `\t\tcontent, err := os.ReadFile(${s(p.file.path)})\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\tpart.Write(content)\n`;
      } else pre += `\t\tio.WriteString(part, ${s(p.value ?? '')})\n`;
      pre += '\t}\n';
    }
    pre += '\tform.Close()\n';
    reader = '&payload';
    contentTypeFromWriter = true;
  }
  let code = `\treq, err := http.NewRequest(${s(req.method)}, ${s(req.url)}, ${reader})\n\tif err != nil {\n\t\tpanic(err)\n\t}\n`;
  // Assigning to the map keeps each header name as written (Header.Add would change its case).
  const byName = new Map<string, string[]>();
  for (const h of req.headers) byName.set(h.name, [...(byName.get(h.name) ?? []), h.value]);
  for (const [name, values] of byName) code += `\treq.Header[${s(name)}] = []string{${values.map(s).join(', ')}}\n`;
  if (contentTypeFromWriter) code += '\treq.Header.Set("Content-Type", form.FormDataContentType())\n';
  code +=
    '\n\tres, err := http.DefaultClient.Do(req)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tdefer res.Body.Close()\n' +
    '\tanswer, err := io.ReadAll(res.Body)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n' +
    '\tfmt.Println(res.StatusCode)\n\tfmt.Println(string(answer))\n';
  const importBlock = `import (\n${[...imports].sort().map((i) => `\t"${i}"\n`).join('')})\n`;
  return `${commentLines(req.comments, '//')}package main\n\n${importBlock}\nfunc main() {\n${pre}${pre ? '\n' : ''}${code}}\n`;
}

export const goTarget: Target = {
  id: 'go/net-http',
  lang: 'go',
  lib: 'net-http',
  language: 'Go',
  library: 'net/http',
  tool: 'net/http',
  platform: 'Go 1.16+, standard library only',
  fileName: 'main.go',
  rules: {
    repeatedHeaders: 'keep',
    decompresses: true,
    noBodyWith: [],
    addsHeaders: ['user-agent', 'accept-encoding'],
  },
  render,
};
