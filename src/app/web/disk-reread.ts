/**
 * An editor's answer to workspace files changing on disk (git, an editor, another tab): when
 * `diskChanges` moves, the open file is read again; with nothing edited the editor takes the
 * disk's version, with edits it keeps them and offers the disk's (the conflict bar). One rule for
 * the app's editors that hold a file (server, load test, variables, folder and workspace settings;
 * Application settings, whose `diskChanges` counts changes of this computer's settings file);
 * the read made when one opens is one of these reads too.
 */
import { useEffect, useRef } from 'react';
import { useLatest } from './latest.js';
import type { SavesSeen } from './save-answer.js';

export interface DiskReread<T> {
  /**
   * The open file's key (its id, its URL), or undefined while no file is open (the load-test
   * panel with none picked): nothing is read. A read whose key is no longer the open one when it
   * comes back (another file opened, a rename) is dropped.
   */
  openKey(): string | undefined;
  read(): Promise<T>;
  /**
   * Says why a read failed while nothing was read yet for the key (a re-read's failure says
   * nothing: the editor's list and a save say so). The editor's first read is made here, when it
   * opens and when its key changes, as one of its reads: an older one answering last is dropped,
   * so the first read answering after a read for a change made since does not put back the file
   * before it, and a change while it is on its way is read. Every editor's is (required: one
   * without it would read nothing when it opens).
   */
  failed(error: Error): void;
  /**
   * Every read still of the open file, before it is compared: for what follows the file whatever
   * the edits (the settings dialog's "validate" switch, when not flipped in the dialog).
   */
  seen?(read: T): void;
  /** True when what was read is what the editor last loaded or saved: nothing changed for it. */
  same(read: T): boolean;
  edited(): boolean;
  /** Edits are held: keep them, offer the disk's version. */
  conflict(read: T): void;
  /** Nothing edited: take the disk's version. */
  take(read: T): void;
}

/**
 * `saves`: the editor's saves (EditorSave). Which read's answer is taken is decided here, for
 * every editor: only the newest read's (changes in a row read the file each time, and an older
 * read answering last would put back what the file held before the latest change), and none
 * asked before or during a save (its answer would put the file as it was before the save back in
 * the editor; the save's own answer says what the file holds). A change reported while a save is
 * on its way is read once the save has answered: it is often the save's own write (then the read
 * is the same as the answer, and nothing shows), but another writer's change right after that
 * write would otherwise go unseen until the next one.
 * `paused`: not read while true (a hidden panel); read once when it turns false after a change.
 */
export function useDiskReread<T>(diskChanges: number, saves: SavesSeen, reread: DiskReread<T>, paused = false): void {
  // What the read needs now, not at the render that made it.
  const latest = useRef(reread);
  latest.current = reread;
  const pausedNow = useRef(paused);
  pausedNow.current = paused;
  const first = useRef(diskChanges);
  const reads = useLatest();
  /** A read waits for the save on its way to answer. */
  const waiting = useRef(false);
  /** The key a read was last taken for: until then, a failure is said (failed). */
  const readFor = useRef<string | undefined>(undefined);
  const readNow = () => {
    const key = latest.current.openKey();
    if (pausedNow.current || key === undefined) return;
    if (saves.saving.current) {
      if (waiting.current) return;
      waiting.current = true;
      void saves.settled().then(() => {
        waiting.current = false;
        readNow();
      });
      return;
    }
    const newest = reads.ask();
    const started = saves.started.current;
    latest.current.read().then((read) => {
      const now = latest.current;
      if (!newest() || now.openKey() !== key || saves.saving.current || saves.started.current !== started) return;
      readFor.current = key;
      now.seen?.(read);
      if (now.same(read)) return;
      if (now.edited()) now.conflict(read);
      else now.take(read);
    }, (e: Error) => {
      if (newest() && latest.current.openKey() === key && readFor.current !== key) latest.current.failed(e);
    });
  };
  // Opened, or another file opened in it: its first read.
  const opened = reread.openKey();
  useEffect(() => {
    readNow();
  }, [opened]);
  useEffect(() => {
    if (diskChanges !== first.current) readNow();
  }, [diskChanges, paused]);
}
