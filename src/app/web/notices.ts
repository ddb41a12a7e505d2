/**
 * The page's notices: several stand at once, each closed by its own ×, so a second never hides the
 * first (a save refused for an empty name, then a delete refused; a damaged data file set aside,
 * which the server says only once). `setNotice` keeps the one-notice shape its callers use:
 * a text is added below those shown (one with the same text is not said twice; a save's
 * "Not saved: …" takes the place of the one before, being that save's newer word), null clears
 * them all, and an updater is asked of each notice shown (null takes it away).
 */
import type { SetStateAction } from 'react';

/** At most this many at once: the oldest go first. */
const MAX_NOTICES = 5;

const NOT_SAVED = 'Not saved:';

export function noticesAfter(shown: readonly string[], action: SetStateAction<string | null>): string[] {
  if (typeof action === 'function') {
    const next = shown.map((notice) => action(notice)).filter((notice): notice is string => notice !== null);
    return next.filter((notice, i) => next.indexOf(notice) === i);
  }
  if (action === null) return [];
  const kept = shown.filter((notice) => notice !== action && !(notice.startsWith(NOT_SAVED) && action.startsWith(NOT_SAVED)));
  return [...kept, action].slice(-MAX_NOTICES);
}
