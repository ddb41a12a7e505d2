/**
 * The workspace's cookie jar in the data folder (spec 5.2: cookies stay on this computer): read
 * and written as the jar's serialized JSON. A missing, damaged or linked file reads as nothing
 * (the jar starts empty); a write replaces a link instead of writing through it, and sets a
 * damaged file aside instead of writing over it.
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

/**
 * Replaces the jar file. One that does not parse (cut short, edited by hand) was read as an empty
 * jar and is not written over: it is set aside first (`cookies.json.damaged-<time>`), as the other
 * stores of the data folder do, so what it held is not lost to the next run that gets a cookie.
 */
export async function writeCookieJarFile(file: string, serialized: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const current = await readFileNoFollow(file, 'utf8').catch(() => undefined);
  const problem = current === undefined ? undefined : parseProblem(current);
  if (problem !== undefined) {
    // Loaded only then: `ferry run` loads no more than it needs (test/cli/command-table.test.ts).
    const { setAside } = await import('./set-aside.js');
    await setAside(file, problem, 'the cookies kept for this workspace are lost: the servers set them again as you send');
  }
  await writeFileAtomic(file, JSON.stringify(serialized), 0o600);
}

/** Why `text` is not JSON, or undefined when it is. */
function parseProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
