/**
 * The renames and deletes of a workspace's environments on this computer, recorded in its data
 * folder (`environment-changes.json`), so that a run that read its environment's values before one
 * saves the values its scripts set where the environment is now — whichever process renamed it
 * (the app, or `ferry env rename` in a terminal while a `ferry run` is under way). The data folder
 * keys an environment's values by its id, its file name, which a rename changes.
 *
 * A run takes a mark (`mark`) as it reads the workspace, before the environments (session/environment-mark.ts;
 * a rename renames the file before it records the change) and, when it saves, follows the changes
 * recorded since (`since`). Both a change (record, then move the data) and a save run holding
 * the record's lock (json-store.ts), so a save never lands between a rename's moves.
 *
 * The record is bounded (the last ENVIRONMENT_CHANGES_KEPT changes) and names itself (`id`, made
 * when it is first written): a record that was damaged and set aside starts again under a new id,
 * and a run whose mark names another record follows every change the new one holds. Changes lost
 * with the damaged record (or dropped past the bound) are not followed: the values are then kept
 * under the id the run last knew, as before this record existed; nothing is thrown away.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { JsonStore } from './json-store.js';

/** A run's place in the record: taken when it reads its environment's values. */
export interface EnvironmentMark {
  /** The record's id then; absent when there was none. */
  journal?: string;
  /** The number the next change would get. */
  next: number;
}

interface Change {
  seq: number;
  from: string;
  /** The new id; absent: deleted. */
  to?: string;
  /** When it was recorded (ms since 1970), for whoever reads the file; absent in a record an older Ferry wrote. */
  at?: number;
}

/** As stored; anything may be missing or wrong in a file edited by hand. */
interface Journal {
  id?: unknown;
  next?: unknown;
  changes?: unknown;
}

/** Far more changes than one run sees: 100 renames while it runs. Each run reads the file once. */
export const ENVIRONMENT_CHANGES_KEPT = 100;

/** The record held under its lock: `record` writes a change at once, `since` follows changes. */
export interface HeldEnvironmentChanges {
  record(from: string, to: string | undefined): Promise<void>;
  /** The id now of the environment that was `id` at `mark`; undefined when it was deleted since. No mark: `id`. */
  since(id: string, mark: EnvironmentMark | undefined): string | undefined;
}

export class EnvironmentChanges {
  private readonly store: JsonStore<Journal>;

  constructor(dir: string) {
    this.store = new JsonStore<Journal>(
      path.join(dir, 'environment-changes.json'),
      () => ({}),
      // Only runs under way now lose anything: the renames and deletes already done are done.
      'a run under way now does not follow the environment renames and deletes made before: it keeps the values its scripts set under the environment\'s id as the run began (`ferry env ls` shows the ids); nothing else is lost',
    );
  }

  async mark(): Promise<EnvironmentMark> {
    const journal = await this.store.read();
    const id = typeof journal.id === 'string' ? journal.id : undefined;
    return { ...(id === undefined ? {} : { journal: id }), next: nextOf(journal, changesOf(journal)) };
  }

  /** Runs `work` holding the record's lock (this process and others wait for it). */
  hold<T>(work: (held: HeldEnvironmentChanges) => Promise<T>): Promise<T> {
    return this.store.hold((journal, save) => work({
      record: async (from, to) => {
        const changes = changesOf(journal);
        const seq = nextOf(journal, changes);
        changes.push({ seq, from, ...(to === undefined ? {} : { to }), at: Date.now() });
        journal.id = typeof journal.id === 'string' ? journal.id : randomUUID();
        journal.next = seq + 1;
        journal.changes = changes.slice(-ENVIRONMENT_CHANGES_KEPT);
        await save();
      },
      since: (id, mark) => {
        if (!mark) return id;
        const changes = changesOf(journal);
        // Another record than the mark's: this one began after the mark was taken, so all of it is since.
        const from = mark.journal === (typeof journal.id === 'string' ? journal.id : undefined) ? mark.next : -Infinity;
        let now: string | undefined = id;
        for (const change of changes) if (change.seq >= from && change.from === now) now = change.to;
        return now;
      },
    }));
  }
}

/** The well-formed changes, in order (a hand-edited entry of another shape is passed over). */
function changesOf(journal: Journal): Change[] {
  if (!Array.isArray(journal.changes)) return [];
  return journal.changes.filter((c: unknown): c is Change => {
    const change = c as Change | null;
    return typeof change === 'object' && change !== null && Number.isSafeInteger(change.seq) && typeof change.from === 'string' && (change.to === undefined || typeof change.to === 'string') && (change.at === undefined || Number.isFinite(change.at));
  });
}

function nextOf(journal: Journal, changes: readonly Change[]): number {
  const last = changes.length === 0 ? -1 : changes[changes.length - 1]!.seq;
  return Number.isSafeInteger(journal.next) && (journal.next as number) > last ? (journal.next as number) : last + 1;
}
