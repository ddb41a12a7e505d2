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
