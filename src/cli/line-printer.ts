/**
 * Printing many lines without ever blocking the process: `ferry serve` prints one line per request,
 * and a write to a pipe is synchronous in Node, so a slow reader (a pager, `| grep`) would slow
 * every answer down. Lines are queued and written by one asynchronous write at a time (in libuv's
 * thread pool); the queue is bounded, and lines past the bound are counted and the count printed
 * instead. A regular file has no reader to wait for: it is written directly, as Node writes
 * `process.stdout` to a file, since handing a write to the thread pool costs the process ~100 µs
 * of CPU (measured on the 2-core bench machine) against a few µs for the write itself.
 */
import { fstatSync, writev, writevSync } from 'node:fs';
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
/** Written chunks kept for reuse (each GATHER_BYTES): enough for the one being written and the next. */
const SPARE_CHUNKS = 4;

export interface LinePrinter {
  /** Queues lines (each gets a newline). */
  print(lines: string): void;
  /** Queues each of `lines` (none ending with a newline) as a line of its own: what `print(lines.join('\n'))` would. */
  printEach(lines: readonly string[]): void;
  /** Queues one line per item, written by `line` straight into the output: what `printEach(items.map(line.text))` would print. */
  printWritten<T>(items: readonly T[], line: LineWriter<T>): void;
  /** Resolves when everything queued so far is written. */
  flush(): Promise<void>;
}

/**
 * A line's two forms: its UTF-8 bytes, written where they go (no string per line, thousands a
 * second), and its text, for outputs that take text.
 */
export interface LineWriter<T> {
  /** Bytes `write` writes for the item at most. */
  maxBytes(item: T): number;
  /** Writes the item's line (no newline) into `out` from `at`, which has room for `maxBytes(item)`; returns where it ends. */
  write(item: T, out: Buffer, at: number): number;
  text(item: T): string;
}

/** Bytes queued for writing; `reusable` is the whole chunk when `bytes` is the start of one. */
interface Queued {
  bytes: Buffer;
  reusable: Buffer | undefined;
}

/**
 * Writes to a file descriptor (1 = standard output) asynchronously. Text is encoded straight into
 * 64 KB chunks that are reused once written: encoding a batch into a Buffer of its own allocated
 * memory outside the heap for every batch (thousands a second), which cost more than the encoding.
 */
export function fdPrinter(fd: number, maxPendingBytes = DEFAULT_MAX_PENDING_BYTES): LinePrinter {
  const spare: Buffer[] = [];
  /** Full chunks (and oversized texts) waiting for the next write, in order. */
  let queued: Queued[] = [];
  let queuedBytes = 0;
  /** The chunk lines are being encoded into, and how much of it is used. */
  let chunk: Buffer | undefined;
  let used = 0;
  let dropped = 0;
  let writing = false;
  let failed = false;
  let idle: (() => void)[] = [];
  let lastWriteEnd = -Infinity;
  let gathering: NodeJS.Timeout | undefined;
  const regularFile = isRegularFile(fd);

  const pendingBytes = () => queuedBytes + used;

  /** Moves the chunk being filled to the queue. */
  const seal = (): void => {
    if (chunk === undefined) return;
    if (used > 0) {
      queued.push({ bytes: chunk.subarray(0, used), reusable: chunk });
      queuedBytes += used;
    } else if (spare.length < SPARE_CHUNKS) {
      spare.push(chunk);
    }
    chunk = undefined;
    used = 0;
  };

  /** Encodes one line (text without its newline) into the chunk. */
  const encode = (text: string): void => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: room for that is room enough.
    const most = text.length * 3 + 1;
    if (chunk === undefined || used + most > chunk.length) {
      seal();
      if (most > GATHER_BYTES) {
        const bytes = Buffer.from(`${text}\n`, 'utf8');
        queued.push({ bytes, reusable: undefined });
        queuedBytes += bytes.length;
        return;
      }
      chunk = spare.pop() ?? Buffer.allocUnsafeSlow(GATHER_BYTES);
    }
    used += chunk.write(text, used);
    chunk[used++] = 10; // \n
  };

  /**
   * Encodes lines (each without its newline): those that surely fit the chunk's free room are joined
   * and encoded by one write. A write per line cost more than the line's bytes (each line was first
   * copied flat, then encoded by a call of its own); joining copies each line once.
   */
  const encodeEach = (lines: readonly string[]): void => {
    for (let from = 0; from < lines.length; ) {
      const room = chunk === undefined ? 0 : chunk.length - used;
      let most = 0;
      let to = from;
      while (to < lines.length && most + lines[to]!.length * 3 + 1 <= room) most += lines[to++]!.length * 3 + 1;
      if (to - from <= 1) {
        encode(lines[from]!); // into a new chunk when the line does not fit this one
        from++;
        continue;
      }
      const group = from === 0 && to === lines.length ? lines : lines.slice(from, to);
      used += chunk!.write(group.join('\n'), used);
      chunk![used++] = 10; // \n
      from = to;
    }
  };

  /** Writes each item's line into the chunk (a new chunk when it may not fit this one). */
  const writeEach = <T>(items: readonly T[], line: LineWriter<T>): void => {
    for (const item of items) {
      const most = line.maxBytes(item) + 1;
      if (chunk === undefined || used + most > chunk.length) {
        if (most > GATHER_BYTES) {
          encode(line.text(item));
          continue;
        }
        seal();
        chunk = spare.pop() ?? Buffer.allocUnsafeSlow(GATHER_BYTES);
      }
      used = line.write(item, chunk, used);
      chunk[used++] = 10; // \n
    }
  };

  const pump = (): void => {
    if (writing || gathering !== undefined) return;
    if (dropped > 0 && pendingBytes() < maxPendingBytes) {
      encode(`… ${dropped} line${dropped === 1 ? '' : 's'} not printed: the output could not keep up (the servers did not wait for it)`);
      dropped = 0;
    }
    if (pendingBytes() === 0 || failed) {
      for (const resolve of idle.splice(0)) resolve();
      return;
    }
    const sinceWrite = performance.now() - lastWriteEnd;
    if (sinceWrite < GATHER_MS && pendingBytes() < GATHER_BYTES && idle.length === 0) {
      gathering = setTimeout(() => {
        gathering = undefined;
        pump();
      }, GATHER_MS - sinceWrite);
      return;
    }
    seal();
    const batch = queued;
    queued = [];
    queuedBytes = 0;
    const written = (): void => {
      for (const { reusable } of batch) if (reusable !== undefined && spare.length < SPARE_CHUNKS) spare.push(reusable);
      lastWriteEnd = performance.now();
    };
    if (regularFile) {
      try {
        for (let rest = batch.map((q) => q.bytes); rest.length > 0; ) rest = unwritten(rest, writevSync(fd, rest));
        written();
      } catch {
        failed = true; // the disk is full, say: stop printing, keep serving
      }
      pump(); // resolves flush() calls
      return;
    }
    writing = true;
    const writeFrom = (buffers: Buffer[]): void => {
      writev(fd, buffers, null, (error, bytes) => {
        if (error) {
          failed = true; // the reader went away (EPIPE): stop printing, keep serving
          writing = false;
          pump();
          return;
        }
        const rest = unwritten(buffers, bytes);
        if (rest.length > 0) return writeFrom(rest);
        written();
        writing = false;
        pump();
      });
    };
    writeFrom(batch.map((q) => q.bytes));
  };

  /** `each`: every item of `lines` is one line without its newline (printEach), else text that may end with one (print). */
  const queue = (lines: readonly string[], each: boolean): void => {
    if (failed) return;
    if (pendingBytes() > maxPendingBytes) {
      for (const text of lines) dropped += countLines(text);
      return;
    }
    if (each) encodeEach(lines);
    else for (const text of lines) encode(text.endsWith('\n') ? text.slice(0, -1) : text);
    afterQueueing();
  };

  const queueWritten = <T>(items: readonly T[], line: LineWriter<T>): void => {
    if (failed) return;
    if (pendingBytes() > maxPendingBytes) {
      dropped += items.length;
      return;
    }
    writeEach(items, line);
    afterQueueing();
  };

  /** After lines were queued: write now when enough is gathered, else when the gathering ends. */
  const afterQueueing = (): void => {
    if (gathering !== undefined && pendingBytes() >= GATHER_BYTES) {
      clearTimeout(gathering); // enough gathered: write now
      gathering = undefined;
    }
    pump();
  };

  return {
    print: (lines) => queue([lines], false),
    printEach: (lines) => queue(lines, true),
    printWritten: queueWritten,
    flush() {
      if (!writing && pendingBytes() === 0 && dropped === 0) return Promise.resolve();
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
  return {
    print: (lines) => out(lines),
    printEach: (lines) => out(lines.join('\n')),
    printWritten: (items, line) => out(items.map((item) => line.text(item)).join('\n')),
    flush: () => Promise.resolve(),
  };
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

/** What is left of `buffers` after the first `written` bytes went out (a write may be partial). */
function unwritten(buffers: Buffer[], written: number): Buffer[] {
  let skip = written;
  for (let i = 0; i < buffers.length; i++) {
    const length = buffers[i]!.length;
    if (skip < length) return [buffers[i]!.subarray(skip), ...buffers.slice(i + 1)];
    skip -= length;
  }
  return [];
}

function countLines(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
