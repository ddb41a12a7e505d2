import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, phpString as s } from '../quote/literals.js';
import { typedTextPartsComment } from '../shared.js';

function render(req: CodeRequest): string {
  const body = req.body;
  const options: string[] = [`CURLOPT_URL => ${s(req.url)}`];
  if (req.method === 'HEAD') options.push('CURLOPT_NOBODY => true');
  else options.push(`CURLOPT_CUSTOMREQUEST => ${s(req.method)}`);
  if (req.headers.length) {
    // An empty value is written "Name;": curl would drop "Name:" instead of sending it.
    const lines = req.headers.map((h) => `        ${s(h.value === '' ? `${h.name};` : `${h.name}: ${h.value}`)},\n`);
    options.push(`CURLOPT_HTTPHEADER => [\n${lines.join('')}    ]`);
  }
  if (body.kind === 'text') options.push(`CURLOPT_POSTFIELDS => ${s(body.text)}`);
  else if (body.kind === 'binary') options.push(`CURLOPT_POSTFIELDS => base64_decode(${s(body.base64)})`);
  else if (body.kind === 'multipart') {
    const fields = body.parts.map((p) =>
      p.file
        ? `        ${s(p.name)} => new CURLFile(${s(p.file.path)}, ${p.contentType ? s(p.contentType) : 'null'}, ${s(p.file.fileName)}),\n`
        : `        ${s(p.name)} => ${s(p.value ?? '')},\n`,
    );
    options.push(`CURLOPT_POSTFIELDS => [\n${fields.join('')}    ]`);
  }
  options.push('CURLOPT_RETURNTRANSFER => true');
  const comments = [...req.comments, ...typedTextPartsComment(req, 'PHP curl')];
  if (body.kind === 'multipart' && new Set(body.parts.map((p) => p.name)).size < body.parts.length) {
    comments.push('PHP arrays hold one value per key: repeated part names keep only the last.');
  }
  return (
    '<?php\n' +
    commentLines(comments, '//') +
    '\n$curl = curl_init();\ncurl_setopt_array($curl, [\n' +
    options.map((o) => `    ${o},\n`).join('') +
    ']);\n\n$response = curl_exec($curl);\nif ($response === false) {\n    fwrite(STDERR, curl_error($curl) . "\\n");\n    exit(1);\n}\n' +
    'echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), "\\n", $response, "\\n";\ncurl_close($curl);\n'
  );
}

export const phpTarget: Target = {
  id: 'php/curl',
  lang: 'php',
  lib: 'curl',
  language: 'PHP',
  library: 'curl extension',
  tool: 'PHP curl',
  platform: 'PHP 7.4+',
  fileName: 'request.php',
  rules: {
    repeatedHeaders: 'keep',
    decompresses: false,
    noBodyWith: ['HEAD'],
    noLengthWithoutBody: true,
    addsHeaders: ['accept', 'expect'],
  },
  render,
};
