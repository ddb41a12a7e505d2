/**
 * Printing many lines without ever blocking the process: `ferry serve` prints one line per request,
 * and a write to a pipe or file is synchronous in Node, so a slow reader (a terminal, a pager)
 * would slow every answer down. Lines are queued and written by one asynchronous write at a time
 * (in libuv's thread pool); the queue is bounded, and lines past the bound are counted and the
 * count printed instead.
 */
import { write } from 'node:fs';
import { performance } from 'node:perf_hooks';

const DEFAULT_MAX_PENDING_BYTES = 8 * 1024 * 1024;
/**
 * Right after a write, lines are gathered for up to this long (or this many bytes) before the next
 * one: each write wakes a thread-pool thread and then the main thread again, which costs far more
 * than the bytes. At thousands of lines a second this makes a few dozen writes instead of thousands;
 * a line after a quiet spell still goes out at once.
 */
const GATHER_MS = 20;
const GATHER_BYTES = 64 * 1024;

export interface LinePrinter {
  /** Queues lines (each gets a newline). */
  print(lines: string): void;
  /** Resolves when everything queued so far is written. */
  flush(): Promise<void>;
}

/** Writes to a file descriptor (1 = standard output) asynchronously. */
export function fdPrinter(fd: number, maxPendingBytes = DEFAULT_MAX_PENDING_BYTES): LinePrinter {
  // Kept as bytes: text encoded at once dies young, while lines waiting to be gathered would
  // otherwise live long enough to burden the garbage collector.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  let writing = false;
  let failed = false;
  let idle: (() => void)[] = [];
  let lastWriteEnd = -Infinity;
  let gathering: NodeJS.Timeout | undefined;

  const pump = (): void => {
    if (writing || gathering !== undefined) return;
    if (dropped > 0 && pendingBytes < maxPendingBytes) {
      pending.push(Buffer.from(`… ${dropped} line${dropped === 1 ? '' : 's'} not printed: the output could not keep up (the servers did not wait for it)\n`, 'utf8'));
      dropped = 0;
    }
    if (pending.length === 0 || failed) {
      for (const resolve of idle.splice(0)) resolve();
      return;
    }
    const sinceWrite = performance.now() - lastWriteEnd;
    if (sinceWrite < GATHER_MS && pendingBytes < GATHER_BYTES && idle.length === 0) {
      gathering = setTimeout(() => {
        gathering = undefined;
        pump();
      }, GATHER_MS - sinceWrite);
      return;
    }
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    writing = true;
    const writeFrom = (offset: number): void => {
      write(fd, chunk, offset, chunk.length - offset, null, (error, written) => {
        if (error) {
          failed = true; // the reader went away (EPIPE): stop printing, keep serving
          writing = false;
          pump();
          return;
        }
        if (offset + written < chunk.length) return writeFrom(offset + written);
        writing = false;
        lastWriteEnd = performance.now();
        pump();
      });
    };
    writeFrom(0);
  };

  return {
    print(lines) {
      if (failed) return;
      if (pendingBytes > maxPendingBytes) {
        dropped += countLines(lines);
        return;
      }
      const bytes = Buffer.from(lines.endsWith('\n') ? lines : `${lines}\n`, 'utf8');
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (gathering !== undefined && pendingBytes >= GATHER_BYTES) {
        clearTimeout(gathering); // enough gathered: write now
        gathering = undefined;
      }
      pump();
    },
    flush() {
      if (!writing && pending.length === 0 && dropped === 0) return Promise.resolve();
      return new Promise((resolve) => {
        idle.push(resolve);
        clearTimeout(gathering); // someone waits: write now
        gathering = undefined;
        pump();
      });
    },
  };
}

/** For outputs that are not a file descriptor (tests, the app): print through them directly. */
export function outputPrinter(out: (text: string) => void): LinePrinter {
  return { print: (lines) => out(lines), flush: () => Promise.resolve() };
}

function countLines(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
