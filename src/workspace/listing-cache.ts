/**
 * The listing cache (issue 21: `ferry ls` of 30,000 requests in under a second), like git's index:
 * for each file of one workspace a listing reads (request files, `_folder.yaml`, `ferry.yaml`,
 * environments, servers, load tests), what the listing keeps of it (its summary, or the warning of
 * a broken file) under the file's identity — size, modification and change times, inode, device —
 * as `lstat` gives it. A file whose identity is unchanged is not read again; any other is read and
 * checked as without a cache. The cache lives in this computer's data folder, never in the
 * workspace, and only `ferry ls` uses it (docs/workspace.md, "The listing cache").
 *
 * Correctness first (a stale listing is worse than a slow one):
 * - the identity is taken before the file is read, so a change while reading makes it differ next time;
 * - a file changed within RACY_MS of the listing's start is not kept: a second change in the same
 *   timestamp tick (or on a file system with 2-second times) could leave its identity unchanged.
 *   So any change to a kept file sets its change time (which no program can set back) seconds
 *   after the kept one: the times are compared as `lstat` gives them in milliseconds (a fraction of
 *   a microsecond apart at most from the nanoseconds), far finer than that;
 * - only what the file's text gives is kept; a file that could not be read (a link, gone, no
 *   permission) is read again every time;
 * - the cache names Ferry's version, the workspace format version and this build (its module file's
 *   size and time), so another Ferry never reads it; a cache that is corrupt, truncated, of another
 *   folder or too big is ignored and written again (temporary file, then rename).
 *
 * Its file: a JSON header line; the identities, five 64-bit numbers per entry in this computer's
 * byte order; then the other columns as JSON (ASCII): labels (one string, each label ended by a
 * NUL, which no path holds), values (null for a broken file), warnings (index and warning). Reading
 * 30,000 entries so makes few objects — a value each, one string for all labels — and parses no
 * number (bench/ls.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
// Nothing here loads the model's schemas or a YAML parser: a listing whose files are all unchanged
// needs neither. They load (`FileParsing`) only when a file must be read.
import { FORMAT_VERSION } from '../model/constants.js';
import type { FolderSummary, RequestSummary, ResourceKind } from '../model/index.js';
import type { ReadOutcomeOf } from './read-resource.js';
import { LISTING_FOLDER_DEFAULTS, type TreeReader } from './tree.js';
import type { Warning } from './types.js';
import { makeDirsSync } from '../support/make-dirs.js';

/** Where a workspace's listing cache lives and who writes it; given by the face (`ferry ls`), which knows the data folder. */
export interface ListingCacheOptions {
  /** The folder of listing caches, one file per workspace folder: in this computer's data folder. */
  dir: string;
  /** Ferry's version: a cache written by another version is not read. */
  version: string;
}

/** Bump when what a file gives a listing changes (a message, a check) without the version changing, or the file's layout. */
const CACHE_FORMAT = 7;
/** A file changed less than this before the listing started is read but not kept (racy: see above). */
const RACY_MS = 3000;
/** A bigger cache is neither written nor read (a workspace of about a million requests). */
const MAX_CACHE_BYTES = 128 * 1024 * 1024;
/** Caches of this many workspace folders at most; the least recently written go first. */
const MAX_CACHES = 32;
const MAGIC = 'ferry listing cache';
const CACHE_EXTENSION = '.cache';
/** Numbers of a file's identity: size, modification and change times (ms), inode, device. */
const IDENTITY_SIZE = 5;
const IDENTITY_BYTES = IDENTITY_SIZE * Float64Array.BYTES_PER_ELEMENT;

/**
 * How a file the cache cannot give is read (read-resource.ts's reading and checks): loaded by the
 * caller only when a file must be read (`NeedsParsing`). Every kind gives its listing summary.
 */
export interface FileParsing {
  readText(absolute: string, label: string): { ok: true; text: string } | { ok: false; warning: Warning };
  outcome(kind: ResourceKind, text: string, label: string): ReadOutcomeOf<unknown>;
}

/** Thrown when a file must be read and no `FileParsing` is loaded yet: load it (`ListingCache.parsing`) and read again. */
export class NeedsParsing extends Error {
  override name = 'NeedsParsing';
}

/** A file's identity as `lstat` gave it before the file was read. */
export interface Identity {
  stat: Stats;
}

/** The cache file's entries, column by column (entry i: `labels.at(i)`, `identities[5i..5i+4]`, …). */
interface Columns {
  labels: Labels;
  identities: Float64Array;
  /** The value a file gave; null when it is broken (its warning says why). */
  values: Array<object | null>;
  /** Only the entries with a warning have one (a sparse array). */
  warnings: Array<Warning | undefined>;
}

/** The columns as written: built entry by entry. */
interface WrittenColumns extends Omit<Columns, 'labels' | 'identities'> {
  labels: string[];
  identities: number[];
}

/** The labels column: one string, each label ended by a NUL (no path holds one), so 30,000 labels are one object. */
class Labels {
  /** Where each label starts in `text`; the last is the text's length. */
  private readonly starts: Uint32Array;

  /** Undefined when `text` does not hold `count` labels each ended by a NUL. */
  static of(text: string, count: number): Labels | undefined {
    const starts = new Uint32Array(count + 1);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const end = text.indexOf('\0', at);
      if (end < 0) return undefined;
      starts[i] = at;
      at = end + 1;
    }
    if (at !== text.length) return undefined;
    starts[count] = at;
    return new Labels(text, starts);
  }

  static join(labels: readonly string[]): string {
    return labels.length === 0 ? '' : `${labels.join('\0')}\0`;
  }

  private constructor(
    private readonly text: string,
    starts: Uint32Array,
  ) {
    this.starts = starts;
  }

  get length(): number {
    return this.starts.length - 1;
  }

  at(i: number): string {
    return this.text.slice(this.starts[i], this.starts[i + 1]! - 1);
  }

  /** True when entry i's label is `label` (no string made). */
  is(i: number, label: string): boolean {
    const start = this.starts[i]!;
    return this.starts[i + 1]! - 1 - start === label.length && this.text.startsWith(label, start);
  }
}

/** An entry of this listing: a file read now (its outcome kept under its identity), or null for one not kept. */
interface Fresh {
  identity: number[];
  outcome: ReadOutcomeOf<unknown>;
}

interface Header {
  magic: string;
  stamp: string;
  root: string;
  /** Of the body's bytes: a cache damaged on disk is not read. */
  crc32: number;
  entries: number;
}

export class ListingCache {
  /** The entry index of each label in `kept`: built only when a label is not where the walk's order puts it (see `entryOf`). */
  private index: Map<string, number> | undefined;
  /** The entry the listing most likely asks for next: the one after the last found. */
  private next = 0;
  /** Entries of `kept` found unchanged by this listing. */
  private readonly unchanged: Uint8Array;
  /** Files this listing read: their entry when fit to keep, null when not kept. They replace `kept`'s. */
  private readonly fresh = new Map<string, Fresh | null>();
  private changed = false;
  /** Files whose times are at or after this (ms) are not kept. */
  private readonly racyFrom: number;
  /** Set by the caller once a file had to be read (`NeedsParsing`). */
  parsing: FileParsing | undefined;

  private constructor(
    private readonly file: string,
    private readonly stamp: string,
    private readonly root: string,
    private readonly kept: Columns,
  ) {
    this.unchanged = new Uint8Array(kept.labels.length);
    this.racyFrom = Date.now() - RACY_MS;
  }

  /** The cache of the workspace in `root` (empty when there is none, or none this Ferry can trust); undefined when this build cannot be identified. */
  static open(options: ListingCacheOptions, root: string): ListingCache | undefined {
    const build = buildStamp();
    if (build === undefined) return undefined;
    const stamp = `${CACHE_FORMAT}; ferry ${options.version}; format ${FORMAT_VERSION}; build ${build}; ${os.endianness()}`;
    const file = path.join(options.dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}${CACHE_EXTENSION}`);
    return new ListingCache(file, stamp, root, readColumns(file, stamp, root));
  }

  /** The listing reader (`LISTING_READER`'s reading and warnings), taking unchanged files from the cache. */
  reader(): TreeReader<RequestSummary> {
    return {
      request: (absolute, label) => this.read('request', absolute, label) as ReadOutcomeOf<RequestSummary>,
      folder: (absolute, label) => this.read('folder', absolute, label) as ReadOutcomeOf<FolderSummary>,
      folderDefaults: LISTING_FOLDER_DEFAULTS,
    };
  }

  /**
   * What the file gives, from the cache when its identity is unchanged, else read (and kept when it
   * may be). Throws `NeedsParsing` when it must be read and `parsing` is not set.
   */
  read(kind: ResourceKind, absolute: string, label: string): ReadOutcomeOf<unknown> {
    // Never follows a link; anything but a plain file is left to the reader, which says what it is.
    const stat = lstatSync(absolute, { throwIfNoEntry: false });
    const plain = stat?.isFile() === true;
    if (plain) {
      const i = this.unchangedEntry(label, stat);
      if (i >= 0) return this.outcomeOf(i);
    }
    if (!this.parsing) throw new NeedsParsing(`${label} must be read`);
    const text = this.parsing.readText(absolute, label);
    const outcome = text.ok ? this.parsing.outcome(kind, text.text, label) : text;
    // Only what the text gives is kept.
    this.keep(label, text.ok && plain ? { stat } : undefined, outcome);
    return outcome;
  }

  /**
   * The outcome kept for a file whose identity is unchanged; otherwise the identity (taken now,
   * before the caller reads the file; none for anything but a plain file) to give `keep` with what
   * the file gave. `read` uses it; so does opening, for `ferry.yaml`, which it reads its own way.
   */
  lookUp(absolute: string, label: string): { outcome: ReadOutcomeOf<unknown> } | { identity: Identity | undefined } {
    // Never follows a link; anything but a plain file is left to the reader, which says what it is.
    const stat = lstatSync(absolute, { throwIfNoEntry: false });
    if (!stat?.isFile()) return { identity: undefined };
    const i = this.unchangedEntry(label, stat);
    return i >= 0 ? { outcome: this.outcomeOf(i) } : { identity: { stat } };
  }

  /** The entry of `label` when the file's identity is the kept one (marked unchanged), else -1. */
  private unchangedEntry(label: string, stat: Stats): number {
    const i = this.entryOf(label);
    if (i === undefined || !sameIdentity(this.kept.identities, i * IDENTITY_SIZE, stat)) return -1;
    this.unchanged[i] = 1;
    return i;
  }

  /**
   * The entry index of `label`. A listing visits files in the order the cache was written in (its
   * walk's), so the entry after the last one found is tried first: a warm listing of an unchanged
   * workspace then builds no map of 30,000 labels (bench/ls.ts).
   */
  private entryOf(label: string): number | undefined {
    const { labels } = this.kept;
    const guess = this.next;
    let i: number | undefined = guess < labels.length && labels.is(guess, label) ? guess : undefined;
    if (i === undefined) {
      if (!this.index) {
        this.index = new Map();
        for (let k = 0; k < labels.length; k++) this.index.set(labels.at(k), k);
      }
      i = this.index.get(label);
    }
    if (i !== undefined) this.next = i + 1;
    return i;
  }

  /** What the kept entry `i` gives. */
  private outcomeOf(i: number): ReadOutcomeOf<unknown> {
    const value = this.kept.values[i]!;
    const warning = this.kept.warnings[i];
    if (value === null) return { ok: false, warning: warning! };
    return warning === undefined ? { ok: true, value } : { ok: true, value, warning };
  }

  /** Keeps what a file gave under the identity taken before it was read (nothing when there is none, or when it is racy or not plain data). */
  keep(label: string, identity: Identity | undefined, outcome: ReadOutcomeOf<unknown>): void {
    const stat = identity?.stat;
    // Only from a file not changed in the racy interval, and only a value JSON gives back the same.
    if (stat && stat.mtimeMs < this.racyFrom && stat.ctimeMs < this.racyFrom && (!outcome.ok || isPlainData(outcome.value))) {
      this.fresh.set(label, { identity: [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.dev], outcome });
      this.changed = true;
    } else {
      this.fresh.set(label, null);
      if (this.entryOf(label) !== undefined) this.changed = true;
    }
  }

  /** True when an entry of the cache was neither found unchanged nor read again: its file is gone. */
  private anyGone(): boolean {
    const { labels } = this.kept;
    for (let i = 0; i < labels.length; i++) if (this.unchanged[i] === 0 && !this.fresh.has(labels.at(i))) return true;
    return false;
  }

  /**
   * Writes the cache when this listing changed it. `whole`: every file of the workspace was
   * visited, so files not seen are gone; otherwise (`ferry ls PATH`) the other files' entries stay.
   */
  save(whole: boolean): void {
    // A whole listing drops the entries of files gone since.
    if (!this.changed && !(whole && this.anyGone())) return;
    const columns: WrittenColumns = { labels: [], identities: [], values: [], warnings: [] };
    const { labels, identities } = this.kept;
    for (let i = 0; i < labels.length; i++) {
      const label = labels.at(i);
      if (this.fresh.has(label) || (whole && this.unchanged[i] === 0)) continue;
      const value = this.kept.values[i]!;
      const warning = this.kept.warnings[i];
      add(columns, label, identities.slice(i * IDENTITY_SIZE, (i + 1) * IDENTITY_SIZE), value === null ? { ok: false, warning: warning! } : warning ? { ok: true, value, warning } : { ok: true, value });
    }
    for (const [label, entry] of this.fresh) if (entry) add(columns, label, entry.identity, entry.outcome);
    try {
      writeCache(this.file, this.stamp, this.root, columns);
    } catch {
      // A cache that cannot be written (read-only data folder, full disk) only costs speed next time;
      // an old one is removed if it can be (its entries are still checked file by file if not).
      try {
        rmSync(this.file, { force: true });
      } catch {
        // nothing more to do
      }
    }
  }
}

function add(columns: WrittenColumns, label: string, identity: ArrayLike<number>, outcome: ReadOutcomeOf<unknown>): void {
  const i = columns.labels.length;
  columns.labels.push(label);
  for (let k = 0; k < IDENTITY_SIZE; k++) columns.identities.push(identity[k]!);
  columns.values.push(outcome.ok ? (outcome.value as object) : null);
  if (outcome.warning) columns.warnings[i] = outcome.warning;
}

/** The file is as it was when its entry was kept: size, modification and change times, inode, device. */
function sameIdentity(identities: Columns['identities'], at: number, stat: Stats): boolean {
  return identities[at] === stat.size && identities[at + 1] === stat.mtimeMs && identities[at + 2] === stat.ctimeMs && identities[at + 3] === stat.ino && identities[at + 4] === stat.dev;
}

/**
 * True when JSON gives the value back as it is: strings, finite numbers, booleans, null, arrays
 * and plain objects (an undefined field is left out, as when absent). What a file gives is such
 * data; anything else is read from the file every time rather than cached changed.
 */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isPlainData);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const field of Object.values(value)) if (field !== undefined && !isPlainData(field)) return false;
  return true;
}

/** This build of Ferry: the size and time of this module's file (rewritten by every build). */
function buildStamp(): string | undefined {
  try {
    const stat = statSync(fileURLToPath(import.meta.url), { bigint: true });
    return `${stat.size}:${stat.mtimeNs}`;
  } catch {
    return undefined;
  }
}

const NO_ENTRIES = (): Columns => ({ labels: Labels.of('', 0)!, identities: new Float64Array(0), values: [], warnings: [] });

/** The entries of a cache file this Ferry wrote for this folder; none when it is missing, corrupt, foreign or too big. */
function readColumns(file: string, stamp: string, root: string): Columns {
  let bytes: Buffer;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (fstatSync(fd).size > MAX_CACHE_BYTES) return NO_ENTRIES();
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return NO_ENTRIES();
  }
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return NO_ENTRIES();
  try {
    const header = JSON.parse(bytes.toString('utf8', 0, newline)) as Partial<Header>;
    if (header.magic !== MAGIC || header.stamp !== stamp || header.root !== root) return NO_ENTRIES();
    const body = bytes.subarray(newline + 1);
    if (header.crc32 !== crc32(body)) return NO_ENTRIES();
    const entries = header.entries;
    if (typeof entries !== 'number' || !Number.isInteger(entries) || entries < 0 || body.length < entries * IDENTITY_BYTES) return NO_ENTRIES();
    // Copied into an array of their own: a Float64Array needs its 8-byte alignment.
    const identities = new Float64Array(entries * IDENTITY_SIZE);
    new Uint8Array(identities.buffer).set(body.subarray(0, entries * IDENTITY_BYTES));
    // The rest is ASCII (see writeCache): latin1 decodes it without UTF-8's cost.
    const stored = JSON.parse(body.toString('latin1', entries * IDENTITY_BYTES)) as unknown;
    return columnsOf(stored, identities) ?? NO_ENTRIES();
  } catch {
    return NO_ENTRIES();
  }
}

/** The columns a cache file holds, checked; undefined when anything is amiss. */
function columnsOf(stored: unknown, identities: Float64Array): Columns | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { labels: labelText, values, warnings } = stored as Record<string, unknown>;
  if (typeof labelText !== 'string' || !Array.isArray(values) || !Array.isArray(warnings)) return undefined;
  const n = values.length;
  const labels = Labels.of(labelText, n);
  if (!labels || identities.length !== n * IDENTITY_SIZE) return undefined;
  for (let i = 0; i < n; i++) if (typeof values[i] !== 'object') return undefined;
  const byIndex: Array<Warning | undefined> = [];
  for (const pair of warnings) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const [i, warning] = pair as [unknown, unknown];
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= n || typeof warning !== 'object' || warning === null || typeof (warning as Warning).message !== 'string') return undefined;
    byIndex[i] = warning as Warning;
  }
  // A broken file's entry is its warning.
  for (let i = 0; i < n; i++) if (values[i] === null && byIndex[i] === undefined) return undefined;
  return { labels, identities, values: values as Array<object | null>, warnings: byIndex };
}

/** Written whole to a temporary file, then renamed over the old one: a reader sees the old cache or the new, never a part. */
function writeCache(file: string, stamp: string, root: string, columns: WrittenColumns): void {
  const warnings: Array<[number, Warning]> = [];
  columns.warnings.forEach((warning, i) => warning && warnings.push([i, warning]));
  const json = JSON.stringify({ labels: Labels.join(columns.labels), values: columns.values, warnings });
  const identities = Buffer.from(Float64Array.from(columns.identities).buffer);
  // ASCII only (other characters as \u escapes, which JSON reads back the same), so it reads back as latin1.
  const columnsText = Buffer.from(json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), 'latin1');
  const body = Buffer.concat([identities, columnsText]);
  const dir = path.dirname(file);
  if (body.length > MAX_CACHE_BYTES) {
    rmSync(file, { force: true });
    return;
  }
  const header: Header = { magic: MAGIC, stamp, root, crc32: crc32(body), entries: columns.labels.length };
  makeDirsSync(dir, 0o700);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]), { flag: 'wx', mode: 0o600 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  try {
    prune(dir, file);
  } catch {
    // Others' caches stay until the next write; this one is written.
  }
}

/** At most MAX_CACHES workspaces' caches: the least recently written go, and temporary files a crash left, and caches of the JSON layout older Ferrys wrote (`.json`, never read again). */
function prune(dir: string, current: string): void {
  const caches: Array<{ file: string; time: number }> = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (!stat || file === current) continue;
    if ((name.endsWith('.tmp') && Date.now() - stat.mtimeMs > 60_000) || name.endsWith('.json')) rmSync(file, { force: true });
    else if (name.endsWith(CACHE_EXTENSION)) caches.push({ file, time: stat.mtimeMs });
  }
  caches.sort((a, b) => b.time - a.time);
  for (const old of caches.slice(MAX_CACHES - 1)) rmSync(old.file, { force: true });
}
