/**
 * Bounds on a send's text that scripts and servers choose: a test named after a 2 MB answer, a
 * failure message or a thrown error quoting it. Every report writes each of them (the terminal
 * twice, JUnit twice), for every send of every iteration, so without a bound one script makes a
 * report of gigabytes. Cut once here, after masking, so the reports, the history and the app agree;
 * what is cut says how much more there was, as a cut console line does (scripts/sandbox/console.ts).
 */
import type { RequestResult } from './events.js';

export const RESULT_LIMITS = {
  /** Characters of a test's name (CI lists cases by name: ample for any name a person writes). */
  testName: 1_000,
  /** Characters of a test's failure message, and of the send's error: as much as a console line. */
  message: 10_000,
} as const;

/** `text` cut at `max` characters (not inside a surrogate pair), ending `… (N more characters)`. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/** Cuts the result's test names, test messages and error in place (as masking changes it). */
export function boundResult(r: RequestResult): void {
  for (const t of r.tests) {
    t.name = cutChars(t.name, RESULT_LIMITS.testName);
    if (t.message !== undefined) t.message = cutChars(t.message, RESULT_LIMITS.message);
  }
  if (r.error !== undefined) r.error = cutChars(r.error, RESULT_LIMITS.message);
}
