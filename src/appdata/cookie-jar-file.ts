/**
 * The workspace's cookie jar in the data folder (spec 5.2: cookies stay on this computer): read
 * and written as the jar's serialized JSON. A missing, damaged or linked file reads as nothing
 * (the jar starts empty); a write replaces a link instead of writing through it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../support/atomic-write.js';
import { readFileNoFollow } from '../support/read-no-follow.js';

export async function readCookieJarFile(file: string | undefined): Promise<unknown> {
  if (!file) return undefined;
  try {
    return JSON.parse(await readFileNoFollow(file, 'utf8')); // a link is not followed
  } catch {
    return undefined; // missing or damaged: the jar starts empty
  }
}

export async function writeCookieJarFile(file: string, serialized: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, JSON.stringify(serialized), 0o600);
}
