/**
 * Writes a planned update. Every new text is first written beside its target as a dot-named
 * temporary file (the workspace reader ignores those); only when all of them are on disk are
 * they renamed into place. A failure before that leaves the workspace as it was.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { checkNoSymlinks } from '../../../workspace/index.js';
import type { UpdatePlan } from './types.js';

export async function applyUpdate(workspaceRoot: string, plan: UpdatePlan): Promise<void> {
  const root = path.resolve(workspaceRoot);
  for (const target of [...plan.writes.map((w) => w.file), ...plan.deletes]) {
    const problem = await checkNoSymlinks(root, path.relative(root, target));
    if (problem) throw new Error(`The update was not written: ${problem}.`);
  }
  const createdDirs: string[] = [];
  const staged: Array<{ temp: string; file: string }> = [];
  try {
    for (const write of plan.writes) {
      const dir = path.dirname(write.file);
      const made = await fs.mkdir(dir, { recursive: true });
      if (made) createdDirs.push(made);
      const temp = path.join(dir, `.${path.basename(write.file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      const handle = await fs.open(temp, 'wx');
      staged.push({ temp, file: write.file });
      try {
        await handle.writeFile(write.text);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  } catch (error) {
    await Promise.all(staged.map((s) => fs.rm(s.temp, { force: true })));
    for (const dir of createdDirs.reverse()) await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
  for (const { temp, file } of staged) await fs.rename(temp, file);
  for (const file of plan.deletes) await fs.rm(file, { force: true });
}
