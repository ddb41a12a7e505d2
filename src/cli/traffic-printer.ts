/**
 * What `ferry serve` prints of the traffic. One queued write per batch (never one per request,
 * never a write the server waits for). `--json` prints every record. On a terminal, past
 * `linesPerSecond` requests in a second the rest of that second is counted instead of printed, and
 * one summary line follows when the second ends: a person cannot read thousands of lines a second,
 * and drawing them would cost the server CPU. Records the traffic log could not hand over (more than
 * it holds arrived in one tick) are never dropped silently: "N requests not shown", worded for
 * the kind ("N DNS queries", "N TCP messages").
 */
import { countRecords, formatTrafficLine, plainRecord, type TrafficRecord, trafficLineMaxBytes, writeTrafficLine } from '../servers/index.js';
import type { LinePrinter, LineWriter } from './line-printer.js';
import type { paint } from './output.js';
import type { ServerKind } from '../model/index.js';

/** Decision: 200 lines a second on a terminal, then a summary line per second. */
export const TERMINAL_LINES_PER_SECOND = 200;

export interface TrafficPrinterOptions {
  json: boolean;
  /** Lines printed per second before the rest is summarised; undefined: every line (not a terminal). */
  linesPerSecond?: number;
  /** The clock, for tests. */
  now?: () => number;
}

export class TrafficPrinter {
  readonly #printer: LinePrinter;
  readonly #c: ReturnType<typeof paint>;
  readonly #options: TrafficPrinterOptions;
  readonly #now: () => number;
  #windowStart = 0;
  #shownInWindow = 0;
  #summarised = { requests: 0, errors: 0, warnings: 0, byKind: {} as Partial<Record<ServerKind, number>> };
  #timer: NodeJS.Timeout | undefined;

  constructor(printer: LinePrinter, c: ReturnType<typeof paint>, options: TrafficPrinterOptions) {
    this.#printer = printer;
    this.#c = c;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The traffic log's listener. */
  readonly print = (records: readonly TrafficRecord[], dropped: number, droppedByKind?: Readonly<Partial<Record<ServerKind, number>>>): void => {
    if (dropped > 0) this.#printer.print(this.#droppedLine(dropped, droppedByKind));
    if (this.#options.json) {
      // Handed over as one list: the printer encodes each line where it goes (appending to one
      // string would build a rope of thousands of pieces, flattened again before it is encoded).
      if (records.length > 0) this.#printer.printEach(records.map((r) => JSON.stringify({ type: 'traffic', ...plainRecord(r) })));
      return;
    }
    const limit = this.#options.linesPerSecond;
    const shown = limit === undefined ? records : records.filter((r) => this.#shows(r, limit));
    if (shown.length === 0) return;
    // Without colours (a pipe, a file) each line is written as bytes straight into the output.
    if (!this.#c.isColorSupported) this.#printer.printWritten(shown, PLAIN_LINES);
    else this.#printer.printEach(shown.map((r) => this.#coloured(r)));
  };

  /** A line in the colour of its level (a terminal, at most `linesPerSecond` a second). */
  #coloured(r: TrafficRecord): string {
    const line = formatTrafficLine(r);
    return r.level === 'error' ? this.#c.red(line) : r.level === 'warning' ? this.#c.yellow(line) : line;
  }

  /** Prints what is still counted (the last second's summary); call when serving stops. */
  finish(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#printSummary();
  }

  /** Whether the record's line is printed this second; counted for the summary when not. */
  #shows(r: TrafficRecord, limit: number): boolean {
    if (this.#roomFor(limit)) return true;
    this.#summarised.requests++;
    this.#summarised.byKind[r.kind] = (this.#summarised.byKind[r.kind] ?? 0) + 1;
    if (r.level === 'error') this.#summarised.errors++;
    else if (r.level === 'warning') this.#summarised.warnings++;
    return false;
  }

  #roomFor(limit: number): boolean {
    const now = this.#now();
    if (now - this.#windowStart >= 1000) {
      this.#printSummary();
      this.#windowStart = now;
      this.#shownInWindow = 0;
    }
    if (this.#shownInWindow < limit) {
      this.#shownInWindow++;
      return true;
    }
    // The summary comes when the second ends, also when no request follows.
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#printSummary();
    }, Math.max(0, this.#windowStart + 1000 - now)).unref();
    return false;
  }

  #printSummary(): void {
    const { requests, errors, warnings, byKind } = this.#summarised;
    if (requests === 0) return;
    this.#summarised = { requests: 0, errors: 0, warnings: 0, byKind: {} };
    const parts = [errors > 0 ? this.#c.red(`${errors} failed`) : '', warnings > 0 ? this.#c.yellow(`${warnings} with warnings`) : ''].filter(Boolean);
    const more = parts.length > 0 ? ` (${parts.join(', ')})` : '';
    this.#printer.print(this.#c.dim(`… and ${countRecords(requests, byKind).replace(/^([\d,]+) /, '$1 more ')} in that second${more}; over ${this.#options.linesPerSecond} a second only this summary is printed (--json prints each)`));
  }

  #droppedLine(dropped: number, byKind: Readonly<Partial<Record<ServerKind, number>>> | undefined): string {
    const message = `${countRecords(dropped, byKind)} not shown: more arrived at once than the traffic log holds`;
    return this.#options.json ? JSON.stringify({ type: 'notice', level: 'warning', message }) : this.#c.yellow(`… ${message}`);
  }
}

/** Lines without colour: the same for every level. */
const PLAIN_LINES: LineWriter<TrafficRecord> = { maxBytes: trafficLineMaxBytes, write: writeTrafficLine, text: formatTrafficLine };
