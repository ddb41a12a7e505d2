/**
 * `ferry serve`'s lines for what happens to server files while it serves. One file's change is
 * said on its own line, as it comes; a burst — a branch checked out that deletes, adds and
 * changes many server files at once — is gathered into one line that says which servers' files
 * were deleted, which servers stopped, which took new settings and which started.
 */

export interface FileEvent {
  event: 'deleted' | 'stopped' | 'changed' | 'started';
  /** The server id (its file's name under `servers/`). */
  id: string;
  /** Where a started server listens. */
  url?: string;
  /** Says it on its own line (when it came alone). */
  print: () => void;
}

/** A burst is over when no server file has changed for this long. */
const QUIET_MS = 500;
/** Nor is a burst held longer than this, whatever keeps coming. */
const LONGEST_MS = 3000;
/** Events of this many server files or more are one line; fewer keep their own lines. */
const BURST_FILES = 3;

export class ServerFileBurst {
  #events: FileEvent[] = [];
  #since = 0;
  #timer: NodeJS.Timeout | undefined;

  /** `summary` prints the line of a burst. */
  constructor(private readonly summary: (line: string) => void) {}

  add(event: FileEvent): void {
    if (this.#events.length === 0) this.#since = Date.now();
    this.#events.push(event);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.flush(), Math.max(0, Math.min(QUIET_MS, this.#since + LONGEST_MS - Date.now())));
    this.#timer.unref();
  }

  /** Says what was gathered: each on its own line, or one line for a burst. */
  flush(): void {
    clearTimeout(this.#timer);
    const events = this.#events;
    this.#events = [];
    const files = new Set(events.map((e) => e.id));
    if (files.size < BURST_FILES) {
      for (const event of events) event.print();
      return;
    }
    this.summary(burstLine(events, files.size));
  }
}

function burstLine(events: readonly FileEvent[], files: number): string {
  const ids = (kind: FileEvent['event']) => [...new Set(events.filter((e) => e.event === kind).map((e) => e.id))].sort();
  const stopped = ids('stopped');
  // A deleted file whose server then stopped (it gave way to a renamed file) is said stopped only.
  const deleted = ids('deleted').filter((id) => !stopped.includes(id));
  const started = events.filter((e) => e.event === 'started').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const parts: string[] = [];
  if (deleted.length > 0) parts.push(`deleted ${deleted.join(', ')} (${deleted.length === 1 ? 'it keeps running with its last settings until stopped, and takes its file back when it returns' : 'they keep running with their last settings until stopped, and take their file back when it returns'})`);
  if (stopped.length > 0) parts.push(`stopped ${stopped.join(', ')} (${stopped.length === 1 ? 'its file is gone' : 'their files are gone'}: renamed)`);
  const changed = ids('changed').filter((id) => !started.some((e) => e.id === id));
  if (changed.length > 0) parts.push(`new settings taken by ${changed.join(', ')}`);
  if (started.length > 0) parts.push(`started ${started.map((e) => `${e.id} (${e.url})`).join(', ')}`);
  return `${files} server files changed at once under servers/: ${parts.join('; ')}.`;
}
