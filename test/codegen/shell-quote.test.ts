/**
 * Shell quoting checked by real shells: bash (and zsh where installed) read each quoted
 * word back, for random and hostile strings.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cmdQuote, posixQuote, powershellQuote } from '../../src/codegen/quote/shell.js';
import { HOSTILE_TEXT } from './fixtures.js';
import { missingToolchainsFail } from './runners.js';

function shellAvailable(shell: string): boolean {
  try {
    execFileSync(shell, ['-c', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One shell run for many words: each is printed NUL-terminated, then compared. */
function readBack(shell: string, words: string[]): string[] {
  const script = words.map((w) => `printf '%s\\0' ${posixQuote(w)}`).join('\n');
  const out = execFileSync(shell, ['-c', script], { maxBuffer: 64 * 1024 * 1024 });
  return out.toString('utf8').split('\0').slice(0, -1);
}

const HOSTILE = [
  HOSTILE_TEXT,
  '',
  "'",
  "''\\''",
  '$(touch /tmp/ferry-pwned)',
  '`id`',
  '\\',
  'a\nb\r\nc\td\u001b[31m\u0007',
  '\u007f',
  '!history',
  '日本 🚀 \u2028',
];

// The target is bash / zsh ($'...' is not POSIX sh). In CI both must be there (.ci/install-peers.sh).
test.runIf(missingToolchainsFail())('bash and zsh are installed', () => {
  expect(['bash', 'zsh'].filter((shell) => !shellAvailable(shell))).toEqual([]);
});

describe.each(['bash', 'zsh'].filter(shellAvailable))('posixQuote read back by %s', (shell) => {
  test('hostile words', () => {
    expect(readBack(shell, HOSTILE)).toEqual(HOSTILE);
  });

  test('random words', () => {
    const words = fc.sample(fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/\0/g, '')), { numRuns: 300, seed: 7 });
    expect(readBack(shell, words)).toEqual(words);
  });
});

/** The Microsoft C runtime's argv rules, to check the inner layer of cmdQuote. */
function crtParse(arg: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < arg.length; i++) {
    let backslashes = 0;
    while (arg[i] === '\\') {
      backslashes++;
      i++;
    }
    if (arg[i] === '"') {
      out += '\\'.repeat(Math.floor(backslashes / 2));
      if (backslashes % 2) out += '"';
      else quoted = !quoted;
    } else {
      out += '\\'.repeat(backslashes);
      if (i < arg.length) out += arg[i];
    }
  }
  expect(quoted).toBe(false);
  return out;
}

/** cmd.exe's caret phase on a line with no quoted regions (every quote is escaped). */
function cmdCarets(line: string): string {
  return line.replace(/\^\n\n/g, '\n').replace(/\^(.)/gs, '$1');
}

describe('cmdQuote', () => {
  test('carets then the C runtime give back the value', () => {
    const values = [...HOSTILE.filter((v) => /^[\u0020-\u007e\n]*$/.test(v)), 'C:\\dir\\', 'a\\"b', '%PATH%', '%%', 'x^y', '"'];
    for (const v of values) expect(crtParse(cmdCarets(cmdQuote(v)))).toBe(v);
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...' a"\\%^&|<>()!\n'.split('')), maxLength: 30 }), (v) => crtParse(cmdCarets(cmdQuote(v))) === v));
  });

  test('no variable reference survives: every % is followed by a caret', () => {
    expect(cmdQuote('%PATH% %USERPROFILE%')).not.toMatch(/%[A-Za-z]/);
  });
});

describe('powershellQuote', () => {
  test('doubles every kind of single quote PowerShell accepts', () => {
    expect(powershellQuote("it's ‘x’ ‚y‛")).toBe("'it''s ‘‘x’’ ‚‚y‛‛'");
    expect(powershellQuote('$env:HOME `n')).toBe("'$env:HOME `n'");
  });
});
