import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
