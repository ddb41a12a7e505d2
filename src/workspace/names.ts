/** File and folder names from display names (spec 2.1.4–2.1.5). */

export const MAX_NAME_LENGTH = 200;
export const MAX_FILE_NAME_LENGTH = 80;

// Angle brackets, colon, double quote, slashes, vertical bar, question mark, asterisk, control characters.
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;

/** Why a display name is not allowed, or undefined when it is fine. */
export function checkDisplayName(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'A name cannot be empty.';
  if ([...name].length > MAX_NAME_LENGTH) {
    return `A name can have at most ${MAX_NAME_LENGTH} characters; this one has ${[...name].length}.`;
  }
  return undefined;
}

/** The base file name (no extension) for a display name, before making it unique among siblings. */
export function baseFileName(displayName: string): string {
  let name = displayName.replace(FORBIDDEN, '-');
  name = name.replace(/^\.+/, '');
  name = cutToLength(name, MAX_FILE_NAME_LENGTH);
  name = name.replace(/[. ]+$/, '');
  if (name === '') name = 'untitled';
  // `_FOLDER.yaml` is `_folder.yaml` on a case-insensitive disk, and the reader matches it in any case.
  if (name.toLowerCase() === '_folder') name = 'untitled';
  // A device name stays reserved with any extension (`NUL.txt`, `CON .txt`), so the `_` goes
  // right after the device part: `NUL_.txt`.
  const stem = name.split('.')[0]!.trimEnd();
  if (DEVICE_NAMES.test(stem)) name = `${stem}_${name.slice(stem.length)}`;
  return name;
}

/** Cuts by code points so a surrogate pair is never split. */
function cutToLength(name: string, max: number): string {
  const chars = [...name];
  return chars.length <= max ? name : chars.slice(0, max).join('');
}

/**
 * A file name for `displayName` that no sibling has, compared case-insensitively.
 * `taken` holds the siblings' base names (without extension). Suffixes go `Name 2`, `Name 3`…
 */
export function uniqueFileName(displayName: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((n) => n.toLowerCase()));
  const base = baseFileName(displayName);
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`;
    const stem = cutToLength(base, MAX_FILE_NAME_LENGTH - suffix.length).replace(/[. ]+$/, '');
    const candidate = `${stem}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
