/**
 * QuickJS's WebAssembly, compiled once per process and shared by every sandbox (each gets an
 * instance of its own). `WebAssembly.compile` decodes and validates on V8's background threads,
 * so a command that knows early that a script will run (`ferry run`, once the workspace is read)
 * starts it then: it overlaps loading the script host and QuickJS's JavaScript on the main
 * thread instead of following them. No QuickJS JavaScript is imported here.
 *
 * V8 reads its WebAssembly flags when the module is compiled: a process that wants baseline code
 * only (quick-start.ts) sets that first.
 */
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';

let compiled: Promise<WebAssembly.Module> | undefined;

/** The file quickjs-emscripten's release build loads, found as that package finds it (through its own dependency). */
function wasmFile(): string {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('quickjs-emscripten')).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
}

/** The compiled module: the same promise for the whole process. */
export function quickJSWasmModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    compiled = (async () => {
      const file = wasmFile();
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await fs.readFile(file);
      } catch (error) {
        throw new Error(`The script sandbox's WebAssembly ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)}). Reinstall Ferry's dependencies (npm install).`);
      }
      return WebAssembly.compile(bytes);
    })();
    // Started ahead of use, it may fail before anyone awaits it: the sandbox's start reports it.
    compiled.catch(() => undefined);
  }
  return compiled;
}

/** Starts the compilation now, for a sandbox that will start soon. */
export function startCompilingQuickJS(): void {
  void quickJSWasmModule();
}
