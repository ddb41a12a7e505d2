/**
 * Secret variable values, encrypted at rest (AES-256-GCM) with a key file that only this user
 * can read. The workspace never holds them.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isLinkError, readFileNoFollow } from '../support/read-no-follow.js';
import { JsonStore } from './json-store.js';
import { dataDir } from './paths.js';

export interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

let cachedKey: Promise<Buffer> | undefined;

async function loadKey(): Promise<Buffer> {
  const file = path.join(dataDir(), 'secret.key');
  try {
    const key = await readFileNoFollow(file);
    // Readable only by this user: a key copied or restored with looser bits is tightened first.
    if (process.platform !== 'win32' && ((await fs.stat(file)).mode & 0o077) !== 0) await fs.chmod(file, 0o600);
    if (key.length === 32) return key;
    throw new Error(`${file} is damaged (expected 32 bytes). Remove it to start a new key; stored secrets will be lost.`);
  } catch (error) {
    if (isLinkError(error)) throw new Error(`${file} is a symbolic link; Ferry never follows links in its data folder. Remove the link; stored secrets will need setting again.`);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    await fs.writeFile(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileNoFollow(file); // another process won the race
    throw error;
  }
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
    this.store = new JsonStore(path.join(workspaceDir, 'secrets.json'), () => ({}));
  }

  private static slot(scope: string, name: string): string {
    return `${scope}\u0000${name}`;
  }

  async get(scope: string, name: string): Promise<string | undefined> {
    const all = await this.store.read();
    const sealed = all[SecretStore.slot(scope, name)];
    return sealed ? open(await key(), sealed) : undefined;
  }

  /** Every secret of a scope, decrypted: `{ name: value }`. */
  async all(scope: string): Promise<Record<string, string>> {
    const all = await this.store.read();
    const keyBytes = await key();
    // No prototype: a secret named `__proto__` is an own key like any other.
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    const prefix = `${scope}\u0000`;
    for (const [slot, sealed] of Object.entries(all)) {
      if (slot.startsWith(prefix)) out[slot.slice(prefix.length)] = open(keyBytes, sealed);
    }
    return out;
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

