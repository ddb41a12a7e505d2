/** Where this computer's Ferry data lives (spec 2.1.10, 5.2). Never inside a workspace. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import envPaths from 'env-paths';

/** The data folder: `FERRY_DATA_DIR` when set (tests, portable installs), else the platform's. */
export function dataDir(): string {
  const override = process.env.FERRY_DATA_DIR;
  if (override) return path.resolve(override);
  return envPaths('ferry', { suffix: '' }).data;
}

/**
 * The folder holding one workspace's data, keyed by the workspace id plus its absolute folder
 * path: two clones of one repository keep separate secrets, cookies and tokens.
 */
export function workspaceDataDir(workspaceId: string, workspaceRoot: string): string {
  const safeId = workspaceId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const rootHash = createHash('sha256').update(path.resolve(workspaceRoot)).digest('hex').slice(0, 16);
  return path.join(dataDir(), 'workspaces', `${safeId}-${rootHash}`);
}

/**
 * The journal of a move or rename of a request or folder in the workspace (workspace/move-journal.ts):
 * present only while one is under way, or after one was killed part-way.
 */
export function moveJournalFile(workspaceId: string, workspaceRoot: string): string {
  return path.join(workspaceDataDir(workspaceId, workspaceRoot), 'move-journal.json');
}

/** This computer's application settings (appdata/settings.ts), named in messages about them. */
export function settingsFile(): string {
  return path.join(dataDir(), 'settings.json');
}
