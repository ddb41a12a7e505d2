import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, dartString as s } from '../quote/literals.js';
import { typedTextPartsComment } from '../shared.js';

function render(req: CodeRequest): string {
  const body = req.body;
  const imports = new Set(["import 'package:http/http.dart' as http;"]);
  const comments = [...req.comments];
  let code: string;
  if (body.kind === 'multipart') {
    comments.push(...typedTextPartsComment(req, 'http.MultipartRequest'));
    if (body.parts.some((p) => p.file) && body.parts.some((p) => !p.file)) {
      comments.push('http.MultipartRequest sends the text fields before the files.');
    }
    code = `  final request = http.MultipartRequest(${s(req.method)}, Uri.parse(${s(req.url)}));\n`;
    for (const p of body.parts) {
      if (p.file) {
        if (p.contentType) imports.add("import 'package:http_parser/http_parser.dart';");
        const type = p.contentType ? `, contentType: MediaType.parse(${s(p.contentType)})` : '';
        code += `  request.files.add(await http.MultipartFile.fromPath(${s(p.name)}, ${s(p.file.path)}, filename: ${s(p.file.fileName)}${type}));\n`;
      } else code += `  request.fields[${s(p.name)}] = ${s(p.value ?? '')};\n`;
    }
  } else {
    code = `  final request = http.Request(${s(req.method)}, Uri.parse(${s(req.url)}));\n`;
  }
  if (req.headers.length) {
    code += `  request.headers.addAll({\n${req.headers.map((h) => `    ${s(h.name)}: ${s(h.value)},\n`).join('')}  });\n`;
  }
  if (body.kind === 'text' || body.kind === 'binary') imports.add("import 'dart:convert';");
  // bodyBytes, not body: setting body would add a charset to Content-Type.
  if (body.kind === 'text') code += `  request.bodyBytes = utf8.encode(${s(body.text)});\n`;
  else if (body.kind === 'binary') code += `  request.bodyBytes = base64Decode(${s(body.base64)});\n`;
  code += '\n  final response = await http.Response.fromStream(await request.send());\n  print(response.statusCode);\n  print(response.body);\n';
  return commentLines(comments, '//') + [...imports].sort().join('\n') + '\n\nFuture<void> main() async {\n' + code + '}\n';
}

export const dartTarget: Target = {
  id: 'dart/http',
  lang: 'dart',
  lib: 'http',
  language: 'Dart',
  library: 'http',
  tool: 'the http package',
  platform: 'Flutter, Dart',
  fileName: 'main.dart',
  rules: {
    repeatedHeaders: 'join',
    decompresses: true,
    noBodyWith: [],
    addsHeaders: ['user-agent', 'accept-encoding'],
  },
  render,
};
