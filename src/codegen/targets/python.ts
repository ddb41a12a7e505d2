import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, pythonString as s } from '../quote/literals.js';

/** `files=` as a list (keeps the parts' order); text parts have no file name. */
function filesList(req: CodeRequest): string {
  if (req.body.kind !== 'multipart') return '';
  const rows = req.body.parts.map((p) => {
    const type = p.contentType ? `, ${s(p.contentType)}` : '';
    if (p.file) return `    (${s(p.name)}, (${s(p.file.fileName)}, open(${s(p.file.path)}, "rb")${type})),\n`;
    return `    (${s(p.name)}, (None, ${s(p.value ?? '')}${type})),\n`;
  });
  return `files = [\n${rows.join('')}]\n`;
}

function bodyLines(req: CodeRequest): { code: string; arg: string; imports: string[] } {
  const body = req.body;
  if (body.kind === 'text') return { code: `body = ${s(body.text)}.encode("utf-8")\n`, arg: 'body', imports: [] };
  if (body.kind === 'binary') return { code: `body = base64.b64decode(${s(body.base64)})\n`, arg: 'body', imports: ['base64'] };
  if (body.kind === 'multipart') return { code: filesList(req), arg: 'files', imports: [] };
  return { code: '', arg: '', imports: [] };
}

function render(req: CodeRequest, lib: 'requests' | 'httpx'): string {
  const body = bodyLines(req);
  const imports = [...body.imports, lib].sort().map((m) => `import ${m}\n`).join('');
  let code = `${commentLines(req.comments, '#')}${imports}\nurl = ${s(req.url)}\n`;
  const args = [s(req.method), 'url'];
  if (req.headers.length) {
    // requests holds one value per name (a dict); httpx takes a list, so repeated headers stay repeated.
    code +=
      lib === 'requests'
        ? `headers = {\n${req.headers.map((h) => `    ${s(h.name)}: ${s(h.value)},\n`).join('')}}\n`
        : `headers = [\n${req.headers.map((h) => `    (${s(h.name)}, ${s(h.value)}),\n`).join('')}]\n`;
    args.push('headers=headers');
  }
  code += body.code;
  if (body.arg === 'files') args.push('files=files');
  else if (body.arg) args.push(lib === 'requests' ? 'data=body' : 'content=body');
  code += `\nresponse = ${lib}.request(${args.join(', ')})\n\nprint(response.status_code)\nprint(response.text)\n`;
  return code;
}

export const pythonRequests: Target = {
  id: 'python/requests',
  lang: 'python',
  lib: 'requests',
  language: 'Python',
  library: 'requests',
  tool: 'requests',
  platform: 'Python 3',
  fileName: 'request.py',
  rules: {
    repeatedHeaders: 'join',
    decompresses: true,
    noBodyWith: [],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'connection'],
  },
  render: (req) => render(req, 'requests'),
};

export const pythonHttpx: Target = {
  id: 'python/httpx',
  lang: 'python',
  lib: 'httpx',
  language: 'Python',
  library: 'httpx',
  tool: 'httpx',
  platform: 'Python 3',
  fileName: 'request.py',
  rules: {
    repeatedHeaders: 'keep',
    decompresses: true,
    noBodyWith: [],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'connection'],
  },
  render: (req) => render(req, 'httpx'),
};
