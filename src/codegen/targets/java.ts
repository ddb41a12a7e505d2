import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { commentLines, javaString as s } from '../quote/literals.js';
import { MULTIPART_CONTENT_TYPE, multipartSegments } from '../multipart.js';
import { headersWithout, jvmStringPieces } from '../shared.js';

/** A string expression; past one JVM constant's size, pieces joined at run time. */
function longString(value: string): string {
  const pieces = jvmStringPieces(value);
  if (pieces.length === 1) return s(value);
  return `String.join("",\n${pieces.map((p) => `                ${s(p)}`).join(',\n')})`;
}

function render(req: CodeRequest): string {
  const body = req.body;
  const imports = new Set(['java.net.URI', 'java.net.http.HttpClient', 'java.net.http.HttpRequest', 'java.net.http.HttpResponse']);
  let pre = '';
  let publisher: string | undefined;
  let headers = req.headers;
  const comments = [...req.comments];
  if (body.kind === 'text') {
    imports.add('java.nio.charset.StandardCharsets');
    publisher = `HttpRequest.BodyPublishers.ofString(${longString(body.text)}, StandardCharsets.UTF_8)`;
  } else if (body.kind === 'binary') {
    imports.add('java.util.Base64');
    publisher = `HttpRequest.BodyPublishers.ofByteArray(Base64.getDecoder().decode(${longString(body.base64)}))`;
  } else if (body.kind === 'multipart') {
    comments.push('java.net.http has no multipart support: the body is built by hand.');
    imports.add('java.io.ByteArrayOutputStream');
    imports.add('java.nio.charset.StandardCharsets');
    headers = [...headersWithout(req, 'content-type'), { name: 'Content-Type', value: MULTIPART_CONTENT_TYPE }];
    pre += '        ByteArrayOutputStream form = new ByteArrayOutputStream();\n';
    for (const seg of multipartSegments(body.parts)) {
      if (seg.kind === 'file') {
        imports.add('java.nio.file.Files');
        imports.add('java.nio.file.Path');
        pre += `        form.write(Files.readAllBytes(Path.of(${s(seg.path)})));\n`;
      } else pre += `        form.write(${longString(seg.text)}.getBytes(StandardCharsets.UTF_8));\n`;
    }
    publisher = 'HttpRequest.BodyPublishers.ofByteArray(form.toByteArray())';
  }
  let builder = `        HttpRequest request = HttpRequest.newBuilder()\n            .uri(URI.create(${s(req.url)}))\n`;
  for (const h of headers) builder += `            .header(${s(h.name)}, ${s(h.value)})\n`;
  if (req.method === 'GET' && !publisher) builder += '            .GET()\n';
  else builder += `            .method(${s(req.method)}, ${publisher ?? 'HttpRequest.BodyPublishers.noBody()'})\n`;
  builder += '            .build();\n';
  const main =
    `${pre}${builder}` +
    '        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());\n' +
    '        System.out.println(response.statusCode());\n' +
    '        System.out.println(response.body());\n';
  return (
    commentLines(comments, '//') +
    [...imports].sort().map((i) => `import ${i};\n`).join('') +
    `\npublic class Main {\n    public static void main(String[] args) throws Exception {\n${main}    }\n}\n`
  );
}

export const javaTarget: Target = {
  id: 'java/httpclient',
  lang: 'java',
  lib: 'httpclient',
  language: 'Java',
  library: 'java.net.http.HttpClient',
  tool: 'java.net.http.HttpClient',
  platform: 'Java 11+, single source file',
  fileName: 'Main.java',
  rules: {
    repeatedHeaders: 'keep',
    // The client merges Cookie headers into one line.
    joinedHeaders: ['cookie'],
    buildsMultipart: true,
    decompresses: false,
    noBodyWith: [],
    refusedHeaders: ['connection', 'expect', 'upgrade'],
    // Over http:// the client asks to upgrade to HTTP/2 (h2c).
    addsHeaders: ['user-agent', 'connection', 'upgrade', 'http2-settings'],
  },
  render,
};
