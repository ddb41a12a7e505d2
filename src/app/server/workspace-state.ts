/**
 * The workspace the app shows, and the session it sends in. Files change under the app (its own
 * saves, git, an editor): the workspace is read again (a request the app saved in place: only that
 * file, tookOwnSave), and the next send opens a new session on
 * it; the old one is saved and closed once its sends are over. Cookies, script-set values and
 * history carry over through this computer's data folder, as from one `ferry run` to the next.
 */
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { withWorkspaceLock, WorkspaceData, type WorkspaceLocker } from '../../appdata/index.js';
import { carryEnvironmentMark, markingRead, Session } from '../../session/index.js';
import { FOLDER_FILE, openWorkspace, REQUESTS_DIR, WorkspaceError, type Workspace } from '../../workspace/index.js';
import { readSmallFile } from '../../workspace/read-resource.js';
import { withRequestText } from '../../workspace/request-update.js';

/**
 * What `file` (a path from the workspace folder) holds now, to tell whether it changed: 'absent',
 * or its inode, change time (any write or rename sets it, whatever the content), size and its
 * text's hash; undefined when it cannot be read (then it never counts as unchanged). `text` gets
 * the text read, for a caller that takes it into the workspace.
 */
function fileMark(root: string, file: string, text?: (text: string) => void): string | undefined {
  const absolute = path.join(root, ...file.split('/'));
  let stat;
  try {
    stat = lstatSync(absolute, { bigint: true });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : undefined;
  }
  // A folder (made, moved or renamed by the app): its inode, and its change time, which any entry made, renamed or removed in it sets.
  if (stat.isDirectory()) return `dir:${stat.ino}:${stat.ctimeNs}`;
  if (!stat.isFile()) return undefined;
  const read = readSmallFile(absolute, file);
  if (!read.ok) return undefined;
  text?.(read.text);
  return `${stat.ino}:${stat.ctimeNs}:${stat.size}:${createHash('sha256').update(read.text).digest('base64')}`;
}

export class WorkspaceState {
  private session: Session | undefined;
  /** The data folder's stores as the current session read them (WorkspaceData.sessionMark), or as its own save left them. */
  private sessionData: string | undefined;
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
    // This read starts after every change marked so far, and takes every file as it is then.
    this.#stale = false;
    this.#own.clear();
    this.#moved.clear();
    this.#reads++;
    // Its place in the record of environment renames taken as it reads: a session opened later follows those made since.
    const marking = markingRead();
    this.reading = openWorkspace(this.current.root, { onIdentified: marking.onIdentified })
      .then(
        (ws) => {
          this.current = marking.keep(ws);
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

  /** How many times the whole workspace was read since the app started (tests count what a save costs). */
  get reads(): number {
    return this.#reads;
  }
  #reads = 0;

  /**
   * The files the app wrote itself and whose state the workspace it holds has (`tookOwnSave`,
   * `reloadAfterOwnWrites`), by their path from the workspace folder (as the watcher names them):
   * their `fileMark` then. Emptied by every whole read that does not record them.
   */
  #own = new Map<string, string>();

  /**
   * Folders the app moved or renamed (`reloadAfterOwnWrites`' `moved`): old path → new path. Until
   * the watcher's next scan, the old folder's watcher still reports what happens in the moved
   * folder, under the old path: such a path counts as the app's own only when its new path does.
   */
  #moved = new Map<string, string>();

  /**
   * The app saved the request at `requestPath` (under requests/) in place: the workspace takes that
   * file as it is now, without reading the rest (0.5 s of CPU at 10,000 requests), and remembers
   * the file's mark, so the watcher's report of this very write costs no read either (`onlyOwnWrites`).
   * Whatever wrote the file last (the app, or an editor just after it), the workspace holds what is
   * on disk. When that cannot be done surely (a read in flight or to follow, the workspace refused
   * or already marked changed, the request not where the tree has it), it is marked changed instead.
   */
  tookOwnSave(requestPath: string): void {
    const ws = this.current;
    const file = `${REQUESTS_DIR}/${requestPath}`;
    let text: string | undefined;
    const mark = this.reading || this.next || this.#stale || this.#refused !== undefined ? undefined : fileMark(ws.root, file, (t) => (text = t));
    const updated = mark === undefined || text === undefined ? undefined : withRequestText(ws, requestPath, text);
    if (!updated) return this.markStale();
    this.current = carryEnvironmentMark(ws, updated);
    this.#own.set(file, mark!);
    // Sends from now on use the request as saved.
    this.retire();
  }

  /**
   * Reads the workspace again after the app wrote `files` (paths from the workspace folder; a file
   * it deleted or renamed away too). Each that did not change while it was read (same mark before
   * and after) is remembered, so the watcher's report of those writes reads nothing again. The
   * app's earlier writes not reported yet (a request saved as you type just before) stay
   * remembered the same way, unless they changed meanwhile.
   *
   * A moved folder (`moved`): the watcher reports it at both paths and, through the old folder's
   * watcher, what happens in it under the old path: the folder itself by a name it had
   * (`<from>/<name>`) and the `_folder.yaml` the move may write. Nothing under it is read for this
   * (no walk, no hashing of what it holds, however big): `onlyOwnWrites` takes `<from>/<name>` as
   * the app's own while nothing is back at the old path and the folder at the new one is as read.
   */
  async reloadAfterOwnWrites(files: readonly string[], moved?: { from: string; to: string }): Promise<void> {
    const move = moved && moved.from !== moved.to ? moved : undefined;
    const earlier = [...this.#own.keys()];
    const earlierMoves = [...this.#moved];
    const all = [...new Set([...files, ...(move ? [move.from, move.to, `${move.to}/${FOLDER_FILE}`] : []), ...earlier])];
    const before = all.map((file) => fileMark(this.current.root, file));
    await this.reload();
    if (this.reading || this.next || this.#stale) return;
    all.forEach((file, i) => {
      if (before[i] !== undefined && before[i] === fileMark(this.current.root, file)) this.#own.set(file, before[i]!);
    });
    for (const [from, to] of move ? [...earlierMoves, [move.from, move.to] as const] : earlierMoves) {
      if (this.#own.has(from) && this.#own.has(to)) this.#moved.set(from, to);
    }
  }

  /**
   * True when every path of the watcher's batch is a file the app wrote itself and the file is
   * still as the workspace took it (`tookOwnSave`, `reloadAfterOwnWrites`): nothing to read. Any
   * other path, a file that changed since (an editor or a `git checkout` right after the save) or
   * cannot be read: false, and the whole workspace is read.
   */
  onlyOwnWrites(paths: readonly string[]): boolean {
    if (paths.length === 0 || this.#stale || this.reading || this.next || this.#refused !== undefined) return false;
    const unchanged = (file: string) => {
      const taken = this.#own.get(file);
      return taken !== undefined && taken === fileMark(this.current.root, file);
    };
    return paths.every((file) => {
      if (unchanged(file)) return true;
      for (const folder of ancestors(file)) {
        // Under a folder the app moved away: nothing back at the old path, and the same file at the
        // new one, or none there in a folder unchanged since it was read (no entry made or removed
        // in it: the old folder's watcher names the folder itself by a name it had, `<from>/<name>`).
        const to = this.#moved.get(folder);
        if (to === undefined) continue;
        if (fileMark(this.current.root, file) !== 'absent') return false;
        const moved = `${to}${file.slice(folder.length)}`;
        return unchanged(moved) || (fileMark(this.current.root, moved) === 'absent' && unchanged(path.posix.dirname(moved)));
      }
      for (const folder of ancestors(file)) {
        // Under a folder the app deleted, still gone: nothing is there, as the workspace has it.
        if (this.#own.get(folder) === 'absent') return unchanged(folder);
      }
      return false;
    });
  }

  /**
   * Runs `write`: a call that writes files and then takes them as the app's own (`tookOwnSave`,
   * `reloadAfterOwnWrites`). Until it is over, the watcher's report waits (`settled`): a write
   * slower than the watcher's gathering (a reorder writing a big folder's files, a loaded
   * machine) is reported once marked, not read whole as a change made elsewhere.
   */
  async ownWrite<T>(write: () => Promise<T>): Promise<T> {
    const running = write();
    const over = running.then(() => undefined, () => undefined);
    this.#writing.add(over);
    try {
      return await running;
    } finally {
      this.#writing.delete(over);
    }
  }
  #writing = new Set<Promise<void>>();

  /** Resolves once the read in flight, the one to follow it and the app's own writes in progress (`ownWrite`) are over (failed or not); writes still waiting for another process's lock are not waited for. */
  async settled(): Promise<void> {
    while (this.reading || this.next || this.#writing.size > this.#lockWaits) {
      await (this.next ?? this.reading ?? Promise.race([...this.#writing, this.#lockWaitBegins()]))?.catch(() => undefined);
    }
  }

  /**
   * Said when a write of the app waits for another process's write lock (`holder`: who, as the
   * lock names it; `page`: the page whose call it is, undefined when it named none): the server
   * tells that page, whose save shows it.
   */
  onLockWait: ((holder: string, page: string | undefined) => void) | undefined;
  /** Said when a write that `onLockWait` said has the lock, or gave up: that page stops saying the wait. */
  onLockWaitOver: ((page: string | undefined) => void) | undefined;
  /** Writes of the app waiting for another process's lock: the watcher's report of that process's changes does not wait for them. */
  #lockWaits = 0;
  #lockWaitBegan: (() => void) | undefined;
  #lockWaitBegins(): Promise<void> {
    return new Promise((resolve) => {
      const before = this.#lockWaitBegan;
      this.#lockWaitBegan = () => {
        before?.();
        resolve();
      };
    });
  }

  /**
   * Runs `work` holding the workspace's write lock, as the app (one writer at a time: an import
   * in a terminal and a save in the app must not undo each other); a wait is said to `page`.
   */
  locked<T>(work: () => Promise<T>, page?: string): Promise<T> {
    return this.lockFor(page)(this.current.root, 'the app', work);
  }

  /**
   * How every write of the app takes the workspace's write lock (`locked`, and the core's writers
   * that take it themselves: environments added, renamed, deleted, an import, an update from API
   * spec), `writer` naming it to another process. Held by another process, it waits up to 5 s
   * (then WorkspaceBusyError): the wait is said (`onLockWait`, a notice in `page`, the page whose
   * call it is, not in every open tab; a call that names no page: in every one) and meanwhile holds back no report of the watcher.
   */
  lockFor(page: string | undefined): WorkspaceLocker {
    return async <T>(root: string, writer: string, work: () => Promise<T>): Promise<T> => {
      let waiting = false;
      const over = () => {
        if (!waiting) return;
        this.#lockWaits--;
        waiting = false;
        this.onLockWaitOver?.(page);
      };
      const onWait = (holder: string) => {
        waiting = true;
        this.#lockWaits++;
        const wake = this.#lockWaitBegan;
        this.#lockWaitBegan = undefined;
        wake?.();
        this.onLockWait?.(holder, page);
      };
      try {
        return await withWorkspaceLock(root, writer, async () => {
          over();
          return work();
        }, { onWait });
      } finally {
        over();
      }
    };
  }

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
    // And the data folder as it is now: a session reads secret values, the values scripts set and
    // the cookie jar once, so when another process changed them (`ferry secret set`, a `ferry
    // run`'s scripts or cookies), the next send opens a new session, which reads them again.
    const mark = await this.data.sessionMark();
    if (this.session && mark !== this.sessionData) this.retire();
    if (!this.session) {
      this.session = new Session({ workspace: this.current, dataFolder: this.data, face: 'app' });
      this.sessionData = mark;
    }
    const session = this.session;
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
    if (session === this.session) {
      await session.save();
      // What it wrote is what it holds already: not a change made by another process.
      if (session === this.session) this.sessionData = await this.data.sessionMark();
    } else await session.close();
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

/** The folders `file` (a path from the workspace folder) is in, nearest first. */
function ancestors(file: string): string[] {
  const parts = file.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, parts.length - 1 - i).join('/'));
}
