/**
 * The waits of the app's writes for another Ferry process's workspace lock (an import in a
 * terminal), as the server says them on the live channel: `notice` with `lockWaitNotice`'s words
 * when one begins, `lockWaitOver` when it has the lock or gives up, both to the page (tab) whose
 * call waits (api.ts PAGE_ID). Shown at the top of the page and in the open dialog (Modal.tsx),
 * whichever write it is — a request's save, an environment
 * added, renamed or deleted, an import, an update from API spec — until the last wait is over.
 */
import { useSyncExternalStore } from 'react';

let shown: string | null = null;
/** Waits said and not yet over. */
let waits = 0;
const listeners = new Set<() => void>();

function show(message: string | null): void {
  if (shown === message) return;
  shown = message;
  for (const listener of listeners) listener();
}

/** A write began to wait (`message`: who it waits for). */
export function lockWaitSaid(message: string): void {
  waits++;
  show(message);
}

/** A write's wait is over; the line goes with the last. */
export function lockWaitOver(): void {
  waits = Math.max(0, waits - 1);
  if (waits === 0) show(null);
}

/** Closed by hand (the notice's ×), or the live channel dropped (an end it may have missed). */
export function dismissLockWait(): void {
  waits = 0;
  show(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The wait being said, or null. */
export function useLockWait(): string | null {
  return useSyncExternalStore(subscribe, () => shown);
}
