/**
 * Whether a process of this computer still runs (signal 0 checks without sending anything):
 * how a lock or a journal left by a killed `ferry` is told from one still in use. EPERM means it
 * runs under another user.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
