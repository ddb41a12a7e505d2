/**
 * The JavaScript that runs inside the sandbox, built by `npm run build`
 * (scripts/bundle-sandbox.mjs) into dist/sandbox/. Read on first use and kept for the process.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../support/package-root.js';

/**
 * Modules scripts may `require` (and `json-schema`, which `jsonSchema` assertions use, and
 * `http-reasons`, the legacy `responseCode.detail`), each a bundle of its own, loaded on first use.
 */
export const bundledModules = ['lodash', 'crypto-js', 'moment', 'uuid', 'chai', 'xml2js', 'buffer', 'tv4', 'json-schema', 'http-reasons'] as const;
export type BundledModule = (typeof bundledModules)[number];

const bundleDir = path.join(packageRoot, 'dist', 'sandbox');
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
