/** File and folder names from display names (spec 2.1.4–2.1.5). */
import { terminalText } from '../support/terminal-text.js';

/** A display name's most characters (spec 2.1.5): the one declaration, for checks, importers and help. */
export const MAX_NAME_LENGTH = 200;
export const MAX_FILE_NAME_LENGTH = 80;
/**
 * File systems count a name's bytes (ext4: 255 of UTF-8), so 80 characters of emoji (320 bytes)
 * could not be written. 200 leaves room for `.yaml` and the temporary name of an atomic write
 * (`.NAME.yaml.PID.RANDOM.tmp`).
 */
export const MAX_FILE_NAME_BYTES = 200;

// Angle brackets, colon, double quote, slashes, vertical bar, question mark, asterisk, control
// characters (C0, DEL and C1: U+0085, U+009B… would reach a terminal listing the folder), and
// Unicode's bidirectional controls (U+202E and its kin: `‮lmay.exe` shows as `exe.yaml` in a
// listing, a terminal or a diff, the "Trojan Source" trick; Unicode calls them Bidi_Control).
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;

/** Why a display name is not allowed, or undefined when it is fine. */
export function checkDisplayName(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return `A name cannot be empty; give a name of 1 to ${MAX_NAME_LENGTH} characters.`;
  if ([...name].length > MAX_NAME_LENGTH) {
    return `A name can have at most ${MAX_NAME_LENGTH} characters; this one has ${[...name].length}.`;
  }
  return undefined;
}

/**
 * What a name Ferry writes may not hold (`checkNewDisplayName`): control characters (C0, DEL, C1)
 * and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which act on the
 * terminal or the page that shows the name (`\r` writes over a line, ESC starts a sequence,
 * U+202E shows what follows reversed). The marks U+200E, U+200F and U+061C stay: right-to-left
 * text needs them, and they reorder nothing else.
 */
const NOT_IN_NEW_NAMES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Why a name given now (created, renamed: the command line, the app, the agent) is not allowed,
 * or undefined when it is fine: `checkDisplayName`'s rules, and no character of NOT_IN_NEW_NAMES.
 * A name read from a file may hold them (a hand edit, an import): it is read as it is, and shown
 * escaped (support/terminal-text.ts).
 */
export function checkNewDisplayName(name: unknown): string | undefined {
  const problem = checkDisplayName(name);
  if (problem) return problem;
  const found = NOT_IN_NEW_NAMES.exec(name as string);
  if (!found) return undefined;
  const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  const position = [...(name as string).slice(0, found.index)].length + 1;
  // Shown escaped, line feeds and tabs too (terminalText keeps those, for messages of several lines).
  const shown = terminalText(name as string).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return `A name cannot hold control characters or bidirectional overrides (they act on the terminal or page that shows it): "${shown}" has U+${code} at character ${position}. Remove it, or type a space in its place.`;
}

/**
 * The base file name (no extension) for a display name, before making it unique among siblings.
 * A display name that leaves no file name (`..`, `.`, only spaces, `_folder`) gives `fallback`'s
 * instead: the importer's `get-users-id` for an operation, or the file's own name when a saved
 * request is renamed or moved, so it never turns into `untitled`. Without one it is `untitled`.
 */
export function baseFileName(displayName: string, fallback?: string): string {
  return fileNameFrom(displayName) ?? (fallback === undefined ? undefined : fileNameFrom(fallback)) ?? 'untitled';
}

/** The file name `displayName` gives (spec 2.1.4), or undefined when it gives none. */
function fileNameFrom(displayName: string): string | undefined {
  let name = displayName.replace(FORBIDDEN, '-');
  name = name.replace(/^\.+/, '');
  // A name starting with `-` reads as an option to any command given it (`ferry run -rf`, `rm *` in
  // that folder), so `_` goes first (`_-rf`). Files named so before are read and run as they are.
  if (name.startsWith('-')) name = `_${name}`;
  name = cutToLength(name, MAX_FILE_NAME_LENGTH, MAX_FILE_NAME_BYTES);
  name = name.replace(/[. ]+$/, '');
  // `_FOLDER.yaml` is `_folder.yaml` on a case-insensitive disk, and the reader matches it in any case.
  if (name === '' || name.toLowerCase() === '_folder') return undefined;
  // A device name stays reserved with any extension (`NUL.txt`, `CON .txt`), so the `_` goes
  // right after the device part: `NUL_.txt`.
  const stem = name.split('.')[0]!.trimEnd();
  if (DEVICE_NAMES.test(stem)) name = `${stem}_${name.slice(stem.length)}`;
  return name;
}

/** Cuts to `max` characters and `maxBytes` of UTF-8, by code points so a surrogate pair is never split. */
function cutToLength(name: string, max: number, maxBytes: number): string {
  const chars = [...name];
  if (chars.length <= max && Buffer.byteLength(name) <= maxBytes) return name;
  let bytes = 0;
  let end = 0;
  while (end < chars.length && end < max && bytes + Buffer.byteLength(chars[end]!) <= maxBytes) bytes += Buffer.byteLength(chars[end++]!);
  return chars.slice(0, end).join('');
}

/**
 * What two sibling file names are compared by: names equal here are one file on the disks of
 * Windows and macOS, which ignore case, and on macOS's, which also ignore Unicode normalization
 * (`Café` written with `é` or with `e` + a combining accent). The names themselves are kept as given.
 */
export function fileNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * A file name for `displayName` that no sibling has, compared by `fileNameKey` (case and Unicode
 * normalization ignored). `taken` holds the siblings' base names (without extension). Suffixes go
 * `Name 2`, `Name 3`…; `fallback` as for `baseFileName`.
 */
export function uniqueFileName(displayName: string, taken: Iterable<string>, fallback?: string): string {
  const used = new Set([...taken].map(fileNameKey));
  const base = baseFileName(displayName, fallback);
  if (!used.has(fileNameKey(base))) return base;
  for (let n = 2; ; n++) {
    const candidate = withSuffix(base, n);
    if (!used.has(fileNameKey(candidate))) return candidate;
  }
}

/** `base` with the suffix ` n`: cut to leave room for it (characters and bytes), trailing dots and spaces dropped. */
export function withSuffix(base: string, n: number): string {
  const suffix = ` ${n}`;
  return cutToLength(base, MAX_FILE_NAME_LENGTH - suffix.length, MAX_FILE_NAME_BYTES - suffix.length).replace(/[. ]+$/, '') + suffix;
}
