import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../support/temp.js';

describe('an interrupted write', () => {
  it('a process killed while saving leaves the old or the new file whole, never a mix', async () => {
    const dir = await tempDir();
    const target = path.join(dir, 'Request.yaml');
    const sizes = 2 * 1024 * 1024;
    await fs.writeFile(target, 'a'.repeat(sizes));
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(path.resolve('src/support/atomic-write.ts'))};
      const target = process.argv[2];
      for (let i = 0; ; i++) await writeFileAtomic(target, (i % 2 ? 'a' : 'b').repeat(${sizes}));
    `;
    const file = path.join(dir, '.writer.mts');
    await fs.writeFile(file, script);
    for (let round = 0; round < 4; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', file, target], { stdio: 'ignore' });
      await new Promise((resolve) => setTimeout(resolve, 400 + round * 150));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('exit', resolve));
      const content = await fs.readFile(target, 'utf8');
      expect(content.length).toBe(sizes);
      expect(content === 'a'.repeat(sizes) || content === 'b'.repeat(sizes)).toBe(true);
      // A temporary file the kill left behind is a dot-file, which the workspace reader ignores.
      for (const name of await fs.readdir(dir)) expect(name === 'Request.yaml' || name.startsWith('.')).toBe(true);
    }
  }, 30_000);

  it('the temporary files of writes killed part-way go with the next write into that folder, once their process is gone', async () => {
    const dir = await tempDir();
    const target = path.join(dir, 'Request.yaml');
    await fs.writeFile(target, 'name: Old\n');
    // A writer killed with kill -9 in the middle of its write: its temporary file stays.
    const script = `
      import { promises as fs } from 'node:fs';
      const handle = await fs.open(process.argv[2] + '/.Request.yaml.' + process.pid + '.0123abcd.tmp', 'wx');
      await handle.write('name: Half');
      process.stdout.write('written');
      setInterval(() => {}, 1000);
    `;
    const file = path.join(dir, '.writer.mts');
    await fs.writeFile(file, script);
    const child = spawn(process.execPath, ['--import', 'tsx', file, dir], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const killedTemp = `.Request.yaml.${child.pid}.0123abcd.tmp`;
    // Another process's write in progress, and a killed one's made seconds ago (a process on another computer may be writing it).
    const liveTemp = `.Other.yaml.${process.ppid}.89abcdef.tmp`;
    await fs.writeFile(path.join(dir, liveTemp), 'in progress');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const { writeFileAtomic } = await import('../../src/support/atomic-write.js');
    await writeFileAtomic(path.join(dir, 'Another.yaml'), 'name: Another\n');
    expect((await fs.readdir(dir)).sort()).toEqual(['.Other.yaml.' + process.ppid + '.89abcdef.tmp', killedTemp, '.writer.mts', 'Another.yaml', 'Request.yaml'].sort());
    // A minute later it is no write in progress: the next write removes it; the live process's stays.
    const old = new Date(Date.now() - 120_000);
    await fs.utimes(path.join(dir, killedTemp), old, old);
    await fs.utimes(path.join(dir, liveTemp), old, old);
    // A folder is looked through once a minute at most (a reorder rewrites every sibling): a minute on.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      await writeFileAtomic(path.join(dir, 'Another.yaml'), 'name: Another again\n');
    } finally {
      vi.useRealTimers();
    }
    expect((await fs.readdir(dir)).sort()).toEqual([liveTemp, '.writer.mts', 'Another.yaml', 'Request.yaml'].sort());
    expect(await fs.readFile(target, 'utf8')).toBe('name: Old\n');
  }, 30_000);
});
