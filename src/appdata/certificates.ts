/**
 * Where this computer keeps the generated localhost certificate (spec 5.3): one pair of PEM files
 * in `<data folder>/certificates`, shared by every server so a client trusts it once. Only storage
 * lives here; making and renewing the certificate is the servers' business.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../support/atomic-write.js';
import { readFileNoFollow } from '../support/read-no-follow.js';
import { JsonStore } from './json-store.js';
import { dataDir } from './paths.js';
import { makeDirs } from '../support/make-dirs.js';

export const CERT_FILE = 'localhost-cert.pem';
export const KEY_FILE = 'localhost-key.pem';

export interface StoredCertificate {
  cert: string;
  key: string;
  /** The certificate's file, for messages. */
  file: string;
}

/** The folder the generated certificate lives in: `<data folder>/certificates` unless given. */
export function certificateFolder(given?: string): string {
  return given ?? path.join(dataDir(), 'certificates');
}

/** The stored pair, or undefined when either file is missing, unreadable or a symbolic link. */
export async function readStoredCertificate(dir: string): Promise<StoredCertificate | undefined> {
  const file = path.join(dir, CERT_FILE);
  try {
    // Never through a link: one would make the server present (and serve with) a file from elsewhere.
    const [cert, key] = await Promise.all([readFileNoFollow(file, 'utf8'), readFileNoFollow(path.join(dir, KEY_FILE), 'utf8')]);
    return { cert, key, file };
  } catch {
    return undefined;
  }
}

/** Stores a new pair atomically, the key readable only by this user. */
export async function storeCertificate(dir: string, pem: { cert: string; key: string }): Promise<StoredCertificate> {
  await makeDirs(dir, 0o700);
  const file = path.join(dir, CERT_FILE);
  // Key first: a reader that finds the certificate always finds its key.
  await writeFileAtomic(path.join(dir, KEY_FILE), pem.key, 0o600);
  await writeFileAtomic(file, pem.cert, 0o644);
  return { ...pem, file };
}

/**
 * The stored pair when `usable` accepts it, else a new one `make` gives, stored: under the
 * certificate's lock (the stores' lock, json-store.ts), read again once it is held, so that
 * processes starting servers at the same moment make one pair and serve it all (a client trusts it
 * once), and never leave one's key beside another's certificate.
 */
export async function storedOrMadeCertificate(dir: string, usable: (stored: StoredCertificate) => boolean, make: () => Promise<{ cert: string; key: string }>): Promise<StoredCertificate> {
  const lock = new JsonStore(path.join(dir, CERT_FILE), () => ({}), 'a new certificate is made');
  return lock.withLock(async () => {
    const stored = await readStoredCertificate(dir);
    if (stored && usable(stored)) return stored;
    return storeCertificate(dir, await make());
  });
}
