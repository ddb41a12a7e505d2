/** The load hook of hold.mjs: runs on the loader's thread, so the process's main thread goes on meanwhile. */
import { readFile } from 'node:fs/promises';

let fifo;
export function initialize(data) {
  fifo = data.fifo;
}
export async function load(url, context, next) {
  // Opening the named pipe waits for the test to open its end (the test's sign that Ferry is
  // loading); reading it waits for the test to close it. Read without blocking the loader's
  // thread: Node 20 then gave a CommonJS package imported later an empty default export
  // (hdr-histogram-js, so `ferry load` failed with 'hdr.build is not a function').
  if (url.endsWith('/dist/bundle/ferry.js')) await readFile(fifo);
  return next(url, context);
}
