/**
 * The status line of long commands (imports, updates): what they are doing, redrawn in place on
 * a terminal's stderr and erased before their result is printed. Absent when stderr is no terminal.
 */
import { StatusLine } from '../support/status-line.js';
import type { CliContext } from './context.js';

/** How often a running count is redrawn: often enough to move, rarely enough to cost nothing. */
const REDRAW_MS = 100;

export interface CliStatus {
  show(text: string): void;
  /** `label: done of total`, redrawn at most every REDRAW_MS (always at the start and the end). */
  count(label: string, done: number, total: number): void;
  clear(): void;
}

export function cliStatus(ctx: CliContext): CliStatus | undefined {
  if (!ctx.output.status) return undefined;
  const line = new StatusLine(ctx.output.status);
  let drawnAt = 0;
  return {
    show: (text) => line.show(text),
    count: (label, done, total) => {
      const now = performance.now();
      if (done !== 0 && done !== total && now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      line.show(`${label}: ${done} of ${total}`);
    },
    clear: () => line.clear(),
  };
}
