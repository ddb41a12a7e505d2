/**
 * The progress line on a terminal: while a request is in flight, one line on stderr says which
 * request of how many is being sent and for how long; it is erased before the request's result
 * is printed. Only for terminals (the caller decides); it writes nothing else.
 */
import { performance } from 'node:perf_hooks';
import type { Reporter, RunEvent } from '../events.js';
import { formatMs } from '../../support/human-units.js';
import { StatusLine, type RawSink } from '../../support/status-line.js';
import { terminalLine } from '../../support/terminal-text.js';

/** How often the elapsed time of a request in flight is redrawn. */
const REDRAW_MS = 250;

export class ProgressReporter implements Reporter {
  private readonly status: StatusLine;
  private line = '';
  private startedAt = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    sink: RawSink,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.status = new StatusLine(sink);
  }

  onEvent(event: RunEvent): void {
    if (event.type === 'sending') {
      const iteration = event.iterations > 1 ? `, iteration ${event.iteration + 1}/${event.iterations}` : '';
      this.line = `→ ${terminalLine(event.name)} (${event.position}/${event.total}${iteration})`;
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
    this.status.show(`${this.line}${elapsed >= 1000 ? ` ${formatMs(elapsed)}` : ''}`);
  }

  private clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.line = '';
    this.status.clear();
  }
}
