/** The bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), as a regex class's inside: shared with the traffic line (servers/format.ts). */
export const BIDI_CONTROLS = '\u202a-\u202e\u2066-\u2069';

/**
 * Text that came from outside (a server's answer through a script, a workspace file, an import)
 * made safe to print on a terminal: control characters would otherwise act there. An ESC starts
 * sequences that set the window title, clear the screen, recolour or hide text, or (on some
 * terminals) write the clipboard; a carriage return overwrites a line with a fake one; bidi
 * overrides reorder what is shown. Each is shown as an escape (`\x1b`, `\r`, `\u202e`) instead.
 * Line feeds and tabs stay: messages have several lines.
 */
const UNSAFE_CLASS = `[\u0000-\u0008\u000b-\u001f\u007f-\u009f${BIDI_CONTROLS}]`;
const UNSAFE = new RegExp(UNSAFE_CLASS, 'g');

export function terminalText(text: string): string {
  return text.replace(UNSAFE, escapedChar);
}

/**
 * Text for one line (a name, a URL, a status): as `terminalText`, and a line feed shown as `\n`
 * too, so a name holding `\n✓ passed` cannot print a line of its own.
 */
export function terminalLine(text: string): string {
  return terminalText(text).replace(/\n/g, '\\n');
}

/**
 * One character written as its escape: `\r`, `\n`, `\t`, `\x1b` for the other C0 controls, else
 * `\u009b`, `\u202e`. JSON printed on a terminal (`ferry run -r json`, `--json`) holds no raw C0
 * (JSON escapes them) but may hold DEL, C1 and bidi characters: as `\u…` they stay valid JSON of
 * the same text, where `\x9b` would not be JSON at all.
 */
export function escapedChar(ch: string): string {
  if (ch === '\r') return '\\r';
  if (ch === '\n') return '\\n';
  if (ch === '\t') return '\\t';
  const code = ch.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The colour sequences Ferry itself writes (picocolors: `ESC [ 32 m`); only these pass `terminalOutput`. */
const COLOUR_OR_UNSAFE = new RegExp(`\x1b\\[[0-9;]*m|${UNSAFE_CLASS}`, 'g');

/**
 * The last guard before a terminal, for whole lines a command built: like `terminalText`, but
 * colour sequences are kept (Ferry's own; one smuggled in a name can only recolour text).
 */
export function terminalOutput(text: string): string {
  return text.replace(COLOUR_OR_UNSAFE, (match) => (match.length > 1 ? match : terminalText(match)));
}

/** A value as a command line takes it: in double quotes when the shell would split it (`-e "Staging EU"`). */
export function commandArg(value: string): string {
  return /^[\w.-]+$/.test(value) ? value : `"${value}"`;
}
