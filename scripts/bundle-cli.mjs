#!/usr/bin/env node
// Bundles the `ferry` command into dist/bundle/ (what bin/ferry.js loads): ES modules, one chunk
// per lazily imported command or library part (esbuild's splitting, into dist/bundle-split/), then
// the chunks the same commands always load joined into one file each (joinChunks), with source
// maps. Node 20 loads an ES module graph file by file; a one-request run resolved ~315 modules
// unbundled, 48 files from esbuild's chunks, 15 joined.
//
// Only the packages a short run loads are bundled (PACKAGES_INSIDE); every other package stays
// an `import`/`require` resolved from node_modules at run time (their files, WebAssembly and
// workers are found relative to themselves). Ferry's own run-time files are found from
// src/support/package-root.ts, which expects the chunks two folders below the package: keep
// dist/bundle/ at that depth.
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'bundle');

/**
 * Packages compiled into the bundle: the ones `ferry --help` and a one-request `ferry run` load,
 * with a script's sandbox (quickjs-emscripten's JavaScript: 13 small ES modules from node_modules,
 * 5 files here). Its WebAssembly stays in node_modules, compiled by src/scripts/host/wasm-module.ts.
 */
const PACKAGES_INSIDE = new Set([
  'commander', 'picocolors', 'zod', 'js-yaml', 'env-paths', 'is-safe-filename',
  'quickjs-emscripten', 'quickjs-emscripten-core', '@jitl/quickjs-ffi-types', '@jitl/quickjs-wasmfile-release-sync',
  '@jitl/quickjs-wasmfile-debug-sync', '@jitl/quickjs-wasmfile-release-asyncify', '@jitl/quickjs-wasmfile-debug-asyncify',
]);

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

/**
 * `yaml` stays outside the bundle (loaded only by the commands that write, edit or fall back to
 * it) but not as its package: Node 20 reads, wraps and compiles its 72 CommonJS files one by one
 * (~75 ms of CPU for a `ferry import`), one file of the same code in ~18 ms. So the package is
 * built into dist/bundle/yaml.cjs (yamlAsOneFile), and src/support/yaml-library.ts, where Ferry
 * loads it from, loads that file in the bundle.
 */
const YAML_LIBRARY = path.join(root, 'src', 'support', 'yaml-library.ts');
const yamlFromOneFile = {
  name: 'yaml-from-one-file',
  setup(b) {
    b.onLoad({ filter: /[/\\]support[/\\]yaml-library\.ts$/ }, (args) => {
      if (args.path !== YAML_LIBRARY) return undefined;
      return {
        contents: "import { lazyRequire } from './lazy-require.js';\nexport const yamlLibrary = lazyRequire(import.meta.url, './yaml.cjs');\n",
        resolveDir: path.dirname(args.path),
        loader: 'ts',
      };
    });
  },
};

/** Builds the `yaml` package into dist/bundle/yaml.cjs; returns its metafile outputs (paths as the bundle's). */
async function yamlAsOneFile() {
  const built = await build({
    entryPoints: [createRequire(path.join(root, 'package.json')).resolve('yaml')],
    outfile: path.join(outdir, 'yaml.cjs'),
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  return Object.fromEntries(Object.entries(built.metafile.outputs).filter(([file]) => file.endsWith('.cjs')));
}

/**
 * Rolldown (charset 'ascii', below) escapes text outside ASCII in code but keeps it in the comments
 * it keeps. One such character makes Node hold the whole file as two-byte text, slower to decode
 * and to compile (zod's 430 KB chunk: ~5 ms of a run), so it is written as its `\uXXXX` escape
 * there too. Source map columns after it on its line shift by five characters.
 */
async function escapeNonAsciiComments(files) {
  for (const file of files) {
    const full = path.join(root, file);
    const text = await readFile(full, 'utf8');
    if (!/[^\0-\x7f]/.test(text)) continue;
    if (/[^\0-\x7f]/.test(text.replace(/\/\*[^]*?\*\/|\/\/[^\n]*/g, ''))) {
      throw new Error(`${file}: text outside ASCII in code; check how it was written before escaping it here`);
    }
    await writeFile(full, text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  }
}

/**
 * Which esbuild chunks to join into one file. esbuild makes a chunk for each set of entries (the
 * two entries and every `import()` target) that reach a module, so a one-request run loaded 48
 * files, 32 of them under 5 KB; each file costs Node 20's ES module loader ~0.5-1 ms of CPU
 * (resolve, read, compile, link), whatever its size. Chunks are joined when the same commands
 * always load them together: a chunk that `ferry.js` imports is loaded by every command; any
 * other chunk by the commands (`import()` targets of ferry.js) whose static imports reach it, and
 * by the load worker when its imports do. Chunks with the same such set become one file; a chunk
 * no command reaches statically (a request kind's client, a signer) keeps esbuild's place.
 * Returns the group of each chunk joined (by absolute path) and the groups, first placed first.
 */
function chunkGroups(metafile, splitDir) {
  const outputs = metafile.outputs;
  const entry = (name) => path.relative(root, path.join(splitDir, `${name}.js`));
  const reached = (from) => {
    const seen = new Set();
    const stack = [from];
    while (stack.length > 0) {
      const file = stack.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      for (const i of outputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) stack.push(i.path);
    }
    seen.delete(from);
    return seen;
  };
  const main = entry('ferry');
  const commands = [...new Set(outputs[main].imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path))];
  const loaders = new Map();
  const add = (file, by) => loaders.set(file, (loaders.get(file) ?? new Set()).add(by));
  for (const file of reached(main)) add(file, 'ferry');
  for (const command of commands) for (const file of reached(command)) if (!loaders.get(file)?.has('ferry')) add(file, command);
  // What every command loads goes to the load worker whole (one file more for it, one less for all).
  for (const file of reached(entry('load-worker'))) if (!loaders.get(file)?.has('ferry')) add(file, 'load-worker');
  const groups = new Map();
  for (const [file, by] of loaders) {
    const key = [...by].sort().join(' ');
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  // A chunk alone in its set is a group too: left out, Rolldown would pull it into the group of
  // a chunk importing it (includeDependenciesRecursively), and a command loading only it would
  // load that whole group (a warm `ferry ls` loaded zod with the warning texts).
  const groupOf = new Map();
  for (const [key, files] of groups) for (const file of files) groupOf.set(path.join(root, file), key);
  // A group's chunks import chunks of groups loaded by more commands (a superset): those are
  // placed first, so no group captures another's chunk and no two groups import each other.
  const rank = (key) => (key.split(' ').includes('ferry') ? Infinity : key.split(' ').length);
  const keys = [...groups.keys()].sort((a, b) => rank(b) - rank(a));
  return { groupOf, keys };
}

/**
 * Joins esbuild's chunks (splitDir) into outdir by chunkGroups, with Vite's bundler (Rolldown),
 * whose output chunks can be grouped; esbuild's source maps are read in, so the maps written
 * still point into src/ and the packages. Returns the metafile of the joined files (the same
 * shape as esbuild's, for test/support/loaded-modules.ts).
 */
async function joinChunks(metafile, splitDir) {
  const { groupOf, keys } = chunkGroups(metafile, splitDir);
  const output = await viteBuild({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    plugins: [{
      name: 'esbuild-source-maps',
      async load(id) {
        if (!id.startsWith(splitDir + path.sep)) return null;
        return { code: await readFile(id, 'utf8'), map: await readFile(`${id}.map`, 'utf8') };
      },
    }],
    build: {
      ssr: true,
      outDir: outdir,
      emptyOutDir: true,
      sourcemap: true,
      minify: false,
      target: 'node20',
      reportCompressedSize: false,
      rolldownOptions: {
        input: { ferry: path.join(splitDir, 'ferry.js'), 'load-worker': path.join(splitDir, 'load-worker.js') },
        cwd: root,
        external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
        checks: { pluginTimings: false },
        output: {
          format: 'esm',
          // Text outside ASCII as escapes, also in the patterns esbuild keeps as they are
          // (is-safe-filename's `¹²³`); comments: escapeNonAsciiComments.
          charset: 'ascii',
          entryFileNames: '[name].js',
          chunkFileNames: '[name]-[hash].js',
          codeSplitting: {
            groups: keys.map((key, i) => ({ name: key.split(' ').includes('ferry') ? 'cli' : `shared${i + 1}`, priority: keys.length - i, test: (id) => groupOf.get(path.normalize(id)) === key })),
          },
        },
      },
    },
  });
  const chunks = (Array.isArray(output) ? output[0] : output).output.filter((o) => o.type === 'chunk');
  const joined = { inputs: metafile.inputs, outputs: {} };
  for (const chunk of chunks) {
    const inputs = {};
    for (const id of chunk.moduleIds) {
      const from = metafile.outputs[path.relative(root, id)];
      for (const [input, { bytesInOutput }] of Object.entries(from?.inputs ?? {})) {
        inputs[input] = { bytesInOutput: (inputs[input]?.bytesInOutput ?? 0) + bytesInOutput };
      }
    }
    joined.outputs[path.relative(root, path.join(outdir, chunk.fileName))] = { bytes: Buffer.byteLength(chunk.code), inputs };
  }
  return joined;
}

const splitDir = path.join(root, 'dist', 'bundle-split');
await rm(outdir, { recursive: true, force: true });
await rm(splitDir, { recursive: true, force: true });
const result = await build({
  entryPoints: { ferry: path.join(root, 'src', 'cli', 'main.ts'), 'load-worker': path.join(root, 'src', 'load', 'worker.ts') },
  outdir: splitDir,
  // The metafile's paths are relative to this folder (chunkGroups, test/support/loaded-modules.ts).
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
  plugins: [processGlobal, zodEnglishOnly, yamlFromOneFile, externalPackages],
  // The CommonJS packages inside call require() for Node's built-ins; ES modules have none.
  banner: { js: "import { createRequire as __ferryCreateRequire } from 'node:module'; const require = __ferryCreateRequire(import.meta.url);" },
});
const metafile = await joinChunks(result.metafile, splitDir);
await rm(splitDir, { recursive: true, force: true });
Object.assign(metafile.outputs, await yamlAsOneFile());
const outputs = Object.keys(metafile.outputs);
await escapeNonAsciiComments(outputs);
// Which source files went into which output file: test/support/loaded-modules.ts reads it.
await writeFile(path.join(outdir, 'metafile.json'), JSON.stringify(metafile));
console.log(`CLI bundle written to dist/bundle: ${outputs.length} files (${Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js')).length} chunks joined), ${Object.keys(result.metafile.inputs).length} modules`);
