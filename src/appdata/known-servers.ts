/**
 * Server configurations this computer has started or saved (spec 2.11 `autoStart`): only those
 * start by themselves when the app opens the workspace; a new or externally changed one must be
 * started once by hand. Kept in the data folder, never in the workspace, so a cloned or pulled
 * workspace cannot mark its own servers as known. A configuration is its id and its content as
 * the format reads it (comments and formatting do not count; any field that changes does).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { serializeResource, type ServerFile } from '../model/index.js';
import { JsonStore } from './json-store.js';
import { workspaceDataDir } from './paths.js';

/** Configurations remembered per server id: enough to switch back and forth between a few versions. */
const KEPT_PER_SERVER = 20;

/** The configuration's fingerprint: sha256 of its id and its content in the format's field order. */
export function serverFingerprint(id: string, server: ServerFile): string {
  return createHash('sha256').update(JSON.stringify([id, serializeResource('server', server)])).digest('hex');
}

export class KnownServers {
  private readonly store: JsonStore<Record<string, string[]>>;

  /** Keyed like the workspace's other data on this computer: its id plus its folder. */
  constructor(workspaceId: string, workspaceRoot: string) {
    this.store = new JsonStore(path.join(workspaceDataDir(workspaceId, workspaceRoot), 'known-servers.json'), () => ({}), 'the servers this computer knew are forgotten: start each one once by hand before it starts by itself again');
  }

  async isKnown(id: string, server: ServerFile): Promise<boolean> {
    const all = await this.store.read();
    return Object.hasOwn(all, id) && Array.isArray(all[id]) && all[id]!.includes(serverFingerprint(id, server));
  }

  /** Forgets the configurations of `id`: a server renamed (its new id is remembered as it is saved). */
  async forget(id: string): Promise<void> {
    await this.store.update((all) => {
      delete all[id];
    });
  }

  /** Remembers that this computer started or saved the configuration (newest last, bounded). */
  async remember(id: string, server: ServerFile): Promise<void> {
    const print = serverFingerprint(id, server);
    await this.store.update((all) => {
      const list = Object.hasOwn(all, id) && Array.isArray(all[id]) ? all[id]!.filter((p) => p !== print) : [];
      list.push(print);
      // Defined, not assigned: an id such as `__proto__` must not change the object's prototype.
      Object.defineProperty(all, id, { value: list.slice(-KEPT_PER_SERVER), enumerable: true, writable: true, configurable: true });
    });
  }
}
