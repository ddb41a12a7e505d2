/** For a failure message about a process that did not answer in time: was it starved of CPU, or stuck? */
import { promises as fs } from 'node:fs';

/**
 * The process's state (R running or waiting for a CPU, S asleep, D on the disk) and the CPU time
 * it has had (Linux's /proc/PID/stat); the reason it cannot be read otherwise. A process that had
 * little CPU and is R was starved by a busy machine; one that is S with its start's CPU spent waits
 * for something.
 */
export async function processLoad(pid: number | undefined): Promise<string> {
  const stat = pid === undefined ? undefined : await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return 'its state cannot be read';
  // Fields after the name (which may hold spaces): the 3rd is the state, the 14th and 15th the user and system time in clock ticks (100 a second).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return `state ${fields[0]}, ${((Number(fields[11]) + Number(fields[12])) / 100).toFixed(2)} s of CPU so far`;
}
