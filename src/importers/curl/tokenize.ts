/**
 * Finds the curl command in pasted or saved text: picks the shell dialect, splits the text into
 * commands and words, and returns the first curl command's arguments.
 */
import { ImportError } from '../types.js';
import { tokenizePosix } from './tokenize-posix.js';
import { tokenizeCmd, tokenizePowerShell } from './tokenize-windows.js';

export type ShellDialect = 'posix' | 'cmd' | 'powershell';

export interface ShellCommand {
  words: string[];
  /** Redirects as written (`<file`, `<<DATA`, `>out`); their targets are never curl arguments. */
  redirects: string[];
  /** What ended the command: a line end, `;`, `&&`, `|` …, or '' at the end of the text. */
  separator: string;
  /** Windows shells: the command names variables the shell would expand (kept as written). */
  expands?: boolean;
}

export interface CurlCommandLine {
  /** The arguments after `curl`. */
  args: string[];
  dialect: ShellDialect;
  redirects: string[];
  /** True when the curl command reads standard input from a pipe. */
  pipedInto: boolean;
  /** How many commands came after the one imported. */
  laterCommands: number;
  /** Windows shells: variables (`%NAME%`, `$env:NAME`, `$name`) the shell would have filled in. */
  expands: boolean;
}

/**
 * Chooses the dialect from what only that shell would write: a PowerShell prompt or backtick
 * continuation; a caret continuation, a word quoted with `^"` or a `REM` line (cmd, as browsers and
 * Ferry's own Copy as cURL (cmd) write it, even after `curl.exe`); else `curl.exe` means PowerShell. A `^`
 * elsewhere is no sign of cmd: POSIX commands carry it in quoted data (`'{"re":"^a"}'`).
 */
export function detectDialect(text: string): ShellDialect {
  if (/`\r?\n/.test(text) || /^\s*PS [^>\n]*>/.test(text)) return 'powershell';
  if (/\^\r?\n/.test(text) || /(^|\s)\^"/.test(text) || /^[ \t]*@?rem[ \t]/im.test(text)) return 'cmd';
  if (/(^|\s)curl\.exe(\s|$)/i.test(text)) return 'powershell';
  return 'posix';
}

function stripPrompt(text: string): string {
  // A leading shell prompt copied along with the command: `$ curl …`, `PS C:\> curl …`, `> curl …`.
  return text.replace(/^\uFEFF/, '').replace(/^(\s*)(?:\$|PS [^>\n]*>|>)[ \t]+(?=\S)/, '$1');
}

export function tokenize(text: string, dialect: ShellDialect): ShellCommand[] {
  if (dialect === 'cmd') return tokenizeCmd(text);
  if (dialect === 'powershell') return tokenizePowerShell(text);
  return tokenizePosix(text);
}

const CURL_NAME = /^(?:.*[\\/])?curl(?:\.exe)?$/i;

/** Returns the first curl command in the text, or throws an ImportError saying what was found instead. */
export function findCurlCommand(text: string, dialect?: ShellDialect): CurlCommandLine {
  const cleaned = stripPrompt(text);
  const chosen = dialect ?? detectDialect(cleaned);
  const commands = tokenize(cleaned, chosen);
  for (let index = 0; index < commands.length; index++) {
    const { words, redirects, expands } = commands[index]!;
    let start = 0;
    // Skip `VAR=value` assignments and a leading `sudo`/`command` in front of curl.
    while (start < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!) || /^(sudo|command|exec|time)$/.test(words[start]!))) start++;
    if (start < words.length && CURL_NAME.test(words[start]!)) {
      const previous = commands[index - 1];
      return {
        args: words.slice(start + 1),
        dialect: chosen,
        redirects,
        pipedInto: previous?.separator === '|',
        laterCommands: commands.length - index - 1,
        expands: expands === true,
      };
    }
  }
  const first = commands[0]?.words[0];
  throw new ImportError(
    first === undefined
      ? 'The text holds no command. Paste a curl command such as: curl https://example.com'
      : `This is not a curl command (it starts with "${first.slice(0, 40)}"). Paste a command that starts with curl.`,
  );
}
