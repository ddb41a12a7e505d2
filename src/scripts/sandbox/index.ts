/**
 * Entry point of the sandbox prelude (bundled to dist/sandbox/prelude.js and evaluated once per
 * QuickJS context). It installs the globals scripts expect and hands the host two functions: run
 * one script (beginning a phase first when the host sends one), and end that script. Data
 * crosses only as text: the phase as JSON, the response body when a script reads it, the report as JSON.
 *
 * One call usually does it all: a script that finishes without awaiting anything is reported at
 * once. The host still drains the job queue when the script left jobs behind (promises, async
 * tests) and then asks for the report again with `endScript`.
 */
import { arrayJoin, json, objectKeys } from './intrinsics.js';
import { installPolyfills, lazyGlobals, defineLazyGlobal } from './polyfills.js';
import { makeScope, paramNames, readsLegacyBody, usesLegacy, type ScriptScope } from './pm.js';
import { ScriptResponse } from './response.js';
import { reportJson, type ReportError } from './report.js';
import type { Phase, State } from './state.js';
import type { StateUpdate } from './pm.js';

/** A script's report of the state: the scopes it changed, the request before the send, the flow flags. */
type ReportedState = StateUpdate & Pick<State, 'nextRequestSet' | 'skipRequest' | 'nextRequest'>;

installPolyfills();

type ScriptFunction = (...args: unknown[]) => unknown;
const AsyncFunction = (async function () {}).constructor as new (...args: string[]) => ScriptFunction;
// Captured: a script may assign the global `Function`.
const SyncFunction = Function as unknown as new (...args: string[]) => ScriptFunction;
/** Scripts that never await run as plain functions: they finish within the call, with no promise job to wait for. */
const awaitPattern = /\bawait\b/;
/** The Function constructors put the body two lines below the top of `<input>`. */
const lineOffset = 2;
const compiled = new Map<string, Compiled>();
const baselineNames = Object.getOwnPropertyNames(globalThis);
const baselineGlobals = new Set(baselineNames);
/** The prelude's own `var` (esbuild's bundle name) is the one enumerable global at the start. */
const baselineEnumerableCount = objectKeys(globalThis).length;
/**
 * The names joined by a line break, which no built-in name contains: two lists of the same
 * length with the same joined text are the same list (one name with a line break would leave
 * the other list a separator short). `join` runs in C, a loop over the names in QuickJS's
 * interpreter costs about twice as much.
 */
const baselineJoined = arrayJoin.call(baselineNames, '\n');

/** Whether the global object has exactly the names it started with, in order (most scripts add none). */
function sameNames(names: string[]): boolean {
  return names.length === baselineNames.length && arrayJoin.call(names, '\n') === baselineJoined;
}
const lazyGlobalNames = Object.keys(lazyGlobals);

let phase: Phase | undefined;
let response: ScriptResponse | undefined;
/** The script run last: its scope, whether its promise settled, and how it failed. */
interface Run {
  scope: ScriptScope;
  settled: boolean;
  error?: ReportError;
}
let current: Run | undefined;

function describeError(error: unknown, syntax: boolean): ReportError {
  if (!(error instanceof Error)) return { message: `the script threw ${json.stringify(error) ?? String(error)}`, kind: 'error' };
  const text = error.message;
  const kind = /out of memory/i.test(text) ? 'memory' : /stack overflow|call stack/i.test(text) ? 'stack' : syntax ? 'syntax' : 'error';
  const line = /<input>:(\d+)(?::(\d+))?/.exec(error.stack ?? '');
  const where = line ? ` (line ${Math.max(1, Number(line[1]) - lineOffset)}${line[2] ? `, column ${line[2]}` : ''})` : '';
  return { message: `${error.name}: ${text}${where}`, kind };
}

/**
 * What a script may use to leave a global the quick check in `resetGlobals` cannot see: a global
 * defined not enumerable, or a lazy global deleted. A false alarm (a `delete` of anything, a word
 * in a string) only costs the full check.
 */
const mayHideGlobals = /define(?:Propert(?:y|ies)|[GS]etter__)|\bdelete\b/;

interface Compiled {
  fn: ScriptFunction;
  legacy: boolean;
  /** The script names `responseBody` (legacy): only then is the body read for it. */
  legacyBody: boolean;
  hidesGlobals: boolean;
}

function compile(code: string): Compiled {
  let entry = compiled.get(code);
  if (!entry) {
    const Constructor = awaitPattern.test(code) ? AsyncFunction : SyncFunction;
    entry = { fn: new Constructor(...paramNames, code), legacy: usesLegacy(code), legacyBody: readsLegacyBody(code), hidesGlobals: mayHideGlobals.test(code) };
    if (compiled.size >= 256) compiled.clear();
    compiled.set(code, entry);
  }
  return entry;
}

/**
 * Set when the last script may have left globals the quick check cannot see (`mayHideGlobals`),
 * or did not compile (its text was not looked at).
 */
let fullCheck = true;

function removeGlobal(g: Record<string, unknown>, name: string): void {
  try {
    delete g[name];
  } catch {
    // Not configurable (QuickJS declares an indirect eval's `var` so): the next script sees it undefined.
    try {
      g[name] = undefined;
    } catch {
      // Read-only as well: it stays.
    }
  }
}

/** Removes globals the last script created (sloppy-mode assignments) and restores lazy ones. */
function resetGlobals(): void {
  // A global that a script assigns, or declares in an indirect eval, is enumerable, and the built-in
  // globals are not (nor polyfills.ts's): as many enumerable names as at the start means none was
  // left (removing one takes a `delete`, which makes a full check), at half the cost of listing
  // every name (~60) and comparing.
  if (!fullCheck && objectKeys(globalThis).length === baselineEnumerableCount) return;
  fullCheck = false;
  const g = globalThis as Record<string, unknown>;
  // Indexed loops: QuickJS runs for-of through the iterator protocol, several times slower.
  const names = Object.getOwnPropertyNames(globalThis);
  if (!sameNames(names)) {
    for (let i = 0; i < names.length; i++) {
      if (!baselineGlobals.has(names[i]!)) removeGlobal(g, names[i]!);
    }
  }
  for (let i = 0; i < lazyGlobalNames.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, lazyGlobalNames[i]!);
    if (!descriptor || !descriptor.get) defineLazyGlobal(lazyGlobalNames[i]!);
  }
}

/** The phase as the host sends it: the request comes apart (`requestJson`). */
type SentPhase = Omit<Phase, 'requestJson'>;

function beginPhase(phaseJson: string, requestJson: string, body: string | undefined): void {
  const sent = json.parse(phaseJson) as SentPhase;
  phase = sent as Phase;
  phase.requestJson = requestJson;
  response = phase.response ? new ScriptResponse(phase.response, body) : undefined;
}

/** Set when a script ran whose globals were not yet removed. */
let globalsLeft = false;

/**
 * The script's tests, console lines, error and the state after it, as JSON. `final`: the host
 * ran the script's promise jobs, so the globals it left can go now; a report made within the
 * call leaves them to the next script's start (jobs the host still runs may need them).
 */
function report(run: Run, final: boolean): string {
  if (final) {
    current = undefined;
    resetGlobals();
  }
  const state = phase!.state;
  const update = run.scope.commit(state);
  let error = run.error;
  if (!error && run.scope.commitError) error = { message: run.scope.commitError, kind: 'error' };
  if (!run.settled && !error) {
    error = { message: 'the script never finished: it awaits something that never resolves (scripts have no timers or network)', kind: 'error' };
  }
  // Only what the script may have changed goes back: the host keeps the rest of what it sent.
  const reported = update as ReportedState;
  reported.nextRequestSet = state.nextRequestSet;
  reported.skipRequest = state.skipRequest;
  if (state.nextRequestSet) reported.nextRequest = state.nextRequest ?? null;
  const tests = run.scope.tests.results();
  const lines = run.scope.console.drain();
  try {
    return reportJson(tests, lines, error, reported);
  } catch (failure) {
    // Out of memory: what the script left in globals may be what fills it.
    if (final) throw failure;
    resetGlobals();
    return reportJson(tests, lines, error, reported);
  }
}

/**
 * A script that finished within the call: its report. If it left promise jobs behind (a `.then`,
 * an async test), the host runs them and asks again with endScript.
 */
function finished(run: Run): string {
  globalsLeft = true;
  return report(run, false);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

const api = Object.freeze({
  /**
   * Runs one script. `phaseJson` (with the request as JSON apart in `requestJson`; a small response
   * body in `body`, a bigger one asked of the host when a script reads it) begins a phase first; empty, the script runs in the phase already begun. Returns the script's report when it
   * finished within the call (the host uses it unless promise jobs wait: then it runs them and
   * calls endScript), '' when it still waits for its promise, or `!` and the error when the phase
   * could not begin.
   */
  runScript(phaseJson: string, requestJson: string, code: string, body?: string): string {
    current = undefined;
    if (globalsLeft) {
      globalsLeft = false;
      resetGlobals();
    }
    if (phaseJson !== '') {
      try {
        beginPhase(phaseJson, requestJson, body);
      } catch (error) {
        phase = undefined;
        return `!${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
      }
    }
    if (!phase) throw new Error('Ferry sandbox: runScript before a phase began');
    let entry: Compiled;
    try {
      entry = compile(code);
      if (entry.hidesGlobals) fullCheck = true;
    } catch (error) {
      fullCheck = true;
      const scope = makeScope(phase, response, false);
      current = { scope, settled: true, error: describeError(error, true) };
      return finished(current);
    }
    const scope = makeScope(phase, response, entry.legacy, entry.legacyBody);
    const run: Run = { scope, settled: false };
    current = run;
    let returned: unknown;
    try {
      returned = entry.fn(...scope.args);
      // (A returned value's `then` is read inside the try: a getter there may throw too.)
      if (!isThenable(returned)) {
        run.settled = true;
        return finished(run);
      }
    } catch (error) {
      run.settled = true;
      run.error = describeError(error, false);
      return finished(run);
    }
    returned.then(
      () => {
        run.settled = true;
      },
      (error: unknown) => {
        run.settled = true;
        run.error = describeError(error, false);
      },
    );
    return '';
  },

  /** The report of the script run last, after the host ran its promise jobs. */
  endScript(): string {
    if (!phase || !current) throw new Error('Ferry sandbox: endScript before runScript');
    globalsLeft = false;
    return report(current, true);
  },
});

Object.defineProperty(globalThis, '__ferry', { value: api, configurable: true, enumerable: false, writable: false });
