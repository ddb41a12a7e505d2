/**
 * The listing cache (issue 21: `ferry ls` of 30,000 requests in under a second), like git's index:
 * for each request file and `_folder.yaml` of one workspace, what a listing keeps of it (its summary,
 * or the warning of a broken file) under the file's identity — size, modification and change times
 * in nanoseconds, inode, device — as `lstat` gives it. A file whose identity is unchanged is not
 * read again; any other is read and checked as without a cache. The cache lives in this computer's
 * data folder, never in the workspace, and only `ferry ls` uses it (docs/cli.md, "The listing cache").
 *
 * Correctness first (a stale listing is worse than a slow one):
 * - the identity is taken before the file is read, so a change while reading makes it differ next time;
 * - a file changed within RACY_MS of the listing's start is not kept: a second change in the same
 *   timestamp tick (or on a file system with 2-second times) could leave its identity unchanged;
 * - only what the file's text gives is kept; a file that could not be read (a link, gone, no
 *   permission) is read again every time;
 * - the cache names Ferry's version, the workspace format version and this build (its module file's
 *   size and time), so another Ferry never reads it; a cache that is corrupt, truncated, of another
 *   folder or too big is ignored and written again (temporary file, then rename).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type BigIntStats } from 'node:fs';
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

/** Where a workspace's listing cache lives and who writes it; given by the face (`ferry ls`), which knows the data folder. */
export interface ListingCacheOptions {
  /** The folder of listing caches, one file per workspace folder: in this computer's data folder. */
  dir: string;
  /** Ferry's version: a cache written by another version is not read. */
  version: string;
}

/** Bump when what a file gives a listing changes (a message, a check) without the version changing. */
const CACHE_FORMAT = 1;
/** A file changed less than this before the listing started is read but not kept (racy: see above). */
const RACY_MS = 3000;
/** A bigger cache is neither written nor read (a workspace of about a million requests). */
const MAX_CACHE_BYTES = 128 * 1024 * 1024;
/** Caches of this many workspace folders at most; the least recently written go first. */
const MAX_CACHES = 32;
const MAGIC = 'ferry listing cache';

/**
 * How a file the cache cannot give is read (read-resource.ts's reading and checks): loaded by the
 * caller only when a file must be read (`NeedsParsing`). Requests and folders give their summary,
 * every other kind its whole value.
 */
export interface FileParsing {
  readText(absolute: string, label: string): { ok: true; text: string } | { ok: false; warning: Warning };
  outcome(kind: ResourceKind, text: string, label: string): ReadOutcomeOf<unknown>;
}

/** Thrown when a file must be read and no `FileParsing` is loaded yet: load it (`ListingCache.parsing`) and read again. */
export class NeedsParsing extends Error {
  override name = 'NeedsParsing';
}

/** One file: its label (path in the workspace, which says what it was read as), its identity, what it gave. */
interface Entry {
  label: string;
  identity: string;
  outcome: ReadOutcomeOf<unknown>;
}
/** An entry as the file holds it: the value (null for a broken file) and the warning, if any. */
type StoredEntry = [label: string, identity: string, value: object | null, warning?: Warning];

interface Header {
  magic: string;
  stamp: string;
  root: string;
  /** Of the body's bytes: a cache damaged on disk is not read. */
  crc32: number;
  entries: number;
}

export class ListingCache {
  /** The entries found in the cache file, by label. */
  private readonly kept: Map<string, Entry>;
  /** The files this listing looked at: their entry when found unchanged or read and fit to keep, null when not kept. */
  private readonly seen = new Map<string, Entry | null>();
  private changed = false;
  /** Files whose times are at or after this (nanoseconds) are not kept. */
  private readonly racyFrom: bigint;
  /** Set by the caller once a file had to be read (`NeedsParsing`). */
  parsing: FileParsing | undefined;

  private constructor(
    private readonly file: string,
    private readonly stamp: string,
    private readonly root: string,
    kept: Map<string, Entry>,
  ) {
    this.kept = kept;
    this.racyFrom = BigInt(Date.now() - RACY_MS) * 1_000_000n;
  }

  /** The cache of the workspace in `root` (empty when there is none, or none this Ferry can trust); undefined when this build cannot be identified. */
  static open(options: ListingCacheOptions, root: string): ListingCache | undefined {
    const build = buildStamp();
    if (build === undefined) return undefined;
    const stamp = `${CACHE_FORMAT}; ferry ${options.version}; format ${FORMAT_VERSION}; build ${build}`;
    const file = path.join(options.dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);
    return new ListingCache(file, stamp, root, readEntries(file, stamp, root));
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
    const { stat, identity, entry } = this.look(absolute, label);
    if (entry) return entry.outcome;
    if (!this.parsing) throw new NeedsParsing(`${label} must be read`);
    const text = this.parsing.readText(absolute, label);
    const outcome = text.ok ? this.parsing.outcome(kind, text.text, label) : text;
    // Only what the text gives is kept.
    this.keep(label, text.ok && identity !== undefined ? { stat: stat!, identity } : undefined, outcome);
    return outcome;
  }

  /**
   * The outcome kept for a file whose identity is unchanged; otherwise undefined, and the identity
   * (taken now, before the caller reads the file) to give `keep` with what the file gave. For a
   * file read its own way (`ferry.yaml`, which opening checks before it validates).
   */
  lookUp(absolute: string, label: string): { outcome: ReadOutcomeOf<unknown> } | { identity: Identity | undefined } {
    const { stat, identity, entry } = this.look(absolute, label);
    return entry ? { outcome: entry.outcome } : { identity: identity === undefined ? undefined : { stat: stat!, identity } };
  }

  /** Keeps what a file gave under the identity taken before it was read (nothing when there is none, or when it is racy or not plain data). */
  keep(label: string, identity: Identity | undefined, outcome: ReadOutcomeOf<unknown>): void {
    const kept = this.kept.get(label);
    // Only from a file not changed in the racy interval, and only a value JSON gives back the same.
    if (identity !== undefined && identity.stat.mtimeNs < this.racyFrom && identity.stat.ctimeNs < this.racyFrom && (!outcome.ok || isPlainData(outcome.value))) {
      this.seen.set(label, { label, identity: identity.identity, outcome });
      this.changed = true;
    } else {
      this.seen.set(label, null);
      if (kept) this.changed = true;
    }
  }

  private look(absolute: string, label: string): { stat: BigIntStats | undefined; identity: string | undefined; entry: Entry | undefined } {
    // Never follows a link; anything but a plain file is left to the reader, which says what it is.
    const stat = lstatSync(absolute, { bigint: true, throwIfNoEntry: false });
    const identity = stat?.isFile() ? identityOf(stat) : undefined;
    const entry = this.kept.get(label);
    if (identity !== undefined && entry?.identity === identity) {
      this.seen.set(label, entry);
      return { stat, identity, entry };
    }
    return { stat, identity, entry: undefined };
  }

  private anyGone(): boolean {
    for (const label of this.kept.keys()) if (!this.seen.has(label)) return true;
    return false;
  }

  /**
   * Writes the cache when this listing changed it. `whole`: every file of the tree was visited,
   * so files not seen are gone; otherwise (`ferry ls PATH`) the other files' entries stay.
   */
  save(whole: boolean): void {
    // A whole listing drops the entries of files gone since.
    if (!this.changed && !(whole && this.anyGone())) return;
    const entries = new Map(whole ? [] : [...this.kept].filter(([label]) => !this.seen.has(label)));
    for (const [label, entry] of this.seen) if (entry) entries.set(label, entry);
    try {
      writeCache(this.file, this.stamp, this.root, [...entries.values()]);
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

/** A file's identity as `lstat` gave it before the file was read. */
export interface Identity {
  stat: BigIntStats;
  identity: string;
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

/** What says a file is unchanged: size, modification and change times (ns), inode, device. */
function identityOf(stat: BigIntStats): string {
  return `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}:${stat.dev}`;
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

/** The entries of a cache file this Ferry wrote for this folder; none when it is missing, corrupt, foreign or too big. */
function readEntries(file: string, stamp: string, root: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let bytes: Buffer;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (fstatSync(fd).size > MAX_CACHE_BYTES) return entries;
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return entries;
  }
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return entries;
  try {
    const header = JSON.parse(bytes.toString('utf8', 0, newline)) as Partial<Header>;
    if (header.magic !== MAGIC || header.stamp !== stamp || header.root !== root) return entries;
    const body = bytes.subarray(newline + 1);
    if (header.crc32 !== crc32(body)) return entries;
    // The body is ASCII (see writeCache): latin1 decodes it without UTF-8's cost.
    const list = JSON.parse(body.toString('latin1')) as unknown;
    if (!Array.isArray(list) || list.length !== header.entries) return entries;
    for (const stored of list) {
      const entry = entryOf(stored);
      if (!entry) return new Map();
      entries.set(entry.label, entry);
    }
  } catch {
    entries.clear();
  }
  return entries;
}

function entryOf(stored: unknown): Entry | undefined {
  if (!Array.isArray(stored) || stored.length < 3 || stored.length > 4) return undefined;
  const [label, identity, value, warning] = stored as unknown[];
  if (typeof label !== 'string' || typeof identity !== 'string' || typeof value !== 'object') return undefined;
  if (warning !== undefined && (typeof warning !== 'object' || warning === null || typeof (warning as Warning).message !== 'string')) return undefined;
  if (value === null) return warning === undefined ? undefined : { label, identity, outcome: { ok: false, warning: warning as Warning } };
  return { label, identity, outcome: warning === undefined ? { ok: true, value } : { ok: true, value, warning: warning as Warning } };
}

function stored({ label, identity, outcome }: Entry): StoredEntry {
  if (!outcome.ok) return [label, identity, null, outcome.warning];
  return outcome.warning ? [label, identity, outcome.value as object, outcome.warning] : [label, identity, outcome.value as object];
}

/** Written whole to a temporary file, then renamed over the old one: a reader sees the old cache or the new, never a part. */
function writeCache(file: string, stamp: string, root: string, entries: Entry[]): void {
  // ASCII only (other characters as \u escapes, which JSON reads back the same), so it reads back as latin1.
  const body = Buffer.from(JSON.stringify(entries.map(stored)).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), 'latin1');
  const dir = path.dirname(file);
  if (body.length > MAX_CACHE_BYTES) {
    rmSync(file, { force: true });
    return;
  }
  const header: Header = { magic: MAGIC, stamp, root, crc32: crc32(body), entries: entries.length };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
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

/** At most MAX_CACHES workspaces' caches: the least recently written go, and temporary files a crash left. */
function prune(dir: string, current: string): void {
  const caches: Array<{ file: string; time: number }> = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (!stat || file === current) continue;
    if (name.endsWith('.tmp') && Date.now() - stat.mtimeMs > 60_000) rmSync(file, { force: true });
    else if (name.endsWith('.json')) caches.push({ file, time: stat.mtimeMs });
  }
  caches.sort((a, b) => b.time - a.time);
  for (const old of caches.slice(MAX_CACHES - 1)) rmSync(old.file, { force: true });
}
