/** Builds real workspace folders for run tests: YAML files in a temp folder, and a data folder beside it. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { stringify } from 'yaml';
import { WorkspaceData } from '../../src/appdata/index.js';
import { openWorkspace } from '../../src/workspace/index.js';

export interface TempWorkspace {
  root: string;
  dataDir: string;
  write(relative: string, content: unknown): Promise<void>;
  cleanup(): Promise<void>;
}

/** `files` maps paths inside the workspace to YAML data (objects) or raw text (strings). */
export async function makeWorkspace(files: Record<string, unknown>, workspace: Record<string, unknown> = {}): Promise<TempWorkspace> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-run-'));
  const root = path.join(base, 'ws');
  const dataDir = path.join(base, 'data');
  await fs.mkdir(path.join(root, 'requests'), { recursive: true });
  const write = async (relative: string, content: unknown) => {
    const file = path.join(root, relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, typeof content === 'string' ? content : stringify(content));
  };
  await write('ferry.yaml', { version: 1, id: `run-${path.basename(base)}`, name: 'Run tests', ...workspace });
  for (const [relative, content] of Object.entries(files)) await write(relative, content);
  return { root, dataDir, write, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

const opened: TempWorkspace[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.cleanup()));
});

/**
 * A workspace made with `makeWorkspace`, opened, with its data folder set as this process's
 * FERRY_DATA_DIR; removed after the test.
 */
export async function openedWorkspace(files: Record<string, unknown>, workspace: Record<string, unknown> = {}) {
  const temp = await makeWorkspace(files, workspace);
  opened.push(temp);
  process.env.FERRY_DATA_DIR = temp.dataDir;
  const ws = await openWorkspace(temp.root);
  return { temp, ws, data: new WorkspaceData(ws.id, ws.root) };
}
