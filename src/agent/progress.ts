/**
 * Progress of a run for a client that asked for it (a `progressToken` in the call's `_meta`):
 * `notifications/progress` with the requests done, the total, and the last one's path and
 * verdict. A client that resets its timeout on progress (the SDK's `resetTimeoutOnProgress`)
 * then waits for a long run as long as it moves. Paths and verdicts only: no URL or value that
 * could hold a secret.
 */
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Reporter } from '../runner/index.js';

/** At most one notification per this many milliseconds, besides the first and the last. */
const EVERY_MS = 250;

/** A reporter sending the run's progress, or none when the client did not ask for it. */
export function progressReporter(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Reporter | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let total = 0;
  let done = 0;
  let sentAt = 0;
  return {
    onEvent(event) {
      if (event.type === 'start') total = event.requestCount * event.iterations;
      if (event.type !== 'request') return;
      done++;
      const now = Date.now();
      if (done !== 1 && done !== total && now - sentAt < EVERY_MS) return;
      sentAt = now;
      const { path, passed, skipped } = event.result;
      const verdict = skipped ? 'skipped' : passed ? 'passed' : 'failed';
      // The client may be gone; the run's answer says the rest.
      extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: done, ...(total >= done ? { total } : {}), message: `${done} of ${total || '?'}: ${path} ${verdict}` },
      }).catch(() => undefined);
    },
  };
}
