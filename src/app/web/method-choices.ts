/** The method box's choices for a kind that has its own (DNS record types), asked of the app once per page. */
import { useEffect, useState } from 'react';
import { api } from './api.js';

let once: Promise<Record<string, string[]>> | undefined;

export function useMethodChoices(kind: string): string[] | undefined {
  const [all, setAll] = useState<Record<string, string[]>>({});
  useEffect(() => {
    once ??= api.get<Record<string, string[]>>('/api/kinds/methods');
    void once.then(setAll, () => undefined);
  }, []);
  return all[kind];
}
