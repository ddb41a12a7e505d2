/**
 * Entry point of the sandbox prelude (bundled to dist/sandbox/prelude.js and evaluated once per
 * QuickJS context). It installs the globals scripts expect and hands the host three functions:
 * begin a phase, run one script, end that script. Data crosses only as JSON text.
 */
import { json } from './intrinsics.js';
import { installPolyfills, lazyGlobals, defineLazyGlobal } from './polyfills.js';
import { makeScope, paramNames, usesLegacy, type ScriptScope } from './pm.js';
import { ScriptResponse } from './response.js';
import type { TestRecord } from './tests.js';
import type { Entry } from './console.js';
import type { Phase, State } from './state.js';
import type { StateUpdate } from './pm.js';

/** A script's report of the state: the scopes it changed, the request before the send, the flow flags. */
type ReportedState = StateUpdate & Pick<State, 'nextRequestSet' | 'skipRequest' | 'nextRequest'>;

installPolyfills();

type ScriptFunction = (...args: unknown[]) => Promise<unknown>;
const AsyncFunction = (async function () {}).constructor as new (...args: string[]) => ScriptFunction;
/** The Function constructor puts the body two lines below the top of `<input>`. */
const lineOffset = 2;
const compiled = new Map<string, { fn: ScriptFunction; legacy: boolean }>();
const baselineNames = Object.getOwnPropertyNames(globalThis);
const baselineGlobals = new Set(baselineNames);

/** Whether the global object has exactly the names it started with, in order (most scripts add none). */
function sameNames(names: string[], expected: string[]): boolean {
  if (names.length !== expected.length) return false;
  for (let i = 0; i < names.length; i++) if (names[i] !== expected[i]) return false;
  return true;
}
const lazyGlobalNames = Object.keys(lazyGlobals);

let phase: Phase | undefined;
let response: ScriptResponse | undefined;
let current: { scope: ScriptScope; settled: boolean; error?: ErrorInfo } | undefined;

interface ErrorInfo {
  message: string;
  kind: 'error' | 'syntax' | 'memory' | 'stack';
}

function describeError(error: unknown, syntax: boolean): ErrorInfo {
  if (!(error instanceof Error)) return { message: `the script threw ${json.stringify(error) ?? String(error)}`, kind: 'error' };
  const text = error.message;
  const kind = /out of memory/i.test(text) ? 'memory' : /stack overflow|call stack/i.test(text) ? 'stack' : syntax ? 'syntax' : 'error';
  const line = /<input>:(\d+)(?::(\d+))?/.exec(error.stack ?? '');
  const where = line ? ` (line ${Math.max(1, Number(line[1]) - lineOffset)}${line[2] ? `, column ${line[2]}` : ''})` : '';
  return { message: `${error.name}: ${text}${where}`, kind };
}

function compile(code: string): { fn: ScriptFunction; legacy: boolean } {
  let entry = compiled.get(code);
  if (!entry) {
    entry = { fn: new AsyncFunction(...paramNames, code), legacy: usesLegacy(code) };
    if (compiled.size >= 256) compiled.clear();
    compiled.set(code, entry);
  }
  return entry;
}

/** Removes globals the last script created (sloppy-mode assignments) and restores lazy ones. */
function resetGlobals(): void {
  const g = globalThis as Record<string, unknown>;
  // Indexed loops: QuickJS runs for-of through the iterator protocol, several times slower.
  const names = Object.getOwnPropertyNames(globalThis);
  if (!sameNames(names, baselineNames)) {
    for (let i = 0; i < names.length; i++) {
      if (!baselineGlobals.has(names[i]!)) delete g[names[i]!];
    }
  }
  for (let i = 0; i < lazyGlobalNames.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, lazyGlobalNames[i]!);
    if (!descriptor || !descriptor.get) defineLazyGlobal(lazyGlobalNames[i]!);
  }
}

const api = Object.freeze({
  begin(phaseJson: string): void {
    phase = json.parse(phaseJson) as Phase;
    response = phase.response ? new ScriptResponse(phase.response) : undefined;
  },

  /** Starts one script; its promise jobs run when the host drains the job queue. */
  runScript(code: string): void {
    if (!phase) throw new Error('Ferry sandbox: runScript before begin');
    let entry: { fn: ScriptFunction; legacy: boolean };
    try {
      entry = compile(code);
    } catch (error) {
      const scope = makeScope(phase, response, false);
      current = { scope, settled: true, error: describeError(error, true) };
      return;
    }
    const scope = makeScope(phase, response, entry.legacy);
    const run: NonNullable<typeof current> = { scope, settled: false };
    current = run;
    const fn = entry.fn;
    const args: unknown[] = [];
    for (let i = 0; i < paramNames.length; i++) args.push(scope.params[paramNames[i]!]);
    fn(...args).then(
      () => {
        run.settled = true;
      },
      (error: unknown) => {
        run.settled = true;
        run.error = describeError(error, false);
      },
    );
  },

  /** The script's tests, console lines, error and the state after it, as JSON. */
  endScript(): string {
    const run = current;
    if (!phase || !run) throw new Error('Ferry sandbox: endScript before runScript');
    current = undefined;
    const update = run.scope.commit(phase.state);
    resetGlobals();
    let error = run.error;
    if (!run.settled && !error) {
      error = { message: 'the script never finished: it awaits something that never resolves (scripts have no timers or network)', kind: 'error' };
    }
    // Only what the script may have changed goes back: the host keeps the rest of what it sent.
    const state: ReportedState = { ...update, nextRequestSet: phase.state.nextRequestSet, skipRequest: phase.state.skipRequest };
    if (phase.state.nextRequestSet) state.nextRequest = phase.state.nextRequest ?? null;
    const out: { tests: TestRecord[]; console: Entry[]; error?: ErrorInfo; state: ReportedState } = {
      tests: run.scope.tests.results(),
      console: run.scope.console.drain(),
      state,
    };
    if (error) out.error = error;
    return json.stringify(out);
  },
});

Object.defineProperty(globalThis, '__ferry', { value: api, configurable: true, enumerable: false, writable: false });
