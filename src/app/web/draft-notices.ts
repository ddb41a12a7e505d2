/**
 * A draft's notices (fields that do nothing, scripts a load test does not run), asked of the
 * app's server once the edits pause: nothing is saved, sent or run. The request editor and the
 * load-test panel each show theirs this way.
 */
import { useEffect, useState } from 'react';
import { api } from './api.js';

/** How long the edits must pause before the notices are asked again. */
const NOTICES_DELAY_MS = 300;

/**
 * The notices `route` gives for `body` (none while `body` is undefined), asked again when any of
 * `deps` changes; only the newest answer is shown, and a draft the server refuses (its Save says
 * why) shows none.
 */
export function useDraftNotices(route: string, body: object | undefined, deps: readonly unknown[]): string[] {
  const [notices, setNotices] = useState<string[]>([]);
  useEffect(() => {
    if (body === undefined) return setNotices([]);
    let current = true;
    const timer = window.setTimeout(() => {
      api.post<{ notices: string[] }>(route, body).then(
        (answer) => { if (current) setNotices(answer.notices); },
        () => { if (current) setNotices([]); },
      );
    }, NOTICES_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `body` is made anew on every render: `deps` say when it really changed.
  }, [route, ...deps]);
  return notices;
}
