/**
 * Which Ferry processes of this computer listen on which ports: one small file per process in the
 * data folder (`serving/PID.json`), rewritten as its servers start, move to another port or stop,
 * and removed when none is left (or the process exits). A command refused a port (EADDRINUSE)
 * reads them to say that Ferry holds it, which command and process, and how to stop it, instead
 * of "another program"; a server this process started before is named too (the app and `ferry
 * mcp` start each server on its own). A file left by a process that was killed is known by its
 * process being gone, or (where /proc tells) by another process having its PID since, and removed
 * then; where the system does not tell, a holder known by its PID alone is named as one that may
 * be Ferry. Only a face that names itself (`servingAs`) records.
 */
import { readFileSync, rmSync, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../appdata/paths.js';
import type { ServerKind } from '../model/index.js';
import { writeFileAtomic } from '../support/atomic-write.js';
import { portsClash, SERVER_KIND_INFO } from './kinds/info.js';

/** The commands that hold servers, as the refusal names them. */
export type ServingCommand = 'ferry serve' | 'ferry run --start-servers' | 'ferry app' | 'ferry mcp';

export interface ServingRecord {
  pid: number;
  /** When the process started (`startToken`), where the system says: a later process given the same PID is not it. */
  started?: string;
  command: ServingCommand;
  /** Each server's file, port, kind (its transports: a UDP port is not a TCP one) and the workspace folder it belongs to. */
  servers: Array<{ file: string; port: number; kind?: ServerKind; workspace: string }>;
}

export interface ServingHolder {
  pid: number;
  /** As its record says; absent for a command this Ferry does not know (a newer Ferry's, a hand edit). */
  command?: ServingCommand;
  /**
   * Only its PID says that the process running now wrote the record (the system does not tell when
   * it started: macOS, Windows): it may be another program given that PID since.
   */
  byPidOnly?: true;
  workspace: string;
  file: string;
  /** The server's kind, where the record says one this Ferry knows. */
  kind?: ServerKind;
}

function folder(): string {
  return path.join(dataDir(), 'serving');
}

/** A server this process runs: its file and workspace, its port and kind as they are now (a reload may change them). */
interface LiveServer {
  file: string;
  workspace: string;
  port(): number;
  kind(): ServerKind;
}

let command: ServingCommand | undefined;
const live = new Set<LiveServer>();
/** Writes one after the other, each of the state at its turn: the last one on disk is the latest. */
let writes: Promise<void> = Promise.resolve();
let exitListener = false;
/** This process's `startToken`, read once ('' where the system does not tell). */
let ownStart: string | undefined;

/** This process's servers are recorded from now on, as held by `name` (called by the face before it starts any). */
export function servingAs(name: ServingCommand): void {
  command = name;
}

/**
 * Records a server that started (its port read at each write: a reload may move it); the returned
 * `changed` rewrites the record, `remove` takes it out. Not being able to write costs only the
 * better message, so failures are ignored.
 */
export async function recordServer(server: LiveServer): Promise<{ changed(): Promise<void>; remove(): Promise<void> }> {
  if (command === undefined) return { changed: async () => {}, remove: async () => {} };
  live.add(server);
  await save();
  return {
    changed: save,
    remove: async () => {
      if (live.delete(server)) await save();
    },
  };
}

function save(): Promise<void> {
  writes = writes.then(write, write);
  return writes;
}

async function write(): Promise<void> {
  const file = path.join(folder(), `${process.pid}.json`);
  try {
    if (live.size === 0) return await fs.rm(file, { force: true });
    ownStart ??= startToken(process.pid) ?? '';
    const record: ServingRecord = { pid: process.pid, ...(ownStart ? { started: ownStart } : {}), command: command!, servers: [...live].map((s) => ({ file: s.file, port: s.port(), kind: s.kind(), workspace: s.workspace })) };
    await fs.mkdir(folder(), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(record)}\n`);
    // A second Ctrl-C (process.exit) ends the process before its servers stop: the record goes too.
    if (!exitListener) {
      exitListener = true;
      process.on('exit', () => void (live.size > 0 && rmSync(file, { force: true })));
    }
  } catch {
    // Only the better message is lost.
  }
}

/**
 * The other Ferry process of this computer that listens on `port`, if one says so and is still
 * running: with `kind`, only on a transport that kind needs (a record without kinds: any).
 */
export async function servingOn(port: number, kind?: ServerKind): Promise<ServingHolder | undefined> {
  let names: string[];
  try {
    names = await fs.readdir(folder());
  } catch {
    return undefined;
  }
  for (const name of names) {
    const match = /^(\d+)\.json$/.exec(name);
    if (!match || Number(match[1]) === process.pid) continue;
    let record: Partial<ServingRecord> & { pid: number };
    let written: Stats;
    try {
      written = await fs.stat(path.join(folder(), name));
      record = JSON.parse(await fs.readFile(path.join(folder(), name), 'utf8')) as typeof record;
    } catch {
      continue;
    }
    const writer = recordWriter(record, written.mtimeMs);
    if (writer === 'gone') {
      await fs.rm(path.join(folder(), name), { force: true });
      continue;
    }
    const server = Array.isArray(record.servers) ? record.servers.find((s) => s.port === port && (kind === undefined || !knownKind(s.kind) || portsClash(kind, s.kind))) : undefined;
    // A record without a command is from a Ferry in which only ferry serve recorded; one this Ferry does not know is named as a Ferry process.
    if (server) {
      return {
        pid: record.pid,
        ...(record.command === undefined ? { command: 'ferry serve' as const } : Object.hasOwn(STOP, record.command) ? { command: record.command } : {}),
        ...(writer === 'pid' ? { byPidOnly: true as const } : {}),
        workspace: server.workspace,
        file: server.file,
        ...(knownKind(server.kind) ? { kind: server.kind } : {}),
      };
    }
  }
  return undefined;
}

/** A kind this Ferry knows (a record from another version, or edited by hand, may say another). */
function knownKind(kind: unknown): kind is ServerKind {
  return typeof kind === 'string' && Object.hasOwn(SERVER_KIND_INFO, kind);
}

/**
 * When process `pid` started, as `BOOT-ID:TICKS` (Linux: the boot's id, and field 22 of
 * /proc/PID/stat, clock ticks since boot): the same PID given to a later process, after a reboot
 * too, has another. Undefined where /proc does not say (macOS, Windows) or the process is gone.
 */
export function startToken(pid: number): string | undefined {
  try {
    const ticks = startTicks(pid);
    return ticks === undefined ? undefined : `${readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim()}:${ticks}`;
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/PID/stat: when process `pid` started, in clock ticks since boot (throws where there is no such file). */
function startTicks(pid: number): string | undefined {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  // The command name (field 2) is in parentheses and may hold spaces and ')': the fields after the last ')' start at 3.
  const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
}

/**
 * Whether the process a record names is the one that wrote it (`writer`), or gone (a killed
 * process's PID reused by another program is not Ferry): by its start time where /proc tells, the
 * one the record keeps or, in a record without one (an older Ferry's), the record's last write
 * (`writtenMs`), which a process that started after it cannot have made; else (`pid`) by its PID
 * running alone, as on systems without /proc.
 */
function recordWriter(record: { pid: number; started?: unknown }, writtenMs: number): 'writer' | 'gone' | 'pid' {
  if (typeof record.started === 'string') {
    const now = startToken(record.pid);
    if (now !== undefined) return now === record.started ? 'writer' : 'gone';
  }
  if (!alive(record.pid)) return 'gone';
  const startedMs = startTimeMs(record.pid);
  if (startedMs === undefined) return 'pid';
  return startedMs > writtenMs ? 'gone' : 'writer';
}

/**
 * When process `pid` started, in ms since the epoch, on or before the true time (Linux: the boot
 * time of /proc/stat, whole seconds cut down, plus field 22 of /proc/PID/stat in clock ticks, 100
 * a second on Linux); undefined where /proc does not say.
 */
function startTimeMs(pid: number): number | undefined {
  try {
    const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'))?.[1];
    const ticks = startTicks(pid);
    if (boot === undefined || ticks === undefined) return undefined;
    return Number(boot) * 1000 + Number(ticks) * 10;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs (signal 0 only asks; EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How each command's servers are stopped, besides Ctrl-C where it runs or kill PID. */
const STOP: Record<ServingCommand, (pid: number) => string> = {
  'ferry serve': (pid) => `Stop that one (Ctrl-C where it runs, or kill ${pid})`,
  'ferry run --start-servers': (pid) => `It stops its servers when its run ends; to stop it now, Ctrl-C where it runs, or kill ${pid}`,
  'ferry app': (pid) => `Stop the server in that app's Servers panel, or close the app (Ctrl-C where it runs, or kill ${pid})`,
  'ferry mcp': (pid) => `Ask the agent that runs it to stop the server (its stop_server tool), or end that agent's session (kill ${pid})`,
};

/** How a holder whose command this Ferry does not know is stopped. */
const STOP_OTHER = (pid: number) => `Stop it where it runs (Ctrl-C), or kill ${pid}`;

/**
 * The port refusal of `file` when another Ferry process holds it: which command and process, and
 * the ways out; "maybe" when only its PID says it is that Ferry (`byPidOnly`).
 */
export function takenByFerry(file: string, port: number, holder: ServingHolder, workspace: string): string {
  const where = path.resolve(holder.workspace) === path.resolve(workspace) ? 'this workspace' : `the workspace ${holder.workspace}`;
  const who = holder.command === undefined ? 'another Ferry process' : holder.command === 'ferry serve' ? 'another ferry serve' : holder.command;
  const stop = (holder.command === undefined ? STOP_OTHER : STOP[holder.command])(holder.pid);
  if (holder.byPidOnly) {
    return `${file}: port ${port} is already in use, maybe by ${who} (process ${holder.pid}, serving ${holder.file} of ${where}, as its record in Ferry's data folder says; this system does not tell whether process ${holder.pid} is still that Ferry, so check before you stop it). ${stop}, or set another port in ${file} (0 = any free port).`;
  }
  return `${file}: port ${port} is already in use by ${who} (process ${holder.pid}, serving ${holder.file} of ${where}). ${stop}, or set another port in ${file} (0 = any free port).`;
}

/** Where a server this process runs is, and the way to free its port for `file`, as each command words them. */
const HERE: Record<ServingCommand, (file: string) => string> = {
  'ferry serve': () => 'started here. Give one of them another port (0 = any free port).',
  'ferry run --start-servers': () => 'started for this run. Give one of them another port (0 = any free port).',
  'ferry app': (file) => `running in this app. Stop it in the Servers panel first, or set another port in ${file} (0 = any free port).`,
  'ferry mcp': (file) => `started here with start_server. Stop it first with stop_server, or set another port in ${file} (0 = any free port).`,
};

/**
 * The refusal of a port that `server.file` could not listen on (EADDRINUSE), for every command
 * that starts servers: a server this process started before on that port, on a transport the new
 * one needs (the app and `ferry mcp` start each server on its own), or the Ferry process of this
 * computer holding it named (`takenByFerry`); else `message` as the listener worded it ("another
 * program").
 */
export async function portRefusal(message: string, server: RefusedServer): Promise<string> {
  return (await refusedPort(message, server)).message;
}

/** A server refused its port: its file, the port it asked for, its kind and its workspace folder. */
interface RefusedServer {
  file: string;
  port: number;
  kind: ServerKind;
  workspace: string;
}

/** `portRefusal`'s message, and the other Ferry process it names, if one holds the port. */
export async function refusedPort(message: string, server: RefusedServer): Promise<{ message: string; holder?: ServingHolder }> {
  const { file, port, workspace } = server;
  if (port === 0) return { message };
  const own = [...live].find((s) => s.port() === port && portsClash(server.kind, s.kind()) && !(s.file === file && path.resolve(s.workspace) === path.resolve(workspace)));
  if (own && command !== undefined) {
    const where = path.resolve(own.workspace) === path.resolve(workspace) ? 'this workspace' : `the workspace ${own.workspace}`;
    return { message: `${file}: port ${port} is already in use by ${own.file} of ${where}, ${HERE[command](file)}` };
  }
  const holder = await servingOn(port, server.kind);
  return holder ? { message: takenByFerry(file, port, holder, workspace), holder } : { message };
}

/**
 * Whether `holder` already serves `server` and keeps serving it until someone stops it: a `ferry
 * serve` or `ferry app` of the same workspace, serving the same file as the same kind (both follow
 * edits of the file). A `ferry run --start-servers` stops its servers when its own run ends, and a
 * `ferry mcp`'s agent stops them when it likes: neither is to be counted on.
 */
export function servesAlready(holder: ServingHolder, server: { file: string; kind: ServerKind; workspace: string }): boolean {
  return (
    (holder.command === 'ferry serve' || holder.command === 'ferry app') &&
    path.resolve(holder.workspace) === path.resolve(server.workspace) &&
    holder.file === server.file &&
    (holder.kind === undefined || holder.kind === server.kind)
  );
}
