/**
 * Splits a command line written for a POSIX shell (bash, zsh, sh) into commands and words, the
 * way the shell would before running curl: quoting ('…', "…", $'…'), backslash escapes and line
 * continuations, comments, and the operators that end a command. Nothing is expanded: `$VAR`
 * stays as written, because an import cannot know the value.
 */
import { ImportError } from '../types.js';
import type { ShellCommand } from './tokenize.js';
import { CommandBuilder } from './command-builder.js';

const OPERATOR_CHARS = new Set([';', '&', '|', '<', '>', '(', ')']);
const BLANK = new Set([' ', '\t', '\r']);

export function tokenizePosix(input: string): ShellCommand[] {
  const out = new CommandBuilder();
  let pendingHeredoc: string | undefined;
  let i = 0;

  while (i < input.length) {
    const c = input[i]!;
    if (c === '\\') {
      i = out.escapeAt(input, i);
      continue;
    }
    if (c === "'") {
      const end = input.indexOf("'", i + 1);
      if (end < 0) throw unbalanced(input, i, "'");
      out.append(input.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    if (c === '$' && input[i + 1] === "'") {
      const { text, end } = readAnsiC(input, i + 2);
      out.append(text);
      i = end;
      continue;
    }
    if (c === '"' || (c === '$' && input[i + 1] === '"')) {
      const start = c === '$' ? i + 1 : i;
      const { text, end } = readDoubleQuoted(input, start);
      out.append(text);
      i = end;
      continue;
    }
    if (c === '#' && !out.inWord) {
      const eol = input.indexOf('\n', i);
      i = eol < 0 ? input.length : eol;
      continue;
    }
    if (BLANK.has(c)) { out.endWord(); i++; continue; }
    if (c === '\n') {
      out.endCommand('\n');
      i++;
      if (pendingHeredoc !== undefined) {
        i = skipHeredoc(input, i, pendingHeredoc);
        pendingHeredoc = undefined;
      }
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      // A redirect directly after digits (2>&1) belongs to the redirect, not to the word.
      let op = c;
      while (i + op.length < input.length && OPERATOR_CHARS.has(input[i + op.length]!) && op.length < 3) {
        const candidate = op + input[i + op.length]!;
        if (!/^(&&|\|\||<<<?|>>|>&|<&|&>|>\||\|&)$/.test(candidate)) break;
        op = candidate;
      }
      if (op.startsWith('<') || op.startsWith('>') || op === '&>' || op === '>&') {
        if (/^\d+$/.test(out.word) && out.inWord) out.discardWord(); else out.endWord();
        i += op.length;
        // The redirect's target is the next word; keep it aside so it is never read as a curl argument.
        while (i < input.length && BLANK.has(input[i]!)) i++;
        const target = readBareWord(input, i);
        i = target.end;
        if (op === '<<') pendingHeredoc = target.text.replace(/^-/, '').replace(/^['"]|['"]$/g, '');
        out.addRedirect(op + target.text);
        continue;
      }
      out.endCommand(op);
      i += op.length;
      continue;
    }
    out.append(c);
    i++;
  }
  out.endCommand('');
  return out.commands;
}

/** A redirect target, read with the same quoting rules but without ending at operators inside quotes. */
function readBareWord(input: string, start: number): { text: string; end: number } {
  let i = start;
  let text = '';
  while (i < input.length) {
    const c = input[i]!;
    if (BLANK.has(c) || c === '\n' || c === ';' || c === '|' || c === '&') break;
    if (c === "'") {
      const end = input.indexOf("'", i + 1);
      if (end < 0) throw unbalanced(input, i, "'");
      text += input.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const r = readDoubleQuoted(input, i);
      text += r.text;
      i = r.end;
    } else if (c === '\\' && i + 1 < input.length) {
      text += input[i + 1];
      i += 2;
    } else {
      text += c;
      i++;
    }
  }
  return { text, end: i };
}

function skipHeredoc(input: string, start: number, delimiter: string): number {
  let i = start;
  while (i < input.length) {
    const eol = input.indexOf('\n', i);
    const line = input.slice(i, eol < 0 ? input.length : eol).replace(/\r$/, '');
    i = eol < 0 ? input.length : eol + 1;
    if (line.trim() === delimiter) break;
  }
  return i;
}

function readDoubleQuoted(input: string, start: number): { text: string; end: number } {
  let text = '';
  let i = start + 1;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '"') return { text, end: i + 1 };
    if (c === '\\') {
      const next = input[i + 1];
      if (next === '\n') { i += 2; continue; }
      if (next === '$' || next === '`' || next === '"' || next === '\\') { text += next; i += 2; continue; }
      text += c;
      i++;
      continue;
    }
    text += c;
    i++;
  }
  throw unbalanced(input, start, '"');
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/**
 * bash's $'…' quoting: C escapes, including \xHH, \uHHHH, \UHHHHHHHH, octal and \cX. \xHH and
 * octal escapes are bytes: `$'caf\xc3\xa9'` is the UTF-8 of "café". Bytes that are not UTF-8
 * (`$'\xe9'`, as Firefox writes é) are read as Latin-1 characters.
 */
function readAnsiC(input: string, start: number): { text: string; end: number } {
  let text = '';
  let bytes: number[] = [];
  const flushBytes = () => {
    if (bytes.length === 0) return;
    const raw = Uint8Array.from(bytes);
    try {
      text += new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      text += String.fromCharCode(...raw);
    }
    bytes = [];
  };
  const add = (chars: string) => {
    flushBytes();
    text += chars;
  };
  let i = start;
  while (i < input.length) {
    const c = input[i]!;
    if (c === "'") {
      flushBytes();
      return { text, end: i + 1 };
    }
    if (c !== '\\') { add(c); i++; continue; }
    const e = input[i + 1];
    if (e === undefined) break;
    if (e in SIMPLE_ESCAPES) { add(SIMPLE_ESCAPES[e]!); i += 2; continue; }
    const hex = (max: number) => {
      const m = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(input.slice(i + 2, i + 2 + max));
      return m ? m[0] : '';
    };
    if (e === 'x' || e === 'u' || e === 'U') {
      const digits = hex(e === 'x' ? 2 : e === 'u' ? 4 : 8);
      if (!digits) { add('\\' + e); i += 2; continue; }
      const code = parseInt(digits, 16);
      if (e === 'x') bytes.push(code);
      else add(String.fromCodePoint(Math.min(code, 0x10ffff)));
      i += 2 + digits.length;
      continue;
    }
    if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(input.slice(i + 1, i + 4))!;
      bytes.push(parseInt(m[0], 8) & 0xff);
      i += 1 + m[0].length;
      continue;
    }
    if (e === 'c' && i + 2 < input.length) {
      add(String.fromCharCode(input.charCodeAt(i + 2) & 0x1f));
      i += 3;
      continue;
    }
    add('\\' + e);
    i += 2;
  }
  throw unbalanced(input, start - 2, "$'");
}

export function unbalanced(input: string, at: number, quote: string): ImportError {
  const before = input.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return new ImportError(
    `The cURL command has an unbalanced quote: the ${quote} at line ${line}, column ${column} is never closed. Check that the command was copied whole.`,
  );
}
