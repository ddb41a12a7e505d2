/**
 * A regular expression taken from a file that may be hostile (a workspace arrives through git),
 * run so that it cannot hold the process: V8 cannot interrupt a backtracking RegExp, and
 * `(a+)+$` against `aaaa…b` would stall `ferry serve` or a load generator for hours.
 *
 * The pattern is JavaScript syntax, checked by `new RegExp` as before. One RE2 can express with
 * the same meaning runs on re2js, in time linear in the text. The others — backreferences,
 * lookaround, escapes RE2 reads otherwise — run on V8's engine under its watchdog, and a match
 * that takes longer than `BOUNDED_REGEX_LIMIT_MS` throws `RegexTimeLimitError`.
 */
import { RE2JS } from 're2js';
import { isWatchdogTimeout, runWatched } from './watchdog.js';

/** How long one match of a pattern RE2 cannot run may take. */
export const BOUNDED_REGEX_LIMIT_MS = 1000;

export class RegexTimeLimitError extends Error {
  constructor(readonly textLength: number) {
    super(`the regular expression took longer than ${BOUNDED_REGEX_LIMIT_MS / 1000} s on a text of ${textLength} characters and was stopped (it backtracks: nested quantifiers such as (a+)+ with a backreference or lookaround); simplify it`);
  }
}

export interface BoundedRegex {
  /** The match and its groups (undefined for a group that took no part), or null. */
  exec(text: string): Array<string | undefined> | null;
  test(text: string): boolean;
  /** True when it runs on the linear-time engine. */
  readonly linear: boolean;
}

/**
 * Compiles `source` with `flags` (`u`, `i` or none). A pattern that is not valid JavaScript throws
 * the SyntaxError `new RegExp` throws.
 */
export function boundedRegex(source: string, flags = ''): BoundedRegex {
  const native = new RegExp(source, flags);
  return linearRegex(source, flags) ?? watchedRegex(native);
}

function linearRegex(source: string, flags: string): BoundedRegex | undefined {
  if (!/^(?:u?i?|i?u?)$/.test(flags)) return undefined;
  const translated = re2Source(source, flags.includes('u'));
  if (translated === undefined) return undefined;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(translated), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return undefined;
  }
  return {
    linear: true,
    exec(text) {
      const m = compiled.matcher(text);
      if (!m.find()) return null;
      const out: Array<string | undefined> = [];
      for (let i = 0; i <= m.groupCount(); i++) out.push(m.group(i) ?? undefined);
      return out;
    },
    test: (text) => compiled.matcher(text).find(),
  };
}

function watchedRegex(native: RegExp): BoundedRegex {
  const run = <T>(text: string, body: () => T): T => {
    try {
      return runWatched(body, BOUNDED_REGEX_LIMIT_MS);
    } catch (error) {
      if (isWatchdogTimeout(error)) throw new RegexTimeLimitError(text.length);
      throw error;
    }
  };
  return {
    linear: false,
    exec: (text) => {
      const found = run(text, () => native.exec(text));
      return found ? [...found] : null;
    },
    test: (text) => run(text, () => native.test(text)),
  };
}

/** What JavaScript's `\s` matches (RE2's is ASCII only). */
const JS_SPACE = '\\t\\n\\x0b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** What JavaScript's `.` matches without the `s` flag (RE2's takes `\r` and the line separators too). */
const JS_DOT = '[^\\n\\r\\u2028\\u2029]';
/** Escapes of letters RE2 reads as JavaScript does; any other (`\A`, `\z`, `\Q`, `\1`…) keeps the pattern on V8. */
const SAME_LETTER_ESCAPES = new Set(['d', 'D', 'w', 'W', 'b', 'B', 'f', 'n', 'r', 't', 'v', 'c', 'x', 'u']);

/**
 * The pattern in RE2's reading with JavaScript's meaning (`.` and `\s` spelt out), or undefined
 * when a part of it may mean something else to RE2: it then runs on V8.
 */
function re2Source(source: string, unicode: boolean): string | undefined {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined) return undefined;
      i++;
      if (next === 's') {
        out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      } else if (next === 'S') {
        if (inClass) return undefined;
        out += `[^${JS_SPACE}]`;
      } else if (next === '0') {
        if (/[0-9]/.test(source[i + 1] ?? '')) return undefined;
        out += '\\0';
      } else if (/[A-Za-z0-9]/.test(next)) {
        if (!SAME_LETTER_ESCAPES.has(next) && !(unicode && (next === 'p' || next === 'P'))) return undefined;
        if (next === 'b' && inClass) return undefined;
        // `\x{41}` and (without the u flag) `\u{41}` are repeats of a letter to JavaScript.
        if ((next === 'x' || (next === 'u' && !unicode)) && source[i + 1] === '{') return undefined;
        out += `\\${next}`;
      } else {
        out += `\\${next}`;
      }
    } else if (inClass) {
      if (ch === '[' && source[i + 1] === ':') return undefined;
      if (ch === ']') inClass = false;
      out += ch;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
      if (source.startsWith('^]', i + 1)) {
        // `[^]`: any character (re2js's translation knows it).
        out += '^]';
        i += 2;
        inClass = false;
        continue;
      }
      if (source[i + 1] === '^') out += source[++i];
      // `[]`: a class that matches nothing to JavaScript, the start of a class holding `]` to RE2.
      if (source[i + 1] === ']') return undefined;
    } else if (ch === '.') {
      out += JS_DOT;
    } else {
      out += ch;
    }
  }
  return out;
}
