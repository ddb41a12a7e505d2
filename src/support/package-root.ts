/**
 * Ferry's own folder (package.json, dist/), for the files it reads at run time: its version, the
 * script sandbox's bundles, the built UI. This module is two folders below that folder in every
 * layout Ferry runs from: src/support/ (tests, tsx), dist/support/ (tsc's output) and dist/bundle/
 * (the bundle bin/ferry.js loads, where import.meta.url is the chunk's; scripts/bundle-cli.mjs
 * keeps its output folder two levels deep for this).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let version: string | undefined;

/** Ferry's version, from its package.json (read once). */
export function packageVersion(): string {
  return (version ??= (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version);
}
