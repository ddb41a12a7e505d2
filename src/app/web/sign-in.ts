/**
 * The OAuth 2.0 authorization code grant in the app: while a call (a Get token or a send, by its
 * id) waits for the browser to come back to the loopback redirect, the server publishes the
 * provider's sign-in page as an `authorize` live event. App hands the events here; the view of
 * the waiting call opens the page in a new window and shows it as a link too (a browser that
 * blocked the window still lets the user open it), with Cancel.
 */
import type { LiveEvent } from '../shared/api.js';

type AuthorizeEvent = Extract<LiveEvent, { type: 'authorize' }>;
const waiting = new Map<string, (url: string) => void>();

export function publishAuthorizeEvent(event: AuthorizeEvent): void {
  waiting.get(event.id)?.(event.url);
}

/** Calls `listener` with the sign-in page of call `id`; returns the way to stop. */
export function onSignIn(id: string, listener: (url: string) => void): () => void {
  waiting.set(id, listener);
  return () => void waiting.delete(id);
}

/** Opens the provider's sign-in page in a new window, which cannot reach back into the app. */
export function openSignIn(url: string): void {
  const opened = window.open(url, '_blank');
  if (opened) opened.opener = null;
}

/** An id for a call the page may hear about on the live channel (a send, a run, a Get token). */
export function newId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
