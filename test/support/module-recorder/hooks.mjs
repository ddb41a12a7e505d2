/** The resolve hook of record.mjs: runs on the loader's thread. */
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let file;
export function initialize(data) {
  file = data.file;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(file, `${result.url.startsWith('file:') ? fileURLToPath(result.url) : result.url}\n`);
  return result;
}
