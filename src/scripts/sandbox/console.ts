/** `console` for scripts: each call becomes one line of text in the result, as Node would print it. */
import { json } from './intrinsics.js';

export type Level = 'log' | 'info' | 'warn' | 'error' | 'debug';
export interface Entry {
  level: Level;
  text: string;
}

const maxEntries = 1000;
const maxEntryChars = 10_000;
const maxTotalChars = 1_000_000;

function formatValue(value: unknown, nested: boolean): string {
  if (typeof value === 'string') return nested ? json.stringify(value) : value;
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `[Function${value.name ? `: ${value.name}` : ''}]`;
  if (typeof value === 'symbol' || typeof value === 'bigint') return String(value);
  if (value instanceof Error) return value.stack ? `${value.name}: ${value.message}` : String(value);
  if (value === null || typeof value !== 'object') return String(value);
  const seen: unknown[] = [];
  try {
    return json.stringify(value, function replacer(_key, inner: unknown) {
      if (typeof inner === 'function') return `[Function${inner.name ? `: ${inner.name}` : ''}]`;
      if (inner === undefined) return undefined;
      if (typeof inner === 'object' && inner !== null) {
        if (seen.includes(inner)) return '[Circular]';
        seen.push(inner);
      }
      return inner;
    }) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Joins console arguments like util.format, without its %-placeholders beyond %s %d %i %o %j. */
export function formatArgs(args: unknown[]): string {
  let rest = args;
  let head = '';
  if (typeof args[0] === 'string' && /%[sdifjoO%]/.test(args[0])) {
    let index = 1;
    head = args[0].replace(/%([sdifjoO%])/g, (match, kind: string) => {
      if (kind === '%') return '%';
      if (index >= args.length) return match;
      const value = args[index++];
      if (kind === 's') return typeof value === 'string' ? value : formatValue(value, false);
      if (kind === 'd' || kind === 'i') return String(kind === 'i' ? parseInt(String(value), 10) : Number(value));
      if (kind === 'f') return String(parseFloat(String(value)));
      return formatValue(value, true);
    });
    rest = args.slice(index);
    return [head, ...rest.map((a) => formatValue(a, false))].join(' ');
  }
  return rest.map((a) => formatValue(a, false)).join(' ');
}

export class ConsoleCapture {
  readonly entries: Entry[] = [];
  private chars = 0;
  private dropped = 0;

  add(level: Level, args: unknown[]): void {
    if (this.entries.length >= maxEntries || this.chars >= maxTotalChars) {
      this.dropped++;
      return;
    }
    let text = formatArgs(args);
    if (text.length > maxEntryChars) text = `${text.slice(0, maxEntryChars)}… (${text.length - maxEntryChars} more characters)`;
    this.chars += text.length;
    this.entries.push({ level, text });
  }

  /** Entries so far, with a note when some were dropped for size. */
  drain(): Entry[] {
    const out = this.entries.slice();
    if (this.dropped > 0) {
      out.push({ level: 'warn', text: `(${this.dropped} more console lines were dropped: at most ${maxEntries} lines or 1 MB per script)` });
    }
    return out;
  }

  /**
   * The script's `console`: an object of its own (a script may replace its methods) over methods
   * shared by every script, which write to the capture of the script running now. Scripts run one
   * at a time, their promise jobs before the next one starts; six closures per script cost more
   * than many a script's own code.
   */
  makeConsole(): Record<string, (...args: unknown[]) => void> {
    active = this;
    return Object.create(sharedConsole) as Record<string, (...args: unknown[]) => void>;
  }
}

let active: ConsoleCapture | undefined;
const write = (level: Level) => (...args: unknown[]) => active?.add(level, args);
const sharedConsole = Object.freeze({ log: write('log'), info: write('info'), warn: write('warn'), error: write('error'), debug: write('debug'), trace: write('debug') });
