/** DNS text in zone-file form (RFC 1035 5.1), shared by the DNS client's answers and the DNS server's traffic: strings, names, type names. */
import { isUtf8 } from 'node:buffer';

/**
 * A character-string as a zone file writes it between its quotes (RFC 1035 5.1), as kdig does:
 * `"` and `\` escaped, bytes that are not printable (controls, and those outside a UTF-8
 * sequence) as `\DDD`; UTF-8 letters stay letters, where kdig escapes them too.
 */
export function characterString(bytes: Buffer): string {
  return zoneText(bytes, stringByte);
}

/** A byte of a character-string that is not part of a UTF-8 letter, as kdig writes it. */
function stringByte(byte: number): string {
  if (byte === 0x22 || byte === 0x5c) return `\\${String.fromCharCode(byte)}`;
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : decimalEscape(byte);
}

/** `bytes` as zone-file text: UTF-8 letters as they are, any other byte as `escape` writes it. */
function zoneText(bytes: Buffer, escape: (byte: number) => string): string {
  let text = '';
  for (let i = 0; i < bytes.length; ) {
    const letter = utf8Letter(bytes, i);
    if (letter !== undefined) {
      text += letter.text;
      i += letter.length;
    } else {
      text += escape(bytes[i]!);
      i++;
    }
  }
  return text;
}

/** `\DDD`: a byte as its three decimal digits. */
function decimalEscape(byte: number): string {
  return `\\${String(byte).padStart(3, '0')}`;
}

/** The UTF-8 character (beyond ASCII, not a C1 control) starting at `i`, or undefined. */
function utf8Letter(bytes: Buffer, i: number): { text: string; length: number } | undefined {
  const byte = bytes[i]!;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 ? 2 : 1;
  const sequence = bytes.subarray(i, i + length);
  if (length === 1 || sequence.length !== length || !isUtf8(sequence) || (byte === 0xc2 && sequence[1]! < 0xa0)) return undefined;
  return { text: sequence.toString('utf8'), length };
}

/**
 * A name from its labels as kdig writes one (Knot's dname_to_str): letters, digits and `-_*\/`
 * as they are; other printable ASCII but `#` after a backslash (`\.` a dot inside a label,
 * `\;`); any other byte as `\DDD` (`\032` a space, `\255`); UTF-8 letters stay letters, as in
 * character-strings. Without the final dot (the root alone is `.`), as names are typed in Ferry.
 */
export function nameText(labels: readonly Buffer[]): string {
  if (labels.length === 0) return '.';
  return labels.map((label) => zoneText(label, labelByte)).join('.');
}

/** A byte of a label that is not part of a UTF-8 letter, as kdig writes it (nameText). */
function labelByte(byte: number): string {
  const char = String.fromCharCode(byte);
  if (/[A-Za-z0-9\-_*/]/.test(char)) return char;
  return byte > 0x20 && byte < 0x7f && char !== '#' ? `\\${char}` : decimalEscape(byte);
}

/** Types dns-packet has no name for, named as dig and kdig name them; CAA (257) when it went as its bytes. */
const NAMED_TYPES: Record<string, string> = { UNKNOWN_64: 'SVCB', UNKNOWN_65: 'HTTPS', UNKNOWN_257: 'CAA' };

/**
 * A record type as people read it: dns-packet's name (`A`, `MX`), else `SVCB`/`HTTPS` (browsers
 * ask for HTTPS with every name), else `TYPE4242` as RFC 3597 writes an unknown type, not
 * dns-packet's `UNKNOWN_4242`.
 */
export function typeName(type: unknown): string {
  const name = String(type ?? '');
  return NAMED_TYPES[name] ?? name.replace(/^UNKNOWN_(\d+)$/, 'TYPE$1');
}

/** The reverse, as dns-packet writes a type: `HTTPS` and `TYPE65` are `UNKNOWN_65`; other names as they are. */
export function wireTypeName(name: string): string {
  const named = Object.entries(NAMED_TYPES).find(([, n]) => n === name && n !== 'CAA')?.[0];
  const numbered = /^TYPE(\d{1,5})$/.exec(name);
  return named ?? (numbered ? `UNKNOWN_${Number(numbered[1])}` : name);
}
