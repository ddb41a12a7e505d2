#!/usr/bin/env node
// Bundles the code that runs inside Ferry's QuickJS script sandbox into plain JS files under
// dist/sandbox/: the `pm` API (prelude.js) and one file per module scripts may `require`.
// The engine reads them lazily at run time; QuickJS has no module loader or Node built-ins.
import { build } from 'esbuild';
import { mkdir, writeFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist', 'sandbox');
const shim = (name) => path.join(root, 'scripts', 'sandbox-shims', `${name}.cjs`);

/** name scripts use in require() -> the CommonJS expression that produces the module. */
const modules = {
  lodash: "require('lodash')",
  'crypto-js': "require('crypto-js')",
  moment: "require('moment')",
  uuid: "require('uuid')",
  chai: "require('chai')",
  xml2js: "require('xml2js')",
  buffer: "require('buffer')",
  // Postman's tv4, over the JSON Schema validator below (src/scripts/sandbox/tv4.ts; modules.ts joins them).
  tv4: "require('./src/scripts/sandbox/tv4.ts').makeTv4",
  // Not for require(): what pm.response.to.have.jsonSchema validates with (an interpreter, no code generation).
  'json-schema': "require('@cfworker/json-schema')",
  // Not for require(): the status descriptions of the legacy `responseCode.detail`, Postman's own table.
  'http-reasons': "require('http-reasons/db.json')",
};

const common = {
  bundle: true,
  write: false,
  format: 'iife',
  globalName: '__ferryModule',
  platform: 'browser',
  // QuickJS runs ES2023: class fields stay native (esbuild's lowering of them to defineProperty
  // calls cost a third of building a script's `pm`).
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  alias: {
    events: shim('events'),
    timers: shim('timers'),
    stream: shim('stream'),
    string_decoder: shim('string_decoder'),
  },
};

async function bundle(name, entry) {
  const result = await build({ ...common, ...entry });
  const text = result.outputFiles[0].text;
  await writeFile(path.join(outDir, `${name}.js`), text);
  return text.length;
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const sizes = {};
sizes.prelude = await bundle('prelude', {
  entryPoints: [path.join(root, 'src', 'scripts', 'sandbox', 'index.ts')],
  // Whitespace and syntax only: names stay (scripts can see function and class names). Every
  // sandbox parses the prelude, and the host copies it into the WebAssembly heap a character at
  // a time: 30% less text is a few ms less at each start.
  minify: false,
  minifyWhitespace: true,
  minifySyntax: true,
});
/** What a module needs that QuickJS lacks: the JSON Schema validator resolves `$ref`s with `URL`. */
const injected = { 'json-schema': [path.join(root, 'scripts', 'sandbox-shims', 'url.mjs')] };
for (const [name, expr] of Object.entries(modules)) {
  sizes[name] = await bundle(`module-${name}`, {
    stdin: { contents: `module.exports = ${expr};`, resolveDir: root, sourcefile: `${name}-entry.cjs`, loader: 'js' },
    ...(injected[name] ? { inject: injected[name] } : {}),
  });
}
await writeFile(path.join(outDir, 'manifest.json'), JSON.stringify({ modules: Object.keys(modules), sizes }, null, 2) + '\n');
console.log(`sandbox bundles written to ${path.relative(root, outDir)}: ` +
  Object.entries(sizes).map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KB`).join(', '));
