/**
 * The request kinds as the editor draws them (`GET /api/kinds`, asked once per page): the kind
 * box, the method box, the URL's placeholder and the option form all come from it, so the page
 * names no kind. `withKind` is what choosing another kind does to the request.
 */
import { useEffect, useState } from 'react';
import type { FormField, KindView, RequestFile } from '../shared/api.js';
import { api } from './api.js';

let once: Promise<Record<string, KindView>> | undefined;

/** Every kind by name; empty until read (the editor then offers the request's own kind only). */
export function useKinds(): Record<string, KindView> {
  const [all, setAll] = useState<Record<string, KindView>>({});
  useEffect(() => {
    once ??= api.get<Record<string, KindView>>('/api/kinds');
    void once.then(setAll, () => (once = undefined));
  }, []);
  return all;
}

/**
 * The request as another kind: the method follows what the new kind reads it as (an HTTP method
 * kept between HTTP and SSE; a DNS record type, the first of its choices; empty for gRPC until a
 * method is typed or picked; none, the format's default, for the others). The URL stays as typed,
 * and the other kinds' option sections stay in the file (spec 2.11's rule for servers, kept here too).
 */
export function withKind(request: RequestFile, kind: string, kinds: Record<string, KindView>): RequestFile {
  const from = kinds[request.kind];
  const to = kinds[kind];
  if (!to) return { ...request, kind: kind as RequestFile['kind'] };
  const method = to.method === 'http' ? (from?.method === 'http' ? request.method : 'GET')
    : to.method === 'text' ? (to.methodChoices?.[0] ?? '')
    : 'GET';
  return { ...request, kind: kind as RequestFile['kind'], method };
}

/** The URL box's placeholder: the kind's first scheme (`ws://host:port/path`), or the kind's noun for names and commands. */
export function urlPlaceholder(view: KindView | undefined): string {
  if (!view) return 'https://api.example.com/users/:id';
  if (view.url === 'text') return view.schemes.length ? `${view.schemes[0]}://host:port/path, or a command` : 'a name, such as example.com';
  return view.schemes[0] === 'http' && view.method === 'http' ? 'https://api.example.com/users/:id' : `${view.schemes[0]}://host:port${view.schemes[0]!.startsWith('http') || view.schemes[0]!.startsWith('ws') ? '/path' : ''}`;
}

/** The settings' sections (`stream`, `repeat`) as forms draw them; null until read. */
export type SettingsFields = Record<'stream' | 'repeat', FormField[]>;
let settingsOnce: Promise<SettingsFields> | undefined;

export function useSettingsFields(): SettingsFields | null {
  const [fields, setFields] = useState<SettingsFields | null>(null);
  useEffect(() => {
    settingsOnce ??= api.get<SettingsFields>('/api/kinds/settings');
    void settingsOnce.then(setFields, () => (settingsOnce = undefined));
  }, []);
  return fields;
}
