import type { CodeRequest } from '../normalize.js';
import type { Target } from '../target.js';
import { fitsArgument, hasControlBytes, posixQuote } from '../quote/shell.js';
import { commentLines } from '../quote/literals.js';
import { typedTextPartsComment } from '../shared.js';

/** HTTPie reads `\` before one of these as an escape in request items. */
const ITEM_SPECIALS = /[:;@=]/;

function escapeKey(name: string): string {
  return name.replace(/[\\:;@=]/g, (c) => '\\' + c);
}

/** A value after its separator: only a leading separator character needs escaping. */
function escapeValue(value: string): string {
  return ITEM_SPECIALS.test(value[0] ?? '') ? '\\' + value : value;
}

/** Values HTTPie cannot carry exactly: a backslash right before a separator character is always read as an escape. */
function ambiguousBackslash(value: string): boolean {
  return /\\[:;@=]/.test(value);
}

function render(req: CodeRequest): string {
  const comments = [...req.comments, ...typedTextPartsComment(req, 'HTTPie')];
  const items: string[] = [];
  for (const h of req.headers) {
    if (ambiguousBackslash(h.value)) comments.push(`HTTPie reads "\\" before ":", ";", "@" or "=" as an escape: check the ${h.name} header.`);
    items.push(h.value === '' ? `${escapeKey(h.name)};` : `${escapeKey(h.name)}:${escapeValue(h.value)}`);
  }
  const body = req.body;
  let pipe = '';
  const flags: string[] = [];
  if (body.kind === 'binary' || (body.kind === 'text' && hasControlBytes(body.text))) {
    pipe = `printf %s ${posixQuote(Buffer.from(body.bytes).toString('base64'))} | base64 -d | `;
  } else if (body.kind === 'text' && !fitsArgument(body.text, 'posix')) {
    // Too long for one program argument; printf is built into the shell.
    pipe = `printf %s ${posixQuote(body.text)} | `;
  } else {
    flags.push('--ignore-stdin');
    if (body.kind === 'text') flags.push(`--raw ${posixQuote(body.text)}`);
  }
  if (body.kind === 'multipart') {
    flags.push('--multipart');
    for (const p of body.parts) {
      if (p.file) items.push(`${escapeKey(p.name)}@${p.file.path}${p.contentType ? `;type=${p.contentType}` : ''}`);
      else items.push(`${escapeKey(p.name)}=${escapeValue(p.value ?? '')}`);
    }
  }
  const head = ['http', ...flags, req.method, posixQuote(req.url)].join(' ');
  return commentLines(comments, '#') + pipe + [head, ...items.map(posixQuote)].join(' \\\n  ') + '\n';
}

export const httpie: Target = {
  id: 'httpie/httpie',
  lang: 'httpie',
  lib: 'httpie',
  language: 'HTTPie',
  library: 'HTTPie 3',
  tool: 'HTTPie',
  platform: 'macOS, Linux, Windows',
  fileName: 'request.sh',
  rules: {
    repeatedHeaders: 'keep',
    decompresses: true,
    noBodyWith: ['HEAD'],
    addsHeaders: ['user-agent', 'accept', 'accept-encoding', 'connection'],
  },
  render,
};
