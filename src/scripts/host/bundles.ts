/**
 * The JavaScript that runs inside the sandbox, built by `npm run build`
 * (scripts/bundle-sandbox.mjs) into dist/sandbox/. Read on first use and kept for the process.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Modules scripts may `require`, each a bundle of its own, loaded on first `require`. */
export const bundledModules = ['lodash', 'crypto-js', 'moment', 'uuid', 'chai', 'xml2js', 'buffer'] as const;
export type BundledModule = (typeof bundledModules)[number];

// src/scripts/host/ and dist/scripts/host/ are both three levels below the package root.
const bundleDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'sandbox');
const cache = new Map<string, string>();

function read(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    try {
      text = readFileSync(path.join(bundleDir, file), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        `The script sandbox bundle ${path.join(bundleDir, file)} is missing (${code ?? String(error)}). ` +
          'Run `npm run build` in the Ferry folder to create it.',
      );
    }
    cache.set(file, text);
  }
  return text;
}

export function preludeSource(): string {
  return read('prelude.js');
}

export function isBundledModule(name: string): name is BundledModule {
  return (bundledModules as readonly string[]).includes(name);
}

export function moduleSource(name: BundledModule): string {
  return read(`module-${name}.js`);
}
