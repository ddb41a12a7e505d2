/**
 * QuickJS runs as WebAssembly. V8 first compiles each function with its baseline compiler
 * (Liftoff) and then recompiles the busy ones with its optimizing compiler (TurboFan). For
 * QuickJS that recompilation costs about half a second of CPU in a process's first seconds
 * (measured: starting a sandbox takes ~300 ms of CPU with it, ~140 ms without) and pays off only
 * after about a second of script CPU, when optimized code runs scripts ~1.4× faster.
 *
 * A short-lived process that runs a few scripts (`ferry run` of a few requests) is better off
 * with baseline code only; long runs and the app keep V8's default. It is a process-wide V8
 * setting, read when the WebAssembly module is compiled, so it must be chosen before the first
 * sandbox starts, and only by the process's owner (the command line), never by library code
 * the app also runs.
 */
import v8 from 'node:v8';

let chosen = false;

/** Baseline WebAssembly code only, for the rest of this process. Call before the first script runs. */
export function preferQuickStart(): void {
  if (chosen) return;
  chosen = true;
  v8.setFlagsFromString('--liftoff-only');
}
