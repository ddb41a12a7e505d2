import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { fitsArgument, hasControlBytes, posixQuote } from '../quote/shell.js';
import { commentLines } from '../quote/literals.js';
import { MULTIPART_CONTENT_TYPE, multipartSegments } from '../multipart.js';
import { chunk, headersWithout } from '../shared.js';

function render(req: CodeRequest): string {
  const body = req.body;
  const comments = [...req.comments];
  let prelude = '';
  let bodyOption: string | undefined;
  const options: string[] = ['--quiet', '--output-document=-', `--method=${posixQuote(req.method)}`];
  let headers = req.headers;
  if (body.kind === 'multipart') {
    comments.push('Wget has no multipart support: the body is built in a temporary file.');
    headers = [...headersWithout(req, 'content-type'), { name: 'Content-Type', value: MULTIPART_CONTENT_TYPE }];
    const lines = multipartSegments(body.parts).map((s) =>
      s.kind === 'file' ? `  cat ${posixQuote(s.path)}` : `  printf %s ${posixQuote(s.text)}`,
    );
    prelude = `body_file=$(mktemp)\n{\n${lines.join('\n')}\n} > "$body_file"\n`;
    bodyOption = '--body-file="$body_file"';
  } else if (body.kind === 'binary' || (body.kind === 'text' && hasControlBytes(body.text))) {
    comments.push('The body is binary: it is decoded from Base64 into a temporary file.');
    const b64 = chunk(Buffer.from(body.bytes).toString('base64'), 76).join('\n');
    prelude = `body_file=$(mktemp)\nbase64 -d > "$body_file" <<'BASE64'\n${b64}\nBASE64\n`;
    bodyOption = '--body-file="$body_file"';
  } else if (body.kind === 'text' && !fitsArgument(body.text, 'posix')) {
    // Too long for one program argument; printf is built into the shell.
    prelude = `body_file=$(mktemp)\nprintf %s ${posixQuote(body.text)} > "$body_file"\n`;
    bodyOption = '--body-file="$body_file"';
  } else if (body.kind === 'text') {
    bodyOption = `--body-data=${posixQuote(body.text)}`;
  }
  for (const h of headers) options.push(`--header=${posixQuote(`${h.name}: ${h.value}`)}`);
  if (bodyOption) options.push(bodyOption);
  return commentLines(comments, '#') + prelude + ['wget ' + options[0], ...options.slice(1), posixQuote(req.url)].join(' \\\n  ') + '\n';
}

export const wget: Target = {
  id: 'wget/wget',
  lang: 'wget',
  lib: 'wget',
  language: 'Wget',
  library: 'Wget 1.15+',
  tool: 'Wget',
  platform: 'Linux, macOS',
  fileName: 'request.sh',
  rules: {
    repeatedHeaders: 'join',
    buildsMultipart: true,
    decompresses: false,
    noBodyWith: ['HEAD'],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'connection'],
  },
  render,
};
