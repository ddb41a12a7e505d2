/**
 * Load-test events of the one live channel, handed from App (which owns the channel) to the
 * load panel: the panel subscribes while it is open; events nobody listens to are dropped.
 */
import type { LiveEvent } from '../shared/api.js';

type LoadLiveEvent = Extract<LiveEvent, { type: 'load' }>;
const listeners = new Set<(event: LoadLiveEvent) => void>();

export function publishLoadEvent(event: LoadLiveEvent): void {
  for (const listener of listeners) listener(event);
}

export function onLoadEvent(listener: (event: LoadLiveEvent) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
