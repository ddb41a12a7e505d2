import type { CodeRequest } from '../normalize.js';
import type { LibraryRules, Target } from '../target.js';
import { cmdQuote, cmdSafe, commandLengthNotes, fitsArgument, hasControlBytes, posixQuote, powershellQuote, powershellSafe, powershellString } from '../quote/shell.js';
import { commentLines } from '../quote/literals.js';

export const curlRules: LibraryRules = {
  repeatedHeaders: 'keep',
  decompresses: false,
  noBodyWith: ['HEAD'],
  noLengthWithoutBody: true,
  addsHeaders: ['user-agent', 'accept'],
};

type Shell = 'posix' | 'cmd' | 'powershell';

/** A quoted form field value for -F: inside double quotes curl reads \\ and \\" as escapes. */
function formQuoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => '\\' + c)}"`;
}

/** curl's arguments after the URL, as [option, value?] pairs; `@BODY` marks a body file the shell provides. */
function curlOptions(req: CodeRequest, bodyFile: string | undefined): [string, string?][] {
  const opts: [string, string?][] = [];
  for (const h of req.headers) opts.push(['-H', h.value === '' ? `${h.name};` : `${h.name}: ${h.value}`]);
  const body = req.body;
  if (body.kind === 'text' && bodyFile === undefined) opts.push(['--data-raw', body.text]);
  else if (body.kind === 'text' || body.kind === 'binary') opts.push(['--data-binary', `@${bodyFile}`]);
  else if (body.kind === 'multipart') {
    for (const p of body.parts) {
      if (p.file) {
        const type = p.contentType ? `;type=${p.contentType}` : '';
        opts.push(['-F', `${p.name}=@${formQuoted(p.file.path)}${type}`]);
      } else if (p.contentType) opts.push(['-F', `${p.name}=${formQuoted(p.value ?? '')};type=${p.contentType}`]);
      else opts.push(['--form-string', `${p.name}=${p.value ?? ''}`]);
    }
  }
  return opts;
}

function methodOptions(req: CodeRequest): string[] {
  const method = req.method;
  const hasBody = req.body.kind !== 'none';
  if (method === 'HEAD') return ['--head'];
  if ((method === 'GET' && !hasBody) || (method === 'POST' && hasBody)) return [];
  return ['-X', method];
}

/** Whether this shell must take the body from a file (bytes its command line cannot carry). */
function needsBodyFile(req: CodeRequest, shell: Shell): boolean {
  if (req.body.kind === 'binary') return true;
  if (req.body.kind !== 'text') return false;
  if (!fitsArgument(req.body.text, shell)) return true;
  if (shell === 'cmd') return !cmdSafe(req.body.text);
  if (shell === 'powershell') return !powershellSafe(req.body.text);
  return hasControlBytes(req.body.text);
}

function renderCurl(req: CodeRequest, shell: Shell): string {
  const quote = shell === 'posix' ? posixQuote : shell === 'cmd' ? cmdQuote : powershellQuote;
  const marker = shell === 'cmd' ? 'REM' : '#';
  const continuation = shell === 'posix' ? ' \\\n  ' : shell === 'cmd' ? ' ^\n  ' : ' `\n  ';
  const bodyBytes = req.body.kind === 'binary' ? req.body.bytes : req.body.kind === 'text' ? req.body.bytes : undefined;
  const base64 = bodyBytes ? Buffer.from(bodyBytes).toString('base64') : '';
  const viaFile = needsBodyFile(req, shell);
  let prelude = '';
  let pipe = '';
  let bodyFile: string | undefined;
  const why = req.body.kind === 'binary' ? 'The body is binary' : 'The command line cannot carry this body as it is, for its length or its characters';
  if (viaFile && shell === 'posix') {
    // printf is built into the shell, so a long text body is no program argument; it stays readable.
    const text = req.body.kind === 'text' && !hasControlBytes(req.body.text) ? req.body.text : undefined;
    pipe = text !== undefined ? `printf %s ${posixQuote(text)} | ` : `printf %s ${posixQuote(base64)} | base64 -d | `;
    bodyFile = '-';
  } else if (viaFile && shell === 'cmd') {
    const lines = base64.match(/.{1,76}/g) ?? [''];
    prelude =
      `REM ${why}: decode it from Base64 into a temporary file.\n` +
      `(\n${lines.map((l) => `  echo ${l}`).join('\n')}\n) > "%TEMP%\\ferry-body.b64"\n` +
      'certutil -f -decode "%TEMP%\\ferry-body.b64" "%TEMP%\\ferry-body.bin" >nul\n';
    bodyFile = '%TEMP%\\ferry-body.bin';
  } else if (viaFile && shell === 'powershell') {
    prelude =
      `# ${why}: decode it from Base64 into a temporary file.\n` +
      `$bodyFile = Join-Path ([IO.Path]::GetTempPath()) 'ferry-body.bin'\n` +
      `[IO.File]::WriteAllBytes($bodyFile, [Convert]::FromBase64String(${powershellString(base64)}))\n`;
    bodyFile = '$bodyFile';
  }
  const words: string[] = [shell === 'posix' ? 'curl' : 'curl.exe'];
  const methodWords = methodOptions(req);
  // curl reads [ ] in a URL as a glob range (`?ids[0]=1` fails, `?r=[1-2]` sends two requests);
  // --globoff sends the URL as written. ({ } are percent-encoded in the URL already.)
  const globoff = /[[\]]/.test(req.url) ? ['--globoff'] : [];
  const first = [...methodWords.map((w) => (w.startsWith('-') ? w : quote(w))), ...globoff, quote(req.url)].join(' ');
  const parts = [`${words[0]} ${first}`];
  for (const [opt, value] of curlOptions(req, bodyFile)) {
    if (value === undefined) parts.push(opt);
    else if (bodyFile && value === `@${bodyFile}`) {
      parts.push(`${opt} ${shell === 'powershell' ? `"@$bodyFile"` : shell === 'cmd' ? `"@${bodyFile}"` : '@-'}`);
    } else parts.push(`${opt} ${quote(value)}`);
  }
  const command = parts.join(continuation);
  // The command as the shell reads it (line continuations joined): over its limit, the code says so.
  const notes = shell === 'posix' ? [] : commandLengthNotes(command.replace(shell === 'cmd' ? /\^\n/g : /`\n/g, '').length, shell);
  return commentLines([...req.comments, ...notes], marker) + prelude + pipe + command + '\n';
}

function curlTarget(lib: string, library: string, shell: Shell, platform: string, fileName: string): Target {
  return {
    id: `curl/${lib}`,
    lang: 'curl',
    lib,
    language: 'cURL',
    library,
    tool: 'curl',
    platform,
    fileName,
    rules: curlRules,
    render: (req) => renderCurl(req, shell),
  };
}

export const curlBash = curlTarget('bash', 'bash / zsh', 'posix', 'macOS, Linux', 'request.sh');
export const curlCmd = curlTarget('cmd', 'Windows cmd', 'cmd', 'Windows', 'request.cmd');
export const curlPowershell = curlTarget('powershell', 'PowerShell (curl.exe)', 'powershell', 'Windows', 'request.ps1');
