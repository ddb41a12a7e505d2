/** The page's only way to the core: JSON calls to `ferry app`'s server (same origin, cookie sent), and the live channel. */
import { PAGE_HEADER, type LiveEvent } from '../shared/api.js';

/**
 * This page's (browser tab's) id, new at each load, named on every call and on joining the live
 * channel: the server says what concerns one call only (its wait for another process's lock) in
 * the tab that made it, not in every open tab.
 */
const PAGE_ID = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

export class ApiFailure extends Error {
  /** The refusal's JSON body: `error` and any details beside it (an editor's line and column). */
  constructor(message: string, readonly body?: unknown) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, {
    // Aborting closes the call's connection: the server's route sees its signal end (a connect in progress stops).
    signal,
    method,
    // Every call that changes something says it is JSON, even without a body (a DELETE): the
    // server refuses others (a plain HTML form cannot set this header).
    headers: method === 'GET' ? { [PAGE_HEADER]: PAGE_ID } : { 'content-type': 'application/json', [PAGE_HEADER]: PAGE_ID },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const text = await response.text();
  if (response.status === 403) throw new ApiFailure('This page is not connected: open the link `ferry app` printed.');
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiFailure(text || `HTTP ${response.status}`);
  }
  if (!response.ok) throw new ApiFailure((value as { error?: string } | null)?.error ?? `HTTP ${response.status}`, value);
  return value as T;
}

/** A download's bytes (GET: the whole body of a send), or its refusal's message. */
export async function bytesOf(path: string): Promise<Uint8Array> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (response.ok) return new Uint8Array(await response.arrayBuffer());
  if (response.status === 403) throw new ApiFailure('This page is not connected: open the link `ferry app` printed.');
  const text = await response.text();
  let message = text || `HTTP ${response.status}`;
  try {
    message = (JSON.parse(text) as { error?: string }).error ?? message;
  } catch {
    // not JSON: the text as it came
  }
  throw new ApiFailure(message);
}

export const api = {
  get: <T>(path: string) => call<T>('GET', path),
  post: <T>(path: string, body: unknown, signal?: AbortSignal) => call<T>('POST', path, body, signal),
  put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
  del: <T>(path: string) => call<T>('DELETE', path),
};

/** Joins the live channel; reconnects after a drop (the server restarting, a laptop waking up). */
export function connectLive(onEvent: (event: LiveEvent) => void, onState: (connected: boolean) => void): () => void {
  let socket: WebSocket | undefined;
  let stopped = false;
  let retry: number | undefined;
  const open = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/live?page=${PAGE_ID}`);
    socket.onopen = () => onState(true);
    socket.onmessage = (message) => onEvent(JSON.parse(String(message.data)) as LiveEvent);
    socket.onclose = () => {
      onState(false);
      if (!stopped) retry = window.setTimeout(open, 1000);
    };
  };
  open();
  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    socket?.close();
  };
}

/** JSON with sorted keys: two values with the same content compare equal whatever their key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
    }
    return v;
  });
}
