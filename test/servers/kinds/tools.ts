/** Runs Debian's network tools (socat, ncat, kdig) against a server: stdin in, stdout out, bounded. */
import { spawn } from 'node:child_process';

export function runTool(command: string, args: string[], input: Buffer | string = '', timeoutMs = 8000): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr, code });
    });
    // A tool that exits before reading its input (it could not connect, or it was done) makes the
    // write fail with EPIPE; unheard, that error was an uncaught exception failing the whole run
    // (seen in a full run, from connection-caps). What the tool did is in its output and exit code.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
