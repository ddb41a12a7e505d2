/**
 * One line of status on a terminal (stderr), redrawn in place and erased before anything else is
 * printed: the run's progress and long imports share it. It writes only when the text changes.
 */

export interface RawSink {
  /** Writes text as it is (no newline added). */
  write(text: string): void;
}

/** Erases the current terminal line and returns to its start. */
const CLEAR = '\r\u001b[2K';

export class StatusLine {
  private drawn = '';

  constructor(private readonly sink: RawSink) {}

  show(text: string): void {
    if (text === this.drawn) return;
    this.drawn = text;
    this.sink.write(`${CLEAR}${text}`);
  }

  clear(): void {
    if (!this.drawn) return;
    this.drawn = '';
    this.sink.write(CLEAR);
  }
}
