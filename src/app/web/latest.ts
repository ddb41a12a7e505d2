/**
 * Reads of one thing asked again and again (a file changed, traffic came, another item picked):
 * their answers can arrive out of order, and an older one shown last puts back what was true
 * before the newer. Each ask gets a check that says whether it is still the newest; only then is
 * its answer shown (or its failure said).
 */
import { useRef } from 'react';

/** True while no later ask was made. */
export type Newest = () => boolean;

export interface Asks {
  /** Counts an ask (a read, or a change whose answer brings the same thing); check before applying its answer. */
  ask(): Newest;
}

export function useLatest(): Asks {
  const count = useRef(0);
  return useRef<Asks>({
    ask: () => {
      const mine = ++count.current;
      return () => mine === count.current;
    },
  }).current;
}
