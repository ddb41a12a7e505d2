/**
 * Programs allowed to start on this computer, per workspace (spec 2.8, 5.4): kept in the data
 * folder, never in the workspace, so a cloned workspace cannot allow its own programs. An entry is
 * the exact command line, folder and environment; the environment's values are kept only as part
 * of a hash (they may be secrets), its names in clear for `ferry programs ls`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { JsonStore } from './json-store.js';
import { workspaceDataDir } from './paths.js';

/** What a request starts: as `protocols/programs.ts` describes it (kept structural: appdata does not import protocols). */
export interface ProgramToAllow {
  command: string;
  cwd: string;
  env: Record<string, string>;
}

/** `ferry programs revoke ID` where ID is the start of several programs' ids. */
export class AmbiguousProgramIdError extends Error {
  constructor(
    readonly id: string,
    readonly matches: string[],
  ) {
    super(`${matches.length} allowed programs have ids starting with ${id} (${matches.join(', ')}); nothing revoked. Give more of the id (ferry programs ls lists them), or --all.`);
  }
}

export interface AllowedProgram {
  /** Short id for `ferry programs revoke`. */
  id: string;
  command: string;
  cwd: string;
  envNames: string[];
  /** sha256 of the command, folder and environment (values included). */
  key: string;
  allowedAt: string;
}

export function programKey(program: ProgramToAllow): string {
  const canonical = JSON.stringify([program.command, path.resolve(program.cwd), Object.entries(program.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  return createHash('sha256').update(canonical).digest('hex');
}

export class AllowedPrograms {
  private readonly store: JsonStore<AllowedProgram[]>;

  /** Keyed like the workspace's other data on this computer: its id plus its folder. */
  constructor(workspaceId: string, workspaceRoot: string) {
    this.store = new JsonStore(path.join(workspaceDataDir(workspaceId, workspaceRoot), 'programs.json'), () => [], 'the programs allowed to run for this workspace must be allowed again (`ferry programs allow COMMAND`, or `ferry run --allow-programs`)');
  }

  list(): Promise<AllowedProgram[]> {
    return this.store.read();
  }

  async isAllowed(program: ProgramToAllow): Promise<boolean> {
    const key = programKey(program);
    return (await this.store.read()).some((p) => p.key === key);
  }

  /** Allows the program (once); returns its entry. */
  allow(program: ProgramToAllow): Promise<AllowedProgram> {
    const key = programKey(program);
    return this.store.update((list) => {
      const found = list.find((p) => p.key === key);
      if (found) return found;
      const entry: AllowedProgram = { id: key.slice(0, 8), command: program.command, cwd: path.resolve(program.cwd), envNames: Object.keys(program.env).sort(), key, allowedAt: new Date().toISOString() };
      list.push(entry);
      return entry;
    });
  }

  /**
   * Removes the entry whose id is `id` or starts with it (every one with `all`); returns those
   * removed. A start that several ids share removes none (AmbiguousProgramIdError), as git refuses
   * an ambiguous short hash: a short id typed by hand must not take back more than meant.
   */
  revoke(id: string | { all: true }): Promise<AllowedProgram[]> {
    return this.store.update((list) => {
      const removed = list.filter((p) => (typeof id === 'string' ? id !== '' && p.id.startsWith(id) : true));
      if (typeof id === 'string' && removed.length > 1 && !removed.some((p) => p.id === id)) throw new AmbiguousProgramIdError(id, removed.map((p) => p.id));
      const kept = list.filter((p) => !removed.includes(p));
      list.splice(0, list.length, ...kept);
      return removed;
    });
  }
}

/**
 * The policy a run gives its sends: programs on the list start; with `allowNew`
 * (`ferry run --allow-programs`) others start too and are added to the list.
 */
export function programPolicy(list: AllowedPrograms | undefined, allowNew: boolean): { allow(program: ProgramToAllow): Promise<boolean> } {
  return {
    allow: async (program) => {
      if (list && (await list.isAllowed(program))) return true;
      if (!allowNew) return false;
      await list?.allow(program);
      return true;
    },
  };
}
