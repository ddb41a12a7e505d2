import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseFileName, checkDisplayName, uniqueFileName } from '../../src/workspace/index.js';

const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f]/;
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;

/** Device names and `_folder` in any case, with extensions, dots and spaces around: rare in random text. */
const nearDeviceName = fc
  .tuple(
    fc.constantFrom('.', ' ', ''),
    fc.constantFrom('CON', 'prn', 'Aux', 'nul', 'COM1', 'lpt9', 'com²', 'CONIN$', '_folder', '_FOLDER'),
    fc.constantFrom('', '.', ' ', ' .', '.txt', ' .txt', '.tar.gz', '. .'),
  )
  .map(([before, name, after]) => `${before}${name}${after}`);

describe('file names from display names (2.1.4)', () => {
  it.each([
    ['Get user', 'Get user'],
    ['a/b\\c:d*e?f"g<h>i|j', 'a-b-c-d-e-f-g-h-i-j'],
    ['...hidden', 'hidden'],
    ['trailing. . ', 'trailing'],
    ['CON', 'CON_'],
    ['nul', 'nul_'],
    ['com1', 'com1_'],
    ['_folder', 'untitled'],
    ['_FOLDER', 'untitled'],
    ['CON.txt', 'CON_.txt'],
    ['nul.tar.gz', 'nul_.tar.gz'],
    ['Com1 .x', 'Com1_ .x'],
    ['CONOUT$', 'CONOUT$_'],
    ['tab\there', 'tab-here'],
    ['x'.repeat(100), 'x'.repeat(80)],
    ['é'.repeat(90), 'é'.repeat(80)],
    // 80 characters, but at most 200 bytes of UTF-8: 50 emoji of 4 bytes.
    ['😀'.repeat(100), '😀'.repeat(50)],
    ['c1\u0085x\u009by\u0080', 'c1-x-y-'],
    // Bidirectional controls: a listing would show `\u202eevil.exe` reversed.
    ['\u202eexe.yaml', '_-exe.yaml'],
    ['a\u2066b\u2069c\u200fd\u061ce', 'a-b-c-d-e'],
    // A leading `-` would read as an option (`ferry run -rf`, `rm *.yaml` in that folder): `_` goes before it.
    ['-rf', '_-rf'],
    ['--help', '_--help'],
    ['...-x', '_-x'],
    ['/etc', '_-etc'],
    ['a-b', 'a-b'],
    ['-'.repeat(100), `_${'-'.repeat(79)}`],
  ])('%j becomes %j', (name, expected) => {
    expect(baseFileName(name)).toBe(expected);
  });

  it.each([
    ['..', 'get-users-id'],
    ['.', 'get-users-id'],
    [' . . ', 'get-users-id'],
    ['_FOLDER', 'get-users-id'],
    ['Get user', 'Get user'],
    ['CON', 'CON_'],
  ])('%j with a fallback becomes %j; a fallback that makes no name either gives untitled', (name, expected) => {
    expect(baseFileName(name, 'get-users-id')).toBe(expected);
    expect(baseFileName('..', '_folder')).toBe('untitled');
    expect(uniqueFileName(name, ['get-users-id', 'Get user', 'CON_'], 'get-users-id')).toBe(`${expected} 2`);
  });

  it('adds 2, 3… when the name is taken, case-insensitively', () => {
    expect(uniqueFileName('Users', ['users'])).toBe('Users 2');
    // The suffix fits within the byte limit too.
    expect(uniqueFileName('😀'.repeat(100), ['😀'.repeat(50)])).toBe(`${'😀'.repeat(49)} 2`);
    expect(uniqueFileName('Users', ['users', 'USERS 2'])).toBe('Users 3');
  });

  it('a name that differs from a taken one only by Unicode normalization is taken too (macOS disks treat them as one file)', () => {
    const composed = 'Caf\u00e9'; // é as one code point (NFC)
    const decomposed = 'Cafe\u0301'; // e + combining acute (NFD)
    expect(uniqueFileName(decomposed, [composed])).toBe(`${decomposed} 2`);
    expect(uniqueFileName(composed, [decomposed.toUpperCase()])).toBe(`${composed} 2`);
    expect(uniqueFileName(composed, [decomposed, `${decomposed} 2`])).toBe(`${composed} 3`);
  });

  it('refuses empty names and names over 200 characters', () => {
    expect(checkDisplayName('')).toBe('A name cannot be empty; give a name of 1 to 200 characters.');
    expect(checkDisplayName('   ')).toBe('A name cannot be empty; give a name of 1 to 200 characters.');
    expect(checkDisplayName('a'.repeat(201))).toMatch(/at most 200 characters; this one has 201/);
    expect(checkDisplayName('a'.repeat(200))).toBeUndefined();
  });

  it('property: never a forbidden character, trailing dot or space, over 80, or a device name; unique among siblings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), nearDeviceName), fc.array(fc.string({ maxLength: 90 }), { maxLength: 20 }), (name, siblings) => {
        const taken = siblings.map((sibling) => baseFileName(sibling));
        const result = uniqueFileName(name, taken);
        expect(result).not.toMatch(FORBIDDEN);
        expect(result).not.toMatch(/[. ]$/);
        expect(result.startsWith('.')).toBe(false);
        expect(result.startsWith('-')).toBe(false);
        expect([...result].length).toBeLessThanOrEqual(80);
        expect(Buffer.byteLength(result)).toBeLessThanOrEqual(200);
        expect(result.length).toBeGreaterThan(0);
        expect(DEVICE.test(result.split('.')[0]!.trimEnd())).toBe(false);
        expect(result.toLowerCase()).not.toBe('_folder');
        expect(taken.map((t) => t.toLowerCase())).not.toContain(result.toLowerCase());
      }),
      { numRuns: 2000 },
    );
  });
});
