/**
 * `node --import record.mjs ...`: appends every module the process resolves, one a line, to the
 * file named by FERRY_RECORD_MODULES — ES modules through a resolve hook, CommonJS through
 * Module._resolveFilename (require() does not pass the hooks on Node 20).
 */
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const file = process.env.FERRY_RECORD_MODULES;
if (!file) throw new Error('record.mjs: set FERRY_RECORD_MODULES to the file to append to');
register('./hooks.mjs', import.meta.url, { data: { file } });
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const resolved = resolveFilename.apply(this, args);
  appendFileSync(file, `${resolved}\n`);
  return resolved;
};
