/**
 * A file swapped for a symbolic link at the one moment that matters: every check of the file done
 * and its open called. A reader that checks for a link and then reads (two steps) reads through the
 * link then; one that opens without following a link at the last component (O_NOFOLLOW) is refused.
 * (A thread swapping at random hit that moment only now and then, and under load missed the plain
 * file too.)
 */
import { promises as fs } from 'node:fs';
import { vi } from 'vitest';

/**
 * Calls `read` once, `file` made a link to `target` (as an attacker would, by a rename) as its open is
 * called; returns what `read` gave (its value or its error) and how many times the swap was made
 * (1 when `read` opened `file` through `fs.promises.open`). `file` is a link at the end.
 */
export async function readWithLinkSwappedAtOpen<T>(file: string, target: string, read: () => Promise<T>): Promise<{ outcome: { value: T } | { error: Error }; swapped: number }> {
  const open = fs.open.bind(fs);
  let swapped = 0;
  const opening = vi.spyOn(fs, 'open').mockImplementation(async (name, ...rest) => {
    if (name === file) {
      await fs.symlink(target, `${file}.link`);
      await fs.rename(`${file}.link`, file);
      swapped++;
    }
    return open(name, ...rest);
  });
  try {
    const outcome = await read().then((value) => ({ value }), (error: Error) => ({ error }));
    return { outcome, swapped };
  } finally {
    opening.mockRestore();
  }
}
