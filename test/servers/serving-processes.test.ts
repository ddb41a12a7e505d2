/**
 * The start time a port record keeps of its process (`startToken`, from /proc/PID/stat): read
 * right for a process whose command name holds spaces and ')' (the stat line's second field), the
 * same on every read, another for another process, not its own once the process is gone. Checked against
 * `ps`, which reads the start time its own way. Linux only (elsewhere there is no /proc).
 * And the holder a record names (`servingOn`, `takenByFerry`): a record without a start time is
 * taken for its process's only if that process started before the record was written; a command
 * this Ferry does not know is not named as another; a holder known by its PID alone is a "maybe".
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { servingOn, startToken, takenByFerry } from '../../src/servers/serving-processes.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

describe.runIf(existsSync('/proc/self/stat'))('startToken', () => {
  it("is a process's start time, also when its command name holds ') ', and not its own once it is gone", async () => {
    // Node under a name that breaks a naive split of /proc/PID/stat at the first ')' or space.
    const named = path.join(await tempDir(), 'x) y (z');
    await fs.symlink(process.execPath, named);
    const child = spawn(named, ['-e', 'setInterval(() => {}, 1000); console.log("up")']);
    let token: string | undefined;
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      expect(readFileSync(`/proc/${child.pid}/stat`, 'latin1')).toContain('(x) y (z)');
      token = startToken(child.pid!);
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'latin1').trim();
      expect(token).toMatch(new RegExp(`^${boot}:\\d+$`));
      expect(startToken(child.pid!)).toBe(token);
      expect(startToken(process.pid)).not.toBe(token);
      // Ticks since boot, as seconds since the epoch, against ps's start time (to the second).
      const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
      const bootTime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'))![1]);
      const started = bootTime + Number(token!.split(':')[1]) / ticksPerSecond;
      const psStarted = Date.parse(execFileSync('ps', ['-o', 'lstart=', '-p', String(child.pid)], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }).trim()) / 1000;
      expect(Math.abs(started - psStarted)).toBeLessThan(2);
    } finally {
      child.kill();
    }
    await new Promise((resolve) => child.once('close', resolve));
    // Gone: no start time (or, should the system have given its PID out again already, another).
    expect(startToken(child.pid!)).not.toBe(token);
  });
});

/** A process that is not Ferry, running until killed. */
async function program(): Promise<ReturnType<typeof spawn>> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000); console.log("up")']);
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return child;
}

/** Writes `record` as the port record of process `pid` in the data folder `data`; its file's path. */
async function record(data: string, pid: number, record: Record<string, unknown>): Promise<string> {
  await fs.mkdir(path.join(data, 'serving'), { recursive: true });
  const file = path.join(data, 'serving', `${pid}.json`);
  await fs.writeFile(file, JSON.stringify({ pid, ...record }));
  return file;
}

describe.runIf(existsSync('/proc/self/stat'))('a port record without its start time (an older Ferry\'s)', () => {
  it('names its process when that process started before the record was written, and not when it started after: the record is removed', async () => {
    const data = await isolatedDataDir();
    const ws = await tempDir();
    const child = await program();
    try {
      const file = await record(data, child.pid!, { command: 'ferry app', servers: [{ file: 'servers/api.yaml', port: 4999, workspace: ws }] });
      const holder = await servingOn(4999);
      expect(holder).toEqual({ pid: child.pid, command: 'ferry app', workspace: ws, file: 'servers/api.yaml' });
      expect(takenByFerry('servers/api.yaml', 4999, holder!, ws)).toBe(`servers/api.yaml: port 4999 is already in use by ferry app (process ${child.pid}, serving servers/api.yaml of this workspace). Stop the server in that app's Servers panel, or close the app (Ctrl-C where it runs, or kill ${child.pid}), or set another port in servers/api.yaml (0 = any free port).`);
      // Written an hour before the process now running with that PID started: another process's record.
      const before = new Date(Date.now() - 3_600_000);
      await fs.utimes(file, before, before);
      expect(await servingOn(4999)).toBeUndefined();
      expect(await fs.readdir(path.join(data, 'serving'))).toEqual([]);
    } finally {
      child.kill();
    }
  });

  it('a command this Ferry does not know is named as another Ferry process, with the ways out any process has', async () => {
    const data = await isolatedDataDir();
    const ws = await tempDir();
    const child = await program();
    try {
      await record(data, child.pid!, { started: startToken(child.pid!), command: 'ferry load --start-servers', servers: [{ file: 'servers/api.yaml', port: 4998, kind: 'http', workspace: ws }] });
      const holder = await servingOn(4998);
      expect(holder).toEqual({ pid: child.pid, workspace: ws, file: 'servers/api.yaml', kind: 'http' });
      expect(takenByFerry('servers/api.yaml', 4998, holder!, ws)).toBe(`servers/api.yaml: port 4998 is already in use by another Ferry process (process ${child.pid}, serving servers/api.yaml of this workspace). Stop it where it runs (Ctrl-C), or kill ${child.pid}, or set another port in servers/api.yaml (0 = any free port).`);
    } finally {
      child.kill();
    }
  });
});

describe('a holder known by its PID alone (a system without /proc)', () => {
  it('is said to be maybe that Ferry, and to be checked before it is stopped', () => {
    const words = takenByFerry('servers/api.yaml', 4010, { pid: 4242, command: 'ferry serve', workspace: '/w', file: 'servers/api.yaml', byPidOnly: true }, '/w');
    expect(words).toBe("servers/api.yaml: port 4010 is already in use, maybe by another ferry serve (process 4242, serving servers/api.yaml of this workspace, as its record in Ferry's data folder says; this system does not tell whether process 4242 is still that Ferry, so check before you stop it). Stop that one (Ctrl-C where it runs, or kill 4242), or set another port in servers/api.yaml (0 = any free port).");
  });
});
