/**
 * The answers of the app's sends (status, headers, body, tests), kept on this computer so the
 * history can show a past send's result again. The history (history.json) lists every send,
 * from the app and `ferry run`; only the app's answers are kept whole, the last `RESULTS_KEPT`,
 * sealed with the secret store's key (a body may hold a token the server echoed).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../support/atomic-write.js';
import { isLinkError, readFileNoFollow } from '../support/read-no-follow.js';
import { refuseLinkedFolder } from './json-store.js';
import { isSealed, openValue, sealValue } from './secrets.js';
import { makeDirs } from '../support/make-dirs.js';

export const RESULTS_KEPT = 50;

/** The key that ties a kept answer to its history entry: the send's start time and request path. */
export function sendResultKey(time: string, requestPath: string | undefined): string {
  return createHash('sha256').update(`${time}\n${requestPath ?? ''}`).digest('hex').slice(0, 32);
}

export class SendResults {
  constructor(readonly dir: string) {}

  /** Keeps one answer; the oldest beyond `RESULTS_KEPT` are removed. */
  async save(key: string, value: unknown): Promise<void> {
    await refuseLinkedFolder(this.file(key));
    await makeDirs(this.dir, 0o700);
    await writeFileAtomic(this.file(key), JSON.stringify(await sealValue(JSON.stringify(value))), 0o600);
    const kept = await this.listByAge();
    await Promise.all(kept.slice(RESULTS_KEPT).map((name) => fs.rm(path.join(this.dir, name), { force: true })));
  }

  /** A kept answer, or undefined when it is gone (pruned, or sealed with a key replaced since). */
  async read(key: string): Promise<unknown> {
    if (!/^[0-9a-f]{32}$/.test(key)) return undefined;
    await refuseLinkedFolder(this.file(key));
    try {
      const sealed = JSON.parse(await readFileNoFollow(this.file(key), 'utf8')) as unknown;
      return isSealed(sealed) ? JSON.parse(await openValue(sealed)) : undefined;
    } catch (error) {
      if (isLinkError(error)) throw new Error(`${this.file(key)} is a symbolic link; Ferry never follows links in its data folder. Remove the link.`);
      return undefined;
    }
  }

  /** The keys of the kept answers. */
  async keys(): Promise<Set<string>> {
    return new Set((await this.listByAge()).map((name) => name.slice(0, -'.json'.length)));
  }

  private file(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }

  /** Newest first. */
  private async listByAge(): Promise<string[]> {
    let names: string[];
    await refuseLinkedFolder(this.file('x'));
    try {
      names = (await fs.readdir(this.dir)).filter((n) => /^[0-9a-f]{32}\.json$/.test(n));
    } catch {
      return [];
    }
    const stats = await Promise.all(names.map(async (name) => ({ name, mtime: (await fs.lstat(path.join(this.dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })));
    return stats.sort((a, b) => b.mtime - a.mtime).map((s) => s.name);
  }
}
