/**
 * Which `ferry serve` processes of this computer listen on which ports: one small file per
 * process in the data folder (`serving/PID.json`), written once its servers started and removed
 * when it stops. A second `ferry serve` refused a port (EADDRINUSE) reads them to say that Ferry
 * holds it, which one and how to stop it, instead of "another program". A file left by a process
 * that was killed is known by its process being gone, and removed then.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../appdata/paths.js';
import { writeFileAtomic } from '../support/atomic-write.js';

export interface ServingRecord {
  pid: number;
  /** The workspace folder it serves. */
  workspace: string;
  servers: Array<{ file: string; port: number }>;
}

function folder(): string {
  return path.join(dataDir(), 'serving');
}

/** Records this process's servers; returns what removes the record (at the stop). Not being able to write it costs only the better message. */
export async function recordServing(workspace: string, servers: ReadonlyArray<{ id: string; port: number }>): Promise<() => Promise<void>> {
  const file = path.join(folder(), `${process.pid}.json`);
  const record: ServingRecord = { pid: process.pid, workspace, servers: servers.map((s) => ({ file: `servers/${s.id}.yaml`, port: s.port })) };
  try {
    await fs.mkdir(folder(), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(record)}\n`);
  } catch {
    return async () => {};
  }
  return () => fs.rm(file, { force: true });
}

/** The other `ferry serve` of this computer that listens on `port`, if one says so and is still running. */
export async function servingOn(port: number): Promise<{ pid: number; workspace: string; file: string } | undefined> {
  let names: string[];
  try {
    names = await fs.readdir(folder());
  } catch {
    return undefined;
  }
  for (const name of names) {
    const match = /^(\d+)\.json$/.exec(name);
    if (!match || Number(match[1]) === process.pid) continue;
    let record: ServingRecord;
    try {
      record = JSON.parse(await fs.readFile(path.join(folder(), name), 'utf8')) as ServingRecord;
    } catch {
      continue;
    }
    if (!alive(record.pid)) {
      await fs.rm(path.join(folder(), name), { force: true });
      continue;
    }
    const server = Array.isArray(record.servers) ? record.servers.find((s) => s.port === port) : undefined;
    if (server) return { pid: record.pid, workspace: record.workspace, file: server.file };
  }
  return undefined;
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

/** The port refusal of `file` when another `ferry serve` holds it: which one, and the two ways out. */
export function takenByFerry(file: string, port: number, holder: { pid: number; workspace: string; file: string }, workspace: string): string {
  const where = path.resolve(holder.workspace) === path.resolve(workspace) ? 'this workspace' : `the workspace ${holder.workspace}`;
  return `${file}: port ${port} is already in use by another ferry serve (process ${holder.pid}, serving ${holder.file} of ${where}). Stop that one (Ctrl-C where it runs, or kill ${holder.pid}), or set another port in ${file} (0 = any free port).`;
}
