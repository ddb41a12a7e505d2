/**
 * The workspace's cookie jar in the data folder (spec 5.2: cookies stay on this computer): read
 * and written as the jar's serialized JSON. A missing, damaged or linked file reads as nothing
 * (the jar starts empty), a linked folder on the way is refused (json-store.ts); a write replaces a link instead of writing through it, and sets a
 * damaged file aside instead of writing over it.
 */
import { writeFileAtomic } from '../support/atomic-write.js';
import { FileTooLargeError, readFileNoFollow } from '../support/read-no-follow.js';
import { JsonStore, MAX_STORE_BYTES, refuseLinkedFolder, tooLarge } from './json-store.js';

const LOST = 'the cookies kept for this workspace are lost: the servers set them again as you send';

export async function readCookieJarFile(file: string | undefined): Promise<unknown> {
  if (!file) return undefined;
  await refuseLinkedFolder(file); // a folder on the way that is a link is refused, as for every store
  try {
    return JSON.parse(await readFileNoFollow(file, 'utf8', MAX_STORE_BYTES)); // a link is not followed
  } catch {
    return undefined; // missing, damaged or too large: the jar starts empty
  }
}

/**
 * Replaces the jar file with `change(what it holds now)`, under the lock the other stores of the
 * data folder take (json-store.ts): several processes save their jars (two `ferry run`s, the app
 * and a run), and each must read what the others saved, not write over it. What it holds now is
 * undefined when there is no file, or a link (replaced, its target untouched). One that does not
 * parse (cut short, edited by hand) or is too large to read (json-store.ts) is not written over either: it is set aside first
 * (`cookies.json.damaged-<time>`), as the other stores are, so what it held is not lost.
 */
export async function updateCookieJarFile(file: string, change: (current: unknown) => unknown): Promise<void> {
  // The lock makes the folder when it is missing.
  await new JsonStore(file, () => ({}), LOST).withLock(async () => {
    let problem: string | undefined;
    const text = await readFileNoFollow(file, 'utf8', MAX_STORE_BYTES).catch(async (error: unknown) => {
      if (error instanceof FileTooLargeError) problem = await tooLarge(file);
      return undefined;
    });
    let current: unknown;
    if (text !== undefined) {
      try {
        current = JSON.parse(text);
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    if (problem !== undefined) {
      // Loaded only then: `ferry run` loads no more than it needs (test/cli/command-table.test.ts).
      const { setAside } = await import('./set-aside.js');
      await setAside(file, problem, LOST);
    }
    await writeFileAtomic(file, JSON.stringify(change(current)), 0o600);
  });
}
