/**
 * Tokenizers for Windows: the command prompt (cmd.exe, as browsers' "Copy as cURL (cmd)" writes
 * it) and PowerShell. Nothing is expanded: `%VAR%` and `$var` stay as written, and the command
 * is marked so the import can say so.
 */
import type { ShellCommand } from './tokenize.js';
import { unbalanced } from './tokenize-posix.js';
import { CommandBuilder } from './command-builder.js';

/**
 * cmd.exe: `^` escapes the next character outside quotes (a `^` at the end of a line continues
 * it), `&`, `|`, `<`, `>` outside quotes are operators. The resulting line is then split into
 * arguments by the C runtime's rules, which is what curl.exe sees: `"` quotes, `\"` is a literal
 * quote, and `""` inside quotes is a literal quote.
 */
export function tokenizeCmd(input: string): ShellCommand[] {
  const out = new CommandBuilder();
  let line = '';
  let inQuote = false;
  let quoteStart = 0;
  const flush = (separator: string) => {
    for (const word of splitWindowsArgs(line)) out.addWord(word);
    out.endCommand(separator);
    line = '';
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\r') continue;
    // `REM …` and `:: …` lines are comments (Copy as cURL (cmd) writes REM lines); quotes, `&` and
    // `|` in them mean nothing.
    if (line === '' && (i === 0 || input[i - 1] === '\n')) {
      const eol = input.indexOf('\n', i);
      if (CMD_COMMENT.test(input.slice(i, eol < 0 ? input.length : eol))) {
        if (eol < 0) break;
        i = eol;
        continue;
      }
    }
    if (c === '^' && !inQuote) {
      const next = input[i + 1];
      const afterBreak = next === '\r' && input[i + 2] === '\n' ? i + 3 : next === '\n' ? i + 2 : -1;
      if (afterBreak >= 0) {
        // A caret at a line end continues the line and escapes the next character; when that is
        // another line end, it is a line break inside the argument (`^` and two newlines).
        const lf = input[afterBreak] === '\r' && input[afterBreak + 1] === '\n' ? afterBreak + 1 : afterBreak;
        if (input[lf] === '\n') { line += '\n'; i = lf; } else i = afterBreak - 1;
        continue;
      }
      if (next !== undefined) {
        // An escaped quote is still a quote for curl.exe's own argument splitting, but does not
        // start a cmd quote. Other escaped characters are literal.
        line += next;
        i++;
      }
      continue;
    }
    if (c === '"') {
      inQuote = !inQuote;
      if (inQuote) quoteStart = i;
      line += c;
      continue;
    }
    // cmd.exe fills %NAME% in everywhere, quotes or not (browsers write %^NAME% to prevent it).
    if (c === '%' && CMD_VARIABLE.test(input.slice(i, i + 256))) out.markExpansion();
    if (c === '\n') {
      if (inQuote) throw unbalanced(input, quoteStart, '"');
      flush('\n');
      continue;
    }
    if (!inQuote && (c === '&' || c === '|')) {
      const op = input[i + 1] === c ? c + c : c;
      i += op.length - 1;
      flush(op);
      continue;
    }
    if (!inQuote && (c === '<' || c === '>')) {
      let j = i + 1;
      while (input[j] === ' ') j++;
      let k = j;
      while (k < input.length && !/[\s&|<>]/.test(input[k]!)) k++;
      out.addRedirect(c + input.slice(j, k));
      i = k - 1;
      continue;
    }
    line += c;
  }
  if (inQuote) throw unbalanced(input, quoteStart, '"');
  flush('');
  return out.commands;
}

const CMD_COMMENT = /^[ \t]*@?(?:rem(?:[ \t]|\r?$)|::)/i;

// Not `%E2%`: percent-encoded bytes in URLs look like names of two hex digits.
const CMD_VARIABLE = /^%(?![0-9A-Fa-f]{2}%)[A-Za-z_][A-Za-z0-9_]*%/;

/** The Microsoft C runtime's argument splitting (CommandLineToArgvW rules). */
export function splitWindowsArgs(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inArg = false;
  let inQuote = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      let n = 0;
      while (line[i + n] === '\\') n++;
      if (line[i + n] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) current += '"';
        else inQuote = !inQuote;
        i += n;
      } else {
        current += '\\'.repeat(n);
        i += n - 1;
      }
      inArg = true;
      continue;
    }
    if (c === '"') {
      if (inQuote && line[i + 1] === '"') { current += '"'; i++; }
      else inQuote = !inQuote;
      inArg = true;
      continue;
    }
    if ((c === ' ' || c === '\t') && !inQuote) {
      if (inArg) args.push(current);
      current = '';
      inArg = false;
      continue;
    }
    current += c;
    inArg = true;
  }
  if (inArg) args.push(current);
  return args;
}

const PS_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b' };

/**
 * PowerShell: a backtick escapes the next character (at a line end it continues the line);
 * '…' is literal with '' for a quote; "…" knows backtick escapes and "" for a quote; `#` starts
 * a comment; `;`, `|`, `&&`, `||` and line ends separate commands.
 */
export function tokenizePowerShell(input: string): ShellCommand[] {
  const out = new CommandBuilder();
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '`') {
      i = out.escapeAt(input, i);
      continue;
    }
    if (c === "'" || c === '\u2018' || c === '\u2019') {
      const { text, end } = readPsSingleQuoted(input, i);
      out.append(text);
      i = end;
      continue;
    }
    if (c === '"') {
      const { text, end, expands } = readPsDoubleQuoted(input, i);
      if (expands) out.markExpansion();
      out.append(text);
      i = end;
      continue;
    }
    if (c === '#' && !out.inWord) {
      const eol = input.indexOf('\n', i);
      i = eol < 0 ? input.length : eol;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') { out.endWord(); i++; continue; }
    if (c === '\n' || c === ';') { out.endCommand(c); i++; continue; }
    if (c === '|' || (c === '&' && input[i + 1] === '&')) {
      const op = input[i + 1] === c ? c + c : c;
      out.endCommand(op);
      i += op.length;
      continue;
    }
    if ((c === '<' || c === '>') && !out.inWord) {
      let j = i + 1;
      while (input[j] === ' ') j++;
      let k = j;
      while (k < input.length && !/[\s;|]/.test(input[k]!)) k++;
      out.addRedirect(c + input.slice(j, k));
      i = k;
      continue;
    }
    if (c === '$' && PS_VARIABLE.test(input.slice(i, i + 2))) out.markExpansion();
    out.append(c);
    i++;
  }
  out.endCommand('');
  return out.commands;
}

/** `$name`, `$env:NAME`, `${…}` or `$(…)`: what PowerShell fills in outside single quotes. */
const PS_VARIABLE = /^\$[A-Za-z_{(]/;

/** '…' from the quote at `start`: literal, with a doubled quote for one (typographic quotes count too). */
function readPsSingleQuoted(input: string, start: number): { text: string; end: number } {
  let j = start + 1;
  let text = '';
  for (;;) {
    if (j >= input.length) throw unbalanced(input, start, "'");
    const d = input[j]!;
    if (d === "'" || d === '\u2018' || d === '\u2019') {
      if (input[j + 1] === d) { text += "'"; j += 2; continue; }
      break;
    }
    text += d;
    j++;
  }
  return { text, end: j + 1 };
}

/** "…" from the quote at `start`: backtick escapes, a backtick at a line end continues, "" for a quote. */
function readPsDoubleQuoted(input: string, start: number): { text: string; end: number; expands: boolean } {
  let j = start + 1;
  let text = '';
  let expands = false;
  for (;;) {
    if (j >= input.length) throw unbalanced(input, start, '"');
    const d = input[j]!;
    if (d === '`') {
      const e = input[j + 1] ?? '';
      if (e === '\n') { j += 2; continue; }
      text += PS_ESCAPES[e] ?? e;
      j += 2;
      continue;
    }
    if (d === '"') {
      if (input[j + 1] === '"') { text += '"'; j += 2; continue; }
      break;
    }
    if (d === '$' && PS_VARIABLE.test(input.slice(j, j + 2))) expands = true;
    text += d;
    j++;
  }
  return { text, end: j + 1, expands };
}
