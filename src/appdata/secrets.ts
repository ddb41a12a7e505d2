/**
 * Secret variable values, encrypted at rest (AES-256-GCM) with a key file that only this user
 * can read. The workspace never holds them.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isLinkError, readFileNoFollow } from '../support/read-no-follow.js';
import { DataFolderError, JsonStore, unwritableDataFolder } from './json-store.js';
import { dataDir } from './paths.js';
import { makeDirs } from '../support/make-dirs.js';

export interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

let cachedKey: Promise<Buffer> | undefined;

const KEY_BYTES = 32;

async function loadKey(): Promise<Buffer> {
  const file = path.join(dataDir(), 'secret.key');
  const existing = await readKey(file);
  if (existing) return existing;
  await makeDirs(path.dirname(file), 0o700).catch((error: unknown) => {
    throw unwritableDataFolder(file, error) ?? error;
  });
  // Written whole under a temporary name, then linked in place: `link` fails when the key exists,
  // so two processes starting at once agree on one key, and a process killed while writing
  // leaves no part-written key behind (at most its temporary file, in this folder only this user reads).
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const key = randomBytes(KEY_BYTES);
  try {
    await fs.writeFile(temp, key, { mode: 0o600, flag: 'wx' });
    await fs.link(temp, file);
    return key;
  } catch (error) {
    // Another process made its key first: that one is used.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readKey(file)) ?? key;
    // Named as the key, never its temporary file.
    throw unwritableDataFolder(file, error) ?? error;
  } finally {
    await fs.rm(temp, { force: true }).catch(() => {});
  }
}

/** The key file's 32 bytes, or undefined when there is none yet (or an empty one, see below). */
async function readKey(file: string): Promise<Buffer | undefined> {
  let key: Buffer;
  try {
    key = await readFileNoFollow(file);
  } catch (error) {
    if (isLinkError(error)) throw new DataFolderError(`${file} is a symbolic link; Ferry never follows links in its data folder. Remove the link; stored secrets will need setting again.`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Readable only by this user: a key copied or restored with looser bits is tightened first.
  if (process.platform !== 'win32' && ((await fs.stat(file)).mode & 0o077) !== 0) await fs.chmod(file, 0o600);
  if (key.length === KEY_BYTES) return key;
  // An empty key file is what an older Ferry killed while making its key left: nothing can have
  // been encrypted with it (a key of any other length is refused), so a new key replaces it.
  if (key.length === 0) {
    await fs.rm(file, { force: true });
    return undefined;
  }
  throw new DataFolderError(`${file} is damaged (${key.length} bytes, a key has ${KEY_BYTES}), so the secret values stored on this computer cannot be read. Restore it from a backup, or remove it to start a new key and set the secret values again (\`ferry secret set NAME\`).`);
}

function key(): Promise<Buffer> {
  const dir = dataDir();
  if (!cachedKey || cachedKeyDir !== dir) {
    cachedKeyDir = dir;
    cachedKey = loadKey();
  }
  return cachedKey;
}
let cachedKeyDir: string | undefined;

/** The key when there is one (damaged: refused, as `key` does), never made: for reads that may find no value. */
async function existingKey(): Promise<Buffer | undefined> {
  if (cachedKey && cachedKeyDir === dataDir()) return cachedKey;
  return readKey(path.join(dataDir(), 'secret.key'));
}

function seal(keyBytes: Buffer, plain: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

function open(keyBytes: Buffer, sealed: Sealed): string {
  const decipher = createDecipheriv('aes-256-gcm', keyBytes, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
}

/** A sealed value decrypted, or undefined when it was sealed with another key or altered. */
function openOrUndefined(keyBytes: Buffer, sealed: Sealed): string | undefined {
  try {
    return open(keyBytes, sealed);
  } catch {
    return undefined;
  }
}

/** Encrypts a value with this computer's secret key, as the secret store keeps its values. */
export async function sealValue(plain: string): Promise<Sealed> {
  return seal(await key(), plain);
}

/** Decrypts what `sealValue` gave; throws when the key changed or the value was altered. */
export async function openValue(sealed: Sealed): Promise<string> {
  return open(await key(), sealed);
}

/** Whether a stored value is sealed (older files may hold plain values). */
export function isSealed(value: unknown): value is Sealed {
  const v = value as Partial<Sealed> | null;
  return typeof v === 'object' && v !== null && typeof v.iv === 'string' && typeof v.tag === 'string' && typeof v.data === 'string';
}

/** Secrets of one workspace, keyed by scope (an environment id, or `workspace`) and variable name. */
export class SecretStore {
  private readonly store: JsonStore<Record<string, Sealed>>;

  constructor(workspaceDir: string) {
    this.store = new JsonStore(path.join(workspaceDir, 'secrets.json'), () => ({}), 'the secret values stored for this workspace on this computer are lost: set them again (`ferry secret set NAME`, or in the app)');
  }

  private static slot(scope: string, name: string): string {
    return `${scope}\u0000${name}`;
  }

  /** The value, or undefined when none is stored or the stored one cannot be decrypted (`unreadable`). */
  async get(scope: string, name: string): Promise<string | undefined> {
    const all = await this.store.read();
    const sealed = all[SecretStore.slot(scope, name)];
    return sealed ? openOrUndefined(await key(), sealed) : undefined;
  }

  /** Whether a value is stored, readable or not. */
  async has(scope: string, name: string): Promise<boolean> {
    return Object.hasOwn(await this.store.read(), SecretStore.slot(scope, name));
  }

  /**
   * Every secret of a scope, decrypted: `{ name: value }`. A value that does not decrypt (stored
   * with another `secret.key`: a data folder copied from another computer, a key replaced) is
   * left out, as if not set, so a run is not stopped by a value it may not even use;
   * `unreadable` names those values.
   */
  async all(scope: string): Promise<Record<string, string>> {
    return (await this.read(scope)).values;
  }

  /** The names of a scope's stored values that cannot be decrypted with this computer's key. */
  async unreadable(scope: string): Promise<string[]> {
    return (await this.read(scope)).unreadable;
  }

  private async read(scope: string): Promise<{ values: Record<string, string>; unreadable: string[] }> {
    const all = await this.store.read();
    const prefix = `${scope}\u0000`;
    // No value stored: no key is made (a run reads secrets; in a data folder it cannot write,
    // making one would fail the run for nothing), but one that is there is checked all the same.
    const keyBytes = Object.keys(all).some((slot) => slot.startsWith(prefix)) ? await key() : await existingKey();
    // No prototype: a secret named `__proto__` is an own key like any other.
    const values: Record<string, string> = Object.create(null) as Record<string, string>;
    const unreadable: string[] = [];
    for (const [slot, sealed] of Object.entries(all)) {
      if (!slot.startsWith(prefix) || !keyBytes) continue;
      const value = openOrUndefined(keyBytes, sealed);
      if (value === undefined) unreadable.push(slot.slice(prefix.length));
      else values[slot.slice(prefix.length)] = value;
    }
    return { values, unreadable };
  }

  async set(scope: string, name: string, value: string): Promise<void> {
    const keyBytes = await key();
    await this.store.update((all) => {
      all[SecretStore.slot(scope, name)] = seal(keyBytes, value);
    });
  }

  /** Several values of one scope in one locked write (an import with hundreds of secrets). */
  async setMany(scope: string, values: ReadonlyMap<string, string>): Promise<void> {
    if (values.size === 0) return;
    const keyBytes = await key();
    await this.store.update((all) => {
      for (const [name, value] of values) all[SecretStore.slot(scope, name)] = seal(keyBytes, value);
    });
  }

  async delete(scope: string, name: string): Promise<void> {
    await this.store.update((all) => {
      delete all[SecretStore.slot(scope, name)];
    });
  }

  /** Every value of `from` into `to` as well (sealed as they are), in one locked write: a renamed or copied environment. */
  async copyScope(from: string, to: string): Promise<void> {
    const prefix = `${from}\u0000`;
    await this.store.update((all) => {
      for (const [slot, sealed] of Object.entries(all)) {
        if (slot.startsWith(prefix)) all[SecretStore.slot(to, slot.slice(prefix.length))] = sealed;
      }
    });
  }

  /** Removes every value of a scope: a deleted environment's, or a renamed one's old id. */
  async deleteScope(scope: string): Promise<void> {
    const prefix = `${scope}\u0000`;
    await this.store.update((all) => {
      for (const slot of Object.keys(all)) if (slot.startsWith(prefix)) delete all[slot];
    });
  }
}

