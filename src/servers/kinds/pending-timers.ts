/** A server's delayed answers (`delayMs` of routes and rules): all cancelled when it stops, so nothing answers after. */
export class PendingTimers {
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Runs `run` after `ms`; the handle cancels it early. */
  later(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  /** Answers waiting. */
  get size(): number {
    return this.timers.size;
  }

  cancel(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/** Delayed replies one connection may be owed, and their bytes, before it is not read until some have gone. */
export const MAX_OWED = 1024;
export const MAX_OWED_BYTES = 16 * 1024 * 1024;

/**
 * One connection's delayed replies. Each waits in memory (a timer and its bytes): past MAX_OWED
 * of them or MAX_OWED_BYTES, `hold(true)` stops reading the client until some have gone
 * (`hold(false)`), as a client that does not read its echo is; `cancel` drops them when it closes.
 */
export class OwedReplies {
  #count = 0;
  #bytes = 0;
  #held = false;
  #gone = false;
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(private readonly all: PendingTimers, private readonly hold: (held: boolean) => void) {}

  get count(): number {
    return this.#count;
  }

  /** Runs `run` after `ms`, counting `bytes` as owed until then. */
  later(ms: number, bytes: number, run: () => void): void {
    if (this.#gone) return; // a message still handed on after its connection closed
    this.#count++;
    this.#bytes += bytes;
    const timer = this.all.later(ms, () => {
      this.#timers.delete(timer);
      this.#count--;
      this.#bytes -= bytes;
      run();
      this.#check();
    });
    this.#timers.add(timer);
    this.#check();
  }

  /** Holds on each reply past the bound (something else, such as a drain, may have resumed reading). */
  #check(): void {
    const over = this.#count >= MAX_OWED || this.#bytes >= MAX_OWED_BYTES;
    const was = this.#held;
    // Set first: a release may owe a reply at once (`later` again, checking again from inside).
    this.#held = over;
    if (over) this.hold(true);
    else if (was) this.hold(false);
  }

  /** The connection closed: its replies are dropped, and any owed later too. */
  cancel(): void {
    this.#gone = true;
    for (const timer of this.#timers) this.all.cancel(timer);
    this.#timers.clear();
    this.#count = 0;
    this.#bytes = 0;
  }
}

/**
 * `idleMs`: a connection held (not read: its delayed replies are past the bound) with nothing
 * sent for this long is closed. Not read, the server cannot see its client leave (the end is
 * never read), so a client that floods and goes would keep its replies until they are due. A
 * field, not a constant, so tests can shorten it.
 */
export const HELD_TIMINGS = { idleMs: 30_000 };

/**
 * Watches `socket` while held: `onIdle` runs when nothing has gone either way for
 * HELD_TIMINGS.idleMs while held. Returns the switch to call as the hold changes.
 */
export function watchHeld(socket: Pick<import('node:net').Socket, 'on' | 'setTimeout'>, onIdle: () => void): (held: boolean) => void {
  let held = false;
  socket.on('timeout', () => {
    if (held) onIdle();
  });
  return (now) => {
    held = now;
    socket.setTimeout(now ? HELD_TIMINGS.idleMs : 0);
  };
}

/**
 * One connection's messages read and not answered yet, answered in order while `mayAnswer` holds
 * (the socket's buffer not full, the delayed replies owed under their bound). One read can carry
 * thousands of messages whose replies are far bigger than it or wait long: the rest wait here
 * until `run` is called again (a drain, a delayed reply gone), and the connection is not read
 * meanwhile (`settled`, told after each run, pauses or resumes it), so what waits in memory is
 * one read's messages, not all their replies.
 */
export class InTurn<T> {
  #waiting: T[] = [];
  #next = 0;
  #answering = false;

  constructor(
    private readonly answer: (message: T) => void,
    private readonly mayAnswer: () => boolean,
    private readonly settled: () => void,
  ) {}

  /** Messages read and not answered yet. */
  get count(): number {
    return this.#waiting.length - this.#next;
  }

  /** Queues `messages` (the list is kept, not copied, when nothing waits) and answers what may be. */
  add(messages: T[]): void {
    if (this.#waiting.length === 0) this.#waiting = messages;
    else for (const message of messages) this.#waiting.push(message);
    this.run();
  }

  run(): void {
    if (this.#answering) return; // a reply going out while answering: this loop goes on anyway
    this.#answering = true;
    try {
      while (this.#next < this.#waiting.length && this.mayAnswer()) this.answer(this.#waiting[this.#next++]!);
    } finally {
      this.#answering = false;
    }
    if (this.#next >= this.#waiting.length) [this.#waiting, this.#next] = [[], 0];
    this.settled();
  }
}
