/**
 * A synchronous call under V8's watchdog: a `vm` script run with a timeout, which stops even code
 * Node cannot otherwise interrupt on this thread (a backtracking regular expression, WebAssembly
 * looping in C). Arming it starts a thread per call (~40 µs of CPU, more on a busy machine), so
 * callers use it only where a call may not end.
 */
import vm from 'node:vm';

/** The longest timeout V8's watchdog takes (Node checks it as an unsigned 32-bit number). */
const MAX_WATCHDOG_MS = 2 ** 32 - 1;

/** One context and script for the process: `body()` of whatever the call put there. */
let call: { context: { body?: () => unknown }; script: vm.Script } | undefined;

/** `body()`, stopped after `timeoutMs`: then it throws the error `isWatchdogTimeout` knows. */
export function runWatched<T>(body: () => T, timeoutMs: number): T {
  call ??= { context: vm.createContext({ body: undefined }), script: new vm.Script('body()', { filename: 'ferry:watchdog.js' }) };
  const { context, script } = call;
  const outer = context.body;
  context.body = body;
  try {
    return script.runInContext(context, { timeout: Math.max(1, Math.min(Math.ceil(timeoutMs), MAX_WATCHDOG_MS)) }) as T;
  } finally {
    context.body = outer;
  }
}

/** True for the error of a call the watchdog stopped. */
export function isWatchdogTimeout(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}
