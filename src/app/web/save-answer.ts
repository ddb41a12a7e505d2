/**
 * A save's answer and what the user typed while it was on its way: one rule for the editors that
 * save on Save (load test, server, variables, folder and workspace settings; Application settings
 * for each setting). The answer says what the file holds now, so it always becomes the editor's
 * base (what "unsaved" and the next save's conflict check compare with); it replaces what the
 * editor shows only when the editor still holds what was sent. Keystrokes made after Save was
 * pressed stay on screen, count as unsaved, and go with the next save: putting the answer back
 * over them lost them without a word.
 *
 * One save at a time: Save pressed again (a second click, Ctrl+S twice) while one is on its way
 * sends nothing then. When that save has answered, what the editor holds goes in one more save if
 * it changed since the first was sent, built on the first's answer (its file version as the base,
 * so it is not refused as a conflict; its id, after a rename); if it did not change, nothing more
 * is sent. Two writes in flight at once both carried the same base, so the second was refused as
 * a conflict with the first, or, for an unchanged editor, wrote the file twice.
 * (The request editor saves as the user types and never puts a save's answer into the editor.)
 */
import { useRef } from 'react';
import { stableJson } from './api.js';

/** Said beside a save's success when the user typed on while it was on its way. */
export const TYPED_SINCE_SAVE = 'What you typed after pressing Save is not saved yet: Save again to keep it.';

/**
 * Sends `sent`, the editor's content as it is now. `after`: the answer of the save this one
 * follows (Save pressed while that one was on its way), whose file version is the base to send
 * and whose id is where the file is now; undefined for a save of its own (the editor's base).
 */
export type SaveSend<T, A> = (sent: T, after: A | undefined) => Promise<A>;

/**
 * Gets the answer of the save that sent `sent`. `typedSince`: the content moved since it was
 * sent (keep what is on screen, take the answer only as the base). `sentNext`: and it is sent at
 * once, in the save that follows (Save was pressed again meanwhile), so nothing is left to say.
 */
export type SaveAnswered<T, A> = (answer: A, typedSince: boolean, sent: T, sentNext: boolean) => void;

interface Waiter<A> {
  resolve(answer: A | undefined): void;
  reject(error: unknown): void;
}

interface Round<T, A> {
  send: SaveSend<T, A>;
  answered: SaveAnswered<T, A>;
  waiters: Waiter<A>[];
}

/** The rule without React: `content` gives the editor's content as it is now. */
export class EditorSaves<T> {
  private running = false;
  /** The save asked for while one is on its way: the newest Save's callbacks (made from the newest render). */
  private next: Round<T, unknown> | undefined;
  /** True while a save is on its way (or one follows it): a read of the file racing it must not replace the editor's content (its answer says what the file holds). */
  readonly saving: { readonly current: boolean };
  /** Saves sent so far: a read of the file asked before one answers with what the file held before it (drop it). */
  readonly started = { current: 0 };
  /** Waiting for no save to be on its way (settled). */
  private idle: Array<() => void> = [];

  constructor(private readonly content: () => T) {
    const running = () => this.running;
    this.saving = { get current() { return running(); } };
  }

  /** Resolves once no save is on its way (at once when none is). */
  settled(): Promise<void> {
    return this.running ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  private stop(): void {
    this.running = false;
    const idle = this.idle;
    this.idle = [];
    for (const resolve of idle) resolve();
  }

  /**
   * Saves what the editor holds. Resolves with the answer of the save that sent it; with
   * undefined when Save was pressed while a save was on its way and nothing changed meanwhile (that
   * save wrote it: nothing was sent). A refusal is thrown as `send` threw it, also to the Saves
   * pressed while it was on its way (nothing of theirs is sent after a refusal).
   */
  save<A>(send: SaveSend<T, A>, answered: SaveAnswered<T, A>): Promise<A | undefined> {
    return new Promise<A | undefined>((resolve, reject) => {
      const waiter: Waiter<A> = { resolve, reject };
      if (this.running) {
        const waiters = [...((this.next?.waiters ?? []) as Waiter<A>[]), waiter];
        this.next = { send, answered, waiters } as Round<T, unknown>;
        return;
      }
      void this.run<A>({ send, answered, waiters: [waiter] });
    });
  }

  private async run<A>(first: Round<T, A>): Promise<void> {
    this.running = true;
    let round = first;
    let after: A | undefined;
    for (;;) {
      this.started.current++;
      const sent = this.content();
      const sentJson = stableJson(sent);
      let answer: A;
      try {
        answer = await round.send(sent, after);
      } catch (e) {
        const dropped = (this.next?.waiters ?? []) as Waiter<A>[];
        this.next = undefined;
        this.stop();
        for (const waiter of [...round.waiters, ...dropped]) waiter.reject(e);
        return;
      }
      const next = this.next as Round<T, A> | undefined;
      this.next = undefined;
      const typedSince = stableJson(this.content()) !== sentJson;
      const sendsNext = next !== undefined && typedSince;
      try {
        round.answered(answer, typedSince, sent, sendsNext);
      } catch (e) {
        this.stop();
        for (const waiter of [...round.waiters, ...(next?.waiters ?? [])]) waiter.reject(e);
        return;
      }
      for (const waiter of round.waiters) waiter.resolve(answer);
      if (!sendsNext) {
        this.stop();
        for (const waiter of next?.waiters ?? []) waiter.resolve(undefined);
        return;
      }
      round = next;
      after = answer;
    }
  }
}

/** What a read of the file needs to know of an editor's saves (disk-reread.ts). */
export interface SavesSeen {
  /** True while a save is on its way: a read of the file racing it must not replace the editor's content (its answer says what the file holds). */
  readonly saving: { readonly current: boolean };
  /** Saves sent so far: a read asked before one answers with what the file held before it, so it is dropped. */
  readonly started: { readonly current: number };
  /** Resolves once no save is on its way: a change reported meanwhile is read then. */
  settled(): Promise<void>;
}

/** Several editors' saves seen as one (Application settings: one EditorSaves per setting, one file). */
export function savesOfAll(all: () => Iterable<SavesSeen>): SavesSeen {
  return {
    saving: { get current() { return [...all()].some((s) => s.saving.current); } },
    started: { get current() { return [...all()].reduce((n, s) => n + s.started.current, 0); } },
    // Another setting's save may start while one is awaited: settled when none is on its way.
    settled: async () => {
      while ([...all()].some((s) => s.saving.current)) await Promise.all([...all()].map((s) => s.settled()));
    },
  };
}

export interface EditorSave<T> extends SavesSeen {
  /** EditorSaves.save: one save at a time, a Save pressed meanwhile sent after it when the content changed. */
  save<A>(send: SaveSend<T, A>, answered: SaveAnswered<T, A>): Promise<A | undefined>;
}

/** `content`: everything the editor's Save sends, as rendered now. */
export function useEditorSave<T>(content: T): EditorSave<T> {
  // The content at the answer's time, not at the render that started the save.
  const latest = useRef(content);
  latest.current = content;
  const saves = useRef<EditorSaves<T> | null>(null);
  if (saves.current === null) saves.current = new EditorSaves(() => latest.current);
  const kept = saves.current;
  return useRef<EditorSave<T>>({ saving: kept.saving, started: kept.started, settled: () => kept.settled(), save: (send, answered) => kept.save(send, answered) }).current;
}
