/** String literals for programming languages. Each returns a complete literal, quotes included. */

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}
function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

const COMMON: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function isControl(cp: number): boolean {
  return cp < 0x20 || cp === 0x7f;
}

const hexByte = (cp: number) => '\\x' + hex2(cp);
const unicode4 = (cp: number) => '\\u' + hex4(cp);
const unicodeBraced = (cp: number) => `\\u{${cp.toString(16)}}`;

/**
 * A double-quoted literal: backslash, quote, \\n, \\r, \\t escaped; `special` characters (a
 * language's interpolation sign) escaped with a backslash; other control characters through
 * `control`. Everything else is written as is (the sources are UTF-8).
 */
function doubleQuoted(value: string, control: (cp: number) => string, special = ''): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    out += COMMON[ch] ?? (special.includes(ch) ? '\\' + ch : isControl(cp) ? control(cp) : ch);
  }
  return out + '"';
}

/** JavaScript and TypeScript: double-quoted, valid in every engine. */
export function jsString(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029').replace(/\u007f/g, '\\u007f');
}

/** Python 3 (source is UTF-8). */
export function pythonString(value: string): string {
  return doubleQuoted(value, hexByte);
}

/** Go interpreted string literal (UTF-8 source). */
export function goString(value: string): string {
  return doubleQuoted(value, hexByte);
}

/**
 * Java: ASCII only, because `java Main.java` reads the source in the platform charset
 * before Java 18. Control characters use octal escapes: a \\u escape of a line break
 * would end the literal, since Java decodes \\u escapes before it reads the code.
 */
export function javaString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    const cu = value.charCodeAt(i);
    if (COMMON[ch]) out += COMMON[ch];
    else if (isControl(cu)) out += '\\' + cu.toString(8).padStart(3, '0');
    else if (cu > 0x7e) out += '\\u' + hex4(cu);
    else out += ch;
  }
  return out + '"';
}

/** Kotlin: `$` starts a template. */
export function kotlinString(value: string): string {
  return doubleQuoted(value, unicode4, '$');
}

/** Swift. */
export function swiftString(value: string): string {
  return doubleQuoted(value, unicodeBraced);
}

/** C# regular literal (\\x is variable-length in C#, so \\u). */
export function csharpString(value: string): string {
  return doubleQuoted(value, unicode4);
}

/** PHP double-quoted: `$` interpolates. */
export function phpString(value: string): string {
  return doubleQuoted(value, hexByte, '$');
}

/** Ruby double-quoted: `#` may start `#{`, `#$`, `#@` interpolation. */
export function rubyString(value: string): string {
  return doubleQuoted(value, hexByte, '#');
}

/** Rust string literal. */
export function rustString(value: string): string {
  return doubleQuoted(value, unicodeBraced);
}

/** Rust byte string: printable ASCII as is, every other byte as \\xNN. */
export function rustBytes(bytes: Uint8Array): string {
  let out = 'b"';
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x22) out += '\\"';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += '\\x' + hex2(b);
  }
  return out + '"';
}

/** Dart: `$` interpolates. */
export function dartString(value: string): string {
  return doubleQuoted(value, hexByte, '$');
}

/**
 * C: the UTF-8 bytes, ASCII-only source. Other bytes as three-digit octal escapes (a hex
 * escape would swallow following hex digits); `?` escaped against trigraphs.
 */
export function cBytes(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    if (b === 0x5c || b === 0x22) out += '\\' + ch;
    else if (b === 0x3f) out += '\\?';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b >= 0x20 && b < 0x7f) out += ch;
    else out += '\\' + b.toString(8).padStart(3, '0');
  }
  return out + '"';
}

export function cString(value: string): string {
  return cBytes(Buffer.from(value, 'utf8'));
}

/** Comment text is one line of printable characters: nothing in it can end the comment or the line. */
export function commentText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ').replace(/\*\//g, '* /');
}

/** Comment lines with a marker (`#`, `//`, `REM`). */
export function commentLines(comments: string[], marker: string): string {
  return comments.map((c) => `${marker} ${commentText(c)}\n`).join('');
}
