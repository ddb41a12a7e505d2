/**
 * The workspace the app shows, and the session it sends in. Files change under the app (its own
 * saves, git, an editor): the workspace is read again, and the next send opens a new session on
 * it; the old one is saved and closed once its sends are over. Cookies, script-set values and
 * history carry over through this computer's data folder, as from one `ferry run` to the next.
 */
import { WorkspaceData } from '../../appdata/index.js';
import { Session } from '../../session/index.js';
import { openWorkspace, WorkspaceError, type Workspace } from '../../workspace/index.js';

export class WorkspaceState {
  private session: Session | undefined;
  private busy = new Map<Session, number>();
  private reading: Promise<void> | undefined;
  /** The read that follows the one in flight, shared by every reload asked for meanwhile. */
  private next: Promise<void> | undefined;
  readonly data: WorkspaceData;

  constructor(private current: Workspace) {
    this.data = new WorkspaceData(current.id, current.root);
  }

  get workspace(): Workspace {
    return this.current;
  }

  /**
   * Why the folder no longer opens (ferry.yaml removed, or written by a newer Ferry since the app
   * started); undefined while it opens. Meanwhile the app refuses to work on its old copy.
   */
  get refused(): string | undefined {
    return this.#refused;
  }
  #refused: string | undefined;

  /**
   * Reads the folder again. A read in flight may have read a file before the change this call is
   * for (a `git checkout` lands in several of the watcher's batches): one more read follows it,
   * shared by every call made meanwhile, so a burst costs at most two reads and none is missed.
   */
  reload(): Promise<void> {
    if (this.reading) {
      this.next ??= this.reading.catch(() => undefined).then(() => {
        this.next = undefined;
        return this.reload();
      });
      return this.next;
    }
    // This read starts after every change marked so far.
    this.#stale = false;
    this.reading = openWorkspace(this.current.root)
      .then(
        (ws) => {
          this.current = ws;
          this.#refused = undefined;
          this.retire();
        },
        (error: unknown) => {
          if (error instanceof WorkspaceError) this.#refused = error.message;
          throw error;
        },
      )
      .finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** The app wrote a file in place (a request saved as you type): the next call that needs the workspace reads it again first. */
  markStale(): void {
    this.#stale = true;
  }
  #stale = false;

  /** Resolves once the workspace read reflects the files as they are now (read again when marked stale), failed or not. */
  async fresh(): Promise<void> {
    if (this.#stale) await this.reload().catch(() => undefined);
    await (this.next ?? this.reading)?.catch(() => undefined);
  }

  /** Runs `work` in the current session; a session is kept open across calls until the workspace changes. */
  async withSession<T>(work: (session: Session) => Promise<T>): Promise<T> {
    const session = await this.#take();
    try {
      return await work(session);
    } finally {
      await this.#give(session);
    }
  }

  /**
   * Runs `work` in the current session and keeps that session from closing until `release` is
   * called, even when the workspace changes meanwhile: a live connection lives in it.
   */
  async hold<T>(work: (session: Session) => Promise<T>): Promise<{ value: T; session: Session; release: () => Promise<void> }> {
    const session = await this.#take();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await this.#give(session);
    };
    try {
      return { value: await work(session), session, release };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /** The current session (made when there is none), counted as in use. */
  async #take(): Promise<Session> {
    // The newest read: a send uses the files as they are now.
    await this.fresh();
    const session = (this.session ??= new Session({ workspace: this.current, dataFolder: this.data, face: 'app' }));
    this.busy.set(session, (this.busy.get(session) ?? 0) + 1);
    return session;
  }

  /** One use of `session` ended; the last use saves it (still current) or closes it (retired). */
  async #give(session: Session): Promise<void> {
    const left = (this.busy.get(session) ?? 1) - 1;
    if (left > 0) {
      this.busy.set(session, left);
      return;
    }
    this.busy.delete(session);
    // Save what the sends changed (cookies, values scripts set, history) for the next session.
    if (session === this.session) await session.save();
    else await session.close();
  }

  /** The environment changed: sends from now on use a new session. */
  retire(): void {
    const old = this.session;
    this.session = undefined;
    if (old && !this.busy.has(old)) void old.close();
  }

  async close(): Promise<void> {
    await (this.next ?? this.reading)?.catch(() => undefined);
    const old = this.session;
    this.session = undefined;
    await old?.close();
  }
}
