/** Quoting for shells: POSIX sh (bash, zsh), Windows cmd, PowerShell. */

/** Text a shell argument cannot carry exactly (NUL and other control bytes); such bodies go through Base64. */
export function hasControlBytes(text: string): boolean {
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

/** Text a PowerShell verbatim string carries exactly as pasted: no control characters but tab and line feed. */
export function powershellSafe(text: string): boolean {
  return !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text);
}

/**
 * Longest text written as one argument of a command. A longer one stops the program from starting:
 * Linux takes at most 128 KiB per argument ("Argument list too long"), macOS 1 MiB for all of them,
 * cmd.exe 8191 characters per command line, Windows 32767 per program start. Longer bodies go
 * through standard input or a temporary file.
 */
const ARGUMENT_LIMIT = { posix: 64 * 1024, cmd: 4000, powershell: 16000 };

export function fitsArgument(text: string, shell: keyof typeof ARGUMENT_LIMIT): boolean {
  return (shell === 'posix' ? Buffer.byteLength(text, 'utf8') : text.length) <= ARGUMENT_LIMIT[shell];
}

/**
 * Longest whole command (characters): cmd.exe reads at most 8191 per command line ("The command
 * line is too long."); Windows starts a program with at most 32767 ("The filename or extension is
 * too long."), which is what PowerShell hands curl.exe. A body past ARGUMENT_LIMIT leaves the
 * command line, but headers and the URL cannot: a command still longer is only said to be so.
 */
export const COMMAND_LIMIT = { cmd: 8191, powershell: 32767 };

/** What a command over its shell's limit says about itself (comment lines, without markers), else nothing. */
export function commandLengthNotes(length: number, shell: keyof typeof COMMAND_LIMIT): string[] {
  const limit = COMMAND_LIMIT[shell];
  if (length <= limit) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  return shell === 'cmd'
    ? [
        `This command is ${n(length)} characters long; cmd.exe runs at most ${n(limit)} per command line and stops with "The command line is too long."`,
        'Its headers or URL are too long for cmd: copy it for PowerShell (curl.exe) instead, or send the request from Ferry.',
      ]
    : [
        `This command is ${n(length)} characters long; Windows starts a program with at most ${n(limit)}, so curl.exe will not start ("The filename or extension is too long.").`,
        'Its headers or URL are too long for a Windows command: send the request from Ferry, or put the headers in a curl config file (curl.exe -K file).',
      ];
}

const POSIX_BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One POSIX shell word: bare when safe, else '…', or $'…' when it holds control characters. */
export function posixQuote(value: string): string {
  if (POSIX_BARE.test(value)) return value;
  if (!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value)) return `'${value.replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + "'";
}

/** How the Microsoft C runtime splits a command line into argv: backslashes only matter before a quote. */
function crtQuote(value: string): string {
  let out = '"';
  let backslashes = 0;
  for (const ch of value) {
    if (ch === '\\') backslashes++;
    else if (ch === '"') {
      out += '\\'.repeat(backslashes * 2 + 1) + '"';
      backslashes = 0;
    } else {
      out += '\\'.repeat(backslashes) + ch;
      backslashes = 0;
    }
  }
  return out + '\\'.repeat(backslashes * 2) + '"';
}

/**
 * One argument for a command pasted into cmd.exe. The argument is quoted for the C runtime,
 * then every character cmd treats specially is escaped with `^`, quotes included, so cmd
 * never enters its own quoted mode and every caret works. A `%` is followed by `^` so that
 * `%NAME%` is never expanded: the variable looked up is `^NAME`, which does not exist, and
 * the caret then disappears.
 * Newlines become `^` + two newlines. Control characters and non-ASCII are not handled here:
 * callers send such bodies through a temporary file.
 */
export function cmdQuote(value: string): string {
  if (/^[A-Za-z0-9_\-.:/]+$/.test(value)) return value;
  const crt = crtQuote(value);
  let out = '';
  let afterPercent = false;
  for (const ch of crt) {
    if (ch === '\n') {
      out += '^\n\n';
    } else if (/[\^&|<>"()!]/.test(ch)) {
      out += '^' + ch;
    } else {
      out += afterPercent ? '^' + ch : ch;
    }
    afterPercent = ch === '%';
  }
  return out;
}

/** True when a value can be written on a cmd.exe command line exactly (printable ASCII and newlines). */
export function cmdSafe(value: string): boolean {
  return /^[\u0020-\u007e\n]*$/.test(value);
}

/**
 * A command argument in PowerShell: a plain word as it is, else a verbatim string. Only for
 * argument mode (`-Uri https://…`); in an expression (a method argument, a hashtable entry) a
 * bare word would run as a command, so use `powershellString` there.
 */
export function powershellQuote(value: string): string {
  if (/^[A-Za-z0-9_\-.:/]+$/.test(value) && !value.startsWith('-')) return value;
  return powershellString(value);
}

/** A PowerShell verbatim string: nothing expands; quotes (including the typographic ones PowerShell also accepts) are doubled. */
export function powershellString(value: string): string {
  return `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}
