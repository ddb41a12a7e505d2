/**
 * A save's answer and what the user typed while it was on its way: one rule for the editors that
 * save on Save (load test, server, variables, folder and workspace settings). The answer says what
 * the file holds now, so it always becomes the editor's base (what "unsaved" and the next save's
 * conflict check compare with); it replaces what the editor shows only when the editor still holds
 * what was sent. Keystrokes made after Save was pressed stay on screen, count as unsaved, and go
 * with the next save: putting the answer back over them lost them without a word.
 * (The request editor saves as the user types and never puts a save's answer into the editor.)
 */
import { useCallback, useRef } from 'react';
import { stableJson } from './api.js';

/** Said beside a save's success when the user typed on while it was on its way. */
export const TYPED_SINCE_SAVE = 'What you typed after pressing Save is not saved yet: Save again to keep it.';

export interface EditorSave<T> {
  /** True while a save is on its way: a read of the file racing it must not replace the editor's content (its answer says what the file holds). */
  readonly saving: { readonly current: boolean };
  /**
   * Sends the editor's content as it is now (`send` builds the request from it); `answered` gets
   * the answer and whether the content moved since it was sent (`typedSince`: keep what is on
   * screen, take the answer only as the base). A refusal is thrown, as `send` threw it.
   */
  save<A>(send: (sent: T) => Promise<A>, answered: (answer: A, typedSince: boolean, sent: T) => void): Promise<A>;
}

/** `content`: everything the editor's Save sends, as rendered now. */
export function useEditorSave<T>(content: T): EditorSave<T> {
  // The content at the answer's time, not at the render that started the save.
  const latest = useRef(content);
  latest.current = content;
  // Counted: a second Save pressed before the first answered keeps it true until both have.
  const inFlight = useRef(0);
  const saving = useRef({ get current() { return inFlight.current > 0; } }).current;
  const save = useCallback(async <A,>(send: (sent: T) => Promise<A>, answered: (answer: A, typedSince: boolean, sent: T) => void): Promise<A> => {
    const sent = latest.current;
    const sentJson = stableJson(sent);
    inFlight.current += 1;
    try {
      const answer = await send(sent);
      answered(answer, stableJson(latest.current) !== sentJson, sent);
      return answer;
    } finally {
      inFlight.current -= 1;
    }
  }, []);
  return { saving, save };
}
