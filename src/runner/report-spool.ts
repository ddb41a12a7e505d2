/**
 * Where a report keeps the parts it writes while a run goes on: text appended now and read back
 * once the run ends (the JSON report's summary comes before its results; JUnit's suites carry
 * their counts before their cases). Small reports stay in memory; past `FLUSH_CHARS` the text goes
 * to a file in a temporary folder, so memory does not grow with the run's length. A run killed
 * before its end (`kill -9`) cannot remove its folder: the next run with a report removes the
 * folders of this user's Ferry processes that no longer exist.
 */
import { appendFileSync, createReadStream, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '../support/process-alive.js';

/** Characters a spool holds in memory before they are appended to its file. */
const FLUSH_CHARS = 64 * 1024;
/** Characters read back at a time. */
const READ_CHARS = 1024 * 1024;

/** The temporary folder of one report's spools, made on the first flush and removed by `remove`. */
export class SpoolFolder {
  private dir: string | undefined;
  private count = 0;

  constructor() {
    removeOrphans(os.tmpdir());
  }

  spool(): Spool {
    const id = this.count++;
    return new Spool(() => path.join((this.dir ??= makeSpoolDir()), `${id}.part`));
  }

  async remove(): Promise<void> {
    if (this.dir) await fs.rm(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

const PREFIX = 'ferry-report-';

/** A new spool folder, named after this process so that a later run can tell when it is orphaned. */
function makeSpoolDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
}

/** Removes `ferry-report-<pid>-…` folders owned by this user whose process has ended (never following a link). */
export function removeOrphans(tmp: string): void {
  let names: string[];
  try {
    names = readdirSync(tmp).filter((name) => name.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^ferry-report-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isProcessAlive(pid)) continue;
    const folder = path.join(tmp, name);
    try {
      const stat = lstatSync(folder);
      if (stat.isDirectory() && stat.uid === process.getuid?.()) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove: a leftover is no reason to fail a run.
    }
  }
}

export class Spool {
  private pending = '';
  private file: string | undefined;

  constructor(private readonly fileFor: () => string) {}

  append(text: string): void {
    this.pending += text;
    if (this.pending.length >= FLUSH_CHARS) this.flush();
  }

  /** The text appended so far, in pieces of about 1 MB, each ending at a line's end when it can. */
  async *read(): AsyncGenerator<string> {
    if (this.file) {
      this.flush();
      let carry = '';
      for await (const chunk of createReadStream(this.file, { encoding: 'utf8', highWaterMark: READ_CHARS })) {
        const text = carry + (chunk as string);
        const cut = text.lastIndexOf('\n') + 1;
        if (cut === 0) {
          carry = text;
          continue;
        }
        carry = text.slice(cut);
        yield text.slice(0, cut);
      }
      if (carry) yield carry;
    } else if (this.pending) yield this.pending;
  }

  private flush(): void {
    if (!this.pending) return;
    this.file ??= this.fileFor();
    appendFileSync(this.file, this.pending);
    this.pending = '';
  }
}
