/** Waits a kind's file may ask for (`delayMs`, `intervalMs`), bounded by what a timer can hold. */
import { MAX_TIMER_MS } from '../../model/index.js';
import { ServerError } from '../errors.js';

/** Refuses a `delayMs` / `intervalMs` a timer cannot hold, instead of answering at once. */
export function checkWait(ms: number, field: string, file: string): void {
  if (ms > MAX_TIMER_MS) {
    throw new ServerError(`${file}: ${field}: ${ms} ms is longer than a server can wait; give at most ${MAX_TIMER_MS} (about 24 days).`);
  }
}
