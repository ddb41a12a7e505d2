#!/usr/bin/env node
// Bundles the `ferry` command into dist/bundle/ (what bin/ferry.js loads): ES modules, one chunk
// per lazily imported command or library part (esbuild's splitting), with source maps. Node 20
// loads an ES module graph file by file; a one-request run resolved ~315 modules unbundled.
//
// Only the packages a short run loads are bundled (PACKAGES_INSIDE); every other package stays
// an `import`/`require` resolved from node_modules at run time (their files, WebAssembly and
// workers are found relative to themselves). Ferry's own run-time files are found from
// src/support/package-root.ts, which expects the chunks two folders below the package: keep
// dist/bundle/ at that depth.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'bundle');

/** Packages compiled into the bundle: the ones `ferry --help` and a one-request `ferry run` load. */
const PACKAGES_INSIDE = new Set(['commander', 'picocolors', 'zod', 'js-yaml', 'env-paths', 'is-safe-filename', 'proper-lockfile', 'graceful-fs', 'retry', 'signal-exit']);

const packageName = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

/** Leaves every package outside the bundle but PACKAGES_INSIDE (Node's built-ins are external on platform node). */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || PACKAGES_INSIDE.has(packageName(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * `import process from 'node:process'` (env-paths does) makes Node 20 build an ES module facade
 * of the process object, which reads every property of it: process.stdin is opened and the list
 * of allowed flags built, ~25 ms for a value that is already the global `process`.
 */
const processGlobal = {
  name: 'process-global',
  setup(b) {
    b.onResolve({ filter: /^(node:)?process$/ }, (args) => (args.kind === 'import-statement' ? { path: 'process', namespace: 'process-global' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({ contents: 'export default globalThis.process;', loader: 'js' }));
  },
};

/**
 * zod's `z` namespace (and `z.core`'s) re-exports its error messages in ~45 languages (`locales`, 370 KB); Ferry
 * reports in English only (zod's default), so in the bundle `locales` holds `en` alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[/\\]zod[/\\]v4[/\\](classic|core)[/\\]/.test(args.importer)) return undefined;
      return { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-english-only' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

await rm(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { ferry: path.join(root, 'src', 'cli', 'main.ts'), 'load-worker': path.join(root, 'src', 'load', 'worker.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  plugins: [processGlobal, zodEnglishOnly, externalPackages],
  // The CommonJS packages inside call require() for Node's built-ins; ES modules have none.
  banner: { js: "import { createRequire as __ferryCreateRequire } from 'node:module'; const require = __ferryCreateRequire(import.meta.url);" },
});
// Which source files went into which output file: test/support/loaded-modules.ts reads it.
await writeFile(path.join(outdir, 'metafile.json'), JSON.stringify(result.metafile));
const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'));
console.log(`CLI bundle written to dist/bundle: ${outputs.length} files, ${Object.keys(result.metafile.inputs).length} modules`);
