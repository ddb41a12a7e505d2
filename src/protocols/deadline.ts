/** The whole-request timer and the caller's cancel signal, for all hops of one send. */
import { SendError, TIMEOUT_SETTING } from './send-error.js';

export class Deadline {
  error: SendError | undefined;
  private abortCurrent: ((reason: Error) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => this.fire(new SendError('the request was cancelled.', 'other'));

  constructor(timeoutMs: number, private readonly signal?: AbortSignal) {
    if (timeoutMs > 0) this.timer = setTimeout(() => this.fire(new SendError(`timed out after ${timeoutMs} ms ${TIMEOUT_SETTING}; no complete response by then.`, 'timeout')), timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (signal?.aborted) this.onAbort();
  }

  private fire(error: SendError): void {
    if (this.error) return;
    this.error = error;
    this.abortCurrent?.(error);
  }

  /** Registers the abort function of the exchange in flight; aborts it at once when already expired. */
  attach(abort: (reason: Error) => void): void {
    this.abortCurrent = abort;
    if (this.error) abort(this.error);
  }

  /** Ends the time limit but keeps listening for cancel: a stream reader sets its own limit. */
  stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  clear(): void {
    this.stopTimer();
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
