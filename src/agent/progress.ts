/**
 * Progress for a client that asked for it (a `progressToken` in the call's `_meta`):
 * `notifications/progress` while a run goes (requests done of the total, the last one's path and
 * verdict) and while a send reads a stream (messages so far). A client that resets its timeout on
 * progress (the SDK's `resetTimeoutOnProgress`) then waits for a long call as long as it moves.
 * Counts, paths and verdicts only: no URL, message text or value that could hold a secret.
 */
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Reporter } from '../runner/index.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** At most one notification per this many milliseconds, besides the first and the last. */
const EVERY_MS = 250;

/** Sends `progress` (of `total`, when known) with a message; `always` skips the rate limit. */
type Notify = (progress: number, total: number | undefined, message: string, always: boolean) => void;

/** A rate-limited progress sender, or none when the client did not ask for progress. */
function notifier(extra: Extra): Notify | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let sentAt = 0;
  return (progress, total, message, always) => {
    const now = Date.now();
    if (!always && now - sentAt < EVERY_MS) return;
    sentAt = now;
    // The client may be gone; the call's answer says the rest.
    extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken, progress, ...(total !== undefined && total >= progress ? { total } : {}), message },
    }).catch(() => undefined);
  };
}

/** A reporter sending a run's progress, or none when the client did not ask for it. */
export function progressReporter(extra: Extra): Reporter | undefined {
  const notify = notifier(extra);
  if (!notify) return undefined;
  let total = 0;
  let done = 0;
  return {
    onEvent(event) {
      if (event.type === 'start') total = event.requestCount * event.iterations;
      if (event.type !== 'request') return;
      done++;
      const { path, passed, skipped } = event.result;
      const verdict = skipped ? 'skipped' : passed ? 'passed' : 'failed';
      notify(done, total || undefined, `${done} of ${total || '?'}: ${path} ${verdict}`, done === 1 || done === total);
    },
  };
}

/** A send's `onMessage` counting the stream's messages, or none when the client did not ask for progress. */
export function messageProgress(extra: Extra): (() => void) | undefined {
  const notify = notifier(extra);
  if (!notify) return undefined;
  let read = 0;
  return () => {
    read++;
    notify(read, undefined, `${read} message${read === 1 ? '' : 's'} so far`, read === 1);
  };
}
