/**
 * A second process holding a workspace's write lock, as `ferry import` does while it writes: for
 * tests of what the app does meanwhile. It takes the lock (the app's own `lockWorkspace`), says
 * so, writes a file into the workspace on `write FILE` (the watcher sees it), and lets go on
 * `release` or when the test ends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/temp.js';

export interface LockHolder {
  pid: number;
  /** Writes `file` (a path from the workspace folder) while it holds the lock. */
  write(file: string, text: string): Promise<void>;
  release(): Promise<void>;
}

export async function holdLockInAnotherProcess(root: string, dataDir: string, writer = 'ferry import'): Promise<LockHolder> {
  const dir = await tempDir();
  const script = path.join(dir, 'hold-lock.mts');
  await fs.writeFile(script, `
    import { promises as fs } from 'node:fs';
    import path from 'node:path';
    import readline from 'node:readline';
    import { lockWorkspace } from ${JSON.stringify(path.resolve('src/appdata/index.ts'))};
    const root = process.argv[2];
    const release = await lockWorkspace(root, process.argv[3], { waitMs: 10_000 });
    process.stdout.write('held\\n');
    for await (const line of readline.createInterface({ input: process.stdin })) {
      const [command, file, text] = JSON.parse(line);
      if (command === 'write') await fs.writeFile(path.join(root, file), text);
      if (command === 'release') break;
      process.stdout.write('done\\n');
    }
    await release();
    process.stdout.write('released\\n');
  `);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, root, writer], { env: { ...process.env, FERRY_DATA_DIR: dataDir }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const said = async (word: string, count: number) => {
    const started = Date.now();
    while (out.split('\n').filter((l) => l === word).length < count) {
      if (child.exitCode !== null) throw new Error(`the lock holder ended (${child.exitCode}) before saying "${word}"`);
      if (Date.now() - started > 20_000) throw new Error(`the lock holder did not say "${word}" within 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await said('held', 1);
  let writes = 0;
  return {
    pid: child.pid!,
    async write(file, text) {
      child.stdin!.write(`${JSON.stringify(['write', file, text])}\n`);
      await said('done', ++writes);
    },
    async release() {
      if (child.exitCode !== null) return;
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end(`${JSON.stringify(['release'])}\n`);
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
