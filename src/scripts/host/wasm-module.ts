/**
 * QuickJS's WebAssembly, compiled once per process and shared by every sandbox (each gets an
 * instance of its own). `WebAssembly.compile` works on V8's background threads, so a command that
 * knows early that a script will run (`ferry run`, once the workspace is read) starts it then,
 * and the compile overlaps what the main thread loads meanwhile. No QuickJS JavaScript is
 * imported here.
 *
 * By default V8 compiles a WebAssembly function on the main thread the first time it is called
 * (lazy compilation): starting a sandbox compiled ~20 ms of QuickJS's functions that way. A
 * compile started ahead of use compiles every function, on the background threads.
 *
 * V8 reads its WebAssembly flags when the module is compiled: a process that wants baseline code
 * only (quick-start.ts) sets that first.
 */
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';

let compiled: Promise<WebAssembly.Module> | undefined;

/** The file quickjs-emscripten's release build loads, found as that package finds it (through its own dependency). */
function wasmFile(): string {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('quickjs-emscripten')).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
}

/** The compiled module: the same promise for the whole process (the first caller decides `whole`). */
export function quickJSWasmModule(whole = false): Promise<WebAssembly.Module> {
  if (!compiled) {
    compiled = (async () => {
      const file = wasmFile();
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await fs.readFile(file);
      } catch (error) {
        throw new Error(`The script sandbox's WebAssembly ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)}). Reinstall Ferry's dependencies (npm install).`);
      }
      // A process-wide V8 flag, read while the module compiles: set for this compile only.
      if (whole) v8.setFlagsFromString('--no-wasm-lazy-compilation');
      try {
        return await WebAssembly.compile(bytes);
      } finally {
        if (whole) v8.setFlagsFromString('--wasm-lazy-compilation');
      }
    })();
    // Started ahead of use, it may fail before anyone awaits it: the sandbox's start reports it.
    compiled.catch(() => undefined);
  }
  return compiled;
}

/** Starts compiling the whole module now, on the background threads, for a sandbox that will start soon. */
export function startCompilingQuickJS(): void {
  void quickJSWasmModule(true);
}
