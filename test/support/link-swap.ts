/**
 * A file swapped for a symbolic link and back, again and again, by another thread, while a reader
 * reads it: a reader that checks for a link and then reads (two steps) now and then reads through
 * the link; one that opens without following a link at the last component (O_NOFOLLOW) never does.
 */
import { Worker } from 'node:worker_threads';

const SWAPPER = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { file, target, plain, ms, stop } = workerData;
const flag = new Int32Array(stop);
const deadline = Date.now() + ms;
parentPort.postMessage('swapping');
for (let i = 0; Atomics.load(flag, 0) === 0 && Date.now() < deadline; i++) {
  const temp = file + '.swap' + (i % 2);
  if (i % 2 === 0) fs.symlinkSync(target, temp);
  else fs.writeFileSync(temp, plain);
  fs.renameSync(temp, file);
}
fs.writeFileSync(file + '.plain', plain);
fs.renameSync(file + '.plain', file);
`;

/**
 * Calls `read` up to `reads` times (and for at most `ms`) while `file` is, in turn, a regular file
 * holding `plain` and a link to `target`; returns what each call gave (its value or its error).
 * `file` is a regular file holding `plain` again at the end.
 */
export async function readWhileSwapping<T>(file: string, target: string, plain: string, read: () => Promise<T>, options: { reads?: number; ms?: number } = {}): Promise<Array<{ value: T } | { error: Error }>> {
  const ms = options.ms ?? 3000;
  const stop = new SharedArrayBuffer(4);
  const worker = new Worker(SWAPPER, { eval: true, workerData: { file, target, plain, ms, stop } });
  const ended = new Promise<void>((resolve, reject) => worker.once('exit', () => resolve()).once('error', reject));
  // Reads start once the other thread swaps.
  await new Promise<void>((resolve, reject) => worker.once('message', () => resolve()).once('error', reject));
  const outcomes: Array<{ value: T } | { error: Error }> = [];
  const deadline = Date.now() + ms;
  try {
    for (let i = 0; i < (options.reads ?? 2000) && Date.now() < deadline; i++) {
      outcomes.push(await read().then((value) => ({ value }), (error: Error) => ({ error })));
    }
  } finally {
    Atomics.store(new Int32Array(stop), 0, 1);
    await ended;
  }
  return outcomes;
}
