/**
 * The progress line on a terminal: while a request is in flight, one line on stderr says which
 * request of how many is being sent and for how long; it is erased before the request's result
 * is printed. Only for terminals (the caller decides); it writes nothing else.
 */
import { performance } from 'node:perf_hooks';
import type { Reporter, RunEvent } from '../events.js';
import { formatMs } from './format.js';

export interface RawSink {
  /** Writes text as it is (no newline added). */
  write(text: string): void;
}

/** Erases the current terminal line and returns to its start. */
const CLEAR = '\r\u001b[2K';
/** How often the elapsed time of a request in flight is redrawn. */
const REDRAW_MS = 250;

export class ProgressReporter implements Reporter {
  private line = '';
  private drawn = '';
  private startedAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: RawSink,
    private readonly now: () => number = () => performance.now(),
  ) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'sending') {
      const iteration = event.iterations > 1 ? `, iteration ${event.iteration + 1}/${event.iterations}` : '';
      this.line = `→ ${event.name} (${event.position}/${event.total}${iteration})`;
      this.startedAt = this.now();
      this.draw();
      this.timer ??= setInterval(() => this.draw(), REDRAW_MS).unref();
      return;
    }
    // Anything else is about to be printed: take the progress line away first.
    this.clear();
  }

  async finish(): Promise<void> {
    this.clear();
  }

  private draw(): void {
    if (!this.line) return;
    const elapsed = this.now() - this.startedAt;
    const text = `${this.line}${elapsed >= 1000 ? ` ${formatMs(elapsed)}` : ''}`;
    if (text === this.drawn) return;
    this.drawn = text;
    this.sink.write(`${CLEAR}${text}`);
  }

  private clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.line) return;
    this.line = '';
    this.drawn = '';
    this.sink.write(CLEAR);
  }
}
