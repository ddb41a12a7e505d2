/**
 * The wait of one of this page's writes for another Ferry process's workspace lock (an import in
 * a terminal), as the server says it on the live channel (`lockWaitNotice`): shown at the top of
 * the page and in the open dialog (Modal.tsx), whichever write it is — a request's save, an
 * environment added, renamed or deleted, an import, an update from API spec. It goes when the
 * page's writes in flight are over (api.ts): done, or refused (409) with their own message.
 */
import { useSyncExternalStore } from 'react';

let shown: string | null = null;
/** The page's calls that change something, not answered yet: a wait is said only while one is. */
let writing = 0;
const listeners = new Set<() => void>();

function show(message: string | null): void {
  if (shown === message) return;
  shown = message;
  for (const listener of listeners) listener();
}

/** The server said a write waits (`message`): shown while one of this page's writes is in flight (another tab's is not this page's to show). */
export function lockWaitSaid(message: string): void {
  if (writing > 0) show(message);
}

/** Closed by hand (the notice's ×). */
export function dismissLockWait(): void {
  show(null);
}

/** A write call begins; returns its end. The wait is said until the last one in flight ends. */
export function writeBegins(): () => void {
  writing++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--writing === 0) show(null);
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The wait being said, or null. */
export function useLockWait(): string | null {
  return useSyncExternalStore(subscribe, () => shown);
}
