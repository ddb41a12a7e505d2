/**
 * The start time a port record keeps of its process (`startToken`, from /proc/PID/stat): read
 * right for a process whose command name holds spaces and ')' (the stat line's second field), the
 * same on every read, another for another process, not its own once the process is gone. Checked against
 * `ps`, which reads the start time its own way. Linux only (elsewhere there is no /proc).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startToken } from '../../src/servers/serving-processes.js';
import { tempDir } from '../support/temp.js';

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
