/**
 * The server kinds as the servers panel draws them (`GET /api/server-kinds`, asked once per page):
 * the new-server picker, the traffic's direction words, the send's hints and the editor's section
 * hint all come from it, so the page names no server kind.
 */
import { useEffect, useState } from 'react';
import type { ServerKindsView, ServerKindView } from '../shared/api.js';
import { api } from './api.js';

export interface ServerKinds {
  /** Every kind by name. */
  byKind: Record<string, ServerKindView>;
  /** The new-server picker: kinds in its order, and the one picked at first. */
  newServer: { kinds: string[]; picked: string };
  /** The nouns of the kinds that send to clients, for running text: `WebSocket, SSE or relay`. */
  senders: string;
}

let once: Promise<ServerKindsView> | undefined;

const EMPTY: ServerKinds = { byKind: {}, newServer: { kinds: [], picked: '' }, senders: '' };

/** The answer as the panel uses it. */
export function readServerKinds(view: ServerKindsView): ServerKinds {
  const nouns = view.kinds.filter((k) => k.send).map((k) => k.noun);
  return {
    byKind: Object.fromEntries(view.kinds.map((k) => [k.kind, k])),
    newServer: view.newServer,
    senders: nouns.length > 1 ? `${nouns.slice(0, -1).join(', ')} or ${nouns[nouns.length - 1]}` : (nouns[0] ?? ''),
  };
}

/** The server kinds; empty until read (the picker is then empty and the traffic shows no direction words). */
export function useServerKinds(): ServerKinds {
  const [kinds, setKinds] = useState<ServerKinds>(EMPTY);
  useEffect(() => {
    once ??= api.get<ServerKindsView>('/api/server-kinds');
    void once.then((view) => setKinds(readServerKinds(view)), () => (once = undefined));
  }, []);
  return kinds;
}

/** Which way a record went, seen from the server, in the words of its kind (`from client`; the relay's `client → target`). */
export function directionWords(kinds: ServerKinds, kind: string, direction: string): string {
  const words = kinds.byKind[kind]?.directions;
  if (direction === 'in') return words?.in ?? '';
  if (direction === 'out') return words?.out ?? '';
  return '';
}
