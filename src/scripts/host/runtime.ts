/**
 * One QuickJS runtime + context holding the prelude (the `pm` API) and the modules scripts have
 * required so far. Only strings cross the boundary: the phase goes in as JSON, the response body
 * only when a script reads it (a host function), each script's outcome comes back as JSON. A script that runs over a limit leaves the sandbox `broken`; the
 * engine then throws it away and starts a fresh one.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { isBundledModule, moduleSource, preludeSource } from './bundles.js';
import { quickJSWasmModule } from './wasm-module.js';
import { isWatchdogTimeout, runWatched } from '../../support/watchdog.js';
import { scriptWatchdogArmed } from './watchdog-setting.js';

export const defaultTimeoutMs = 5000;
export const defaultMemoryBytes = 64 * 1024 * 1024;
/**
 * QuickJS's stack limit. The WebAssembly code runs on Node's own stack (about 1 MB), so a larger
 * value lets deep recursion crash the host instead of failing the script.
 */
const maxStackBytes = 256 * 1024;
/** Promise jobs run per batch between deadline checks. */
const jobBatch = 1000;

export type LimitKind = 'timeout' | 'memory' | 'stack';

const unreadableError = 'an error that could not be read';

/** What one script run produced: the sandbox's JSON, or the limit/failure that ended it. */
export type RawOutcome =
  | { ok: true; json: string }
  /** `json`: for a script stopped by a limit, its report up to that point (variables, tests, console) when it could still be read. */
  | { ok: false; kind: LimitKind | 'error'; message: string; json?: string; notStarted?: boolean };

/**
 * A phase to begin before a script: its data as JSON, without the request and the response body,
 * which come apart (the request as JSON the sandbox parses only if a script reads it).
 */
export interface PhaseData {
  json: string;
  request: string;
  /** The response body, asked for only when a script reads it (a 200 MB download checked for its status never crosses). */
  body?: ResponseBody;
}

/** A response body the sandbox may ask for: its size known up front, its text made on first use. */
export interface ResponseBody {
  /** Upper bound of the text's length in characters (the bytes received, or the text's length). */
  size: number;
  text(): string;
  /** The request it answers, for the message when it does not fit. */
  requestName: string;
}

/**
 * A body up to this many characters goes in with the phase, read or not: one string costs less than
 * the host call a read would make (~35 µs a phase). A bigger one crosses only when a script reads it.
 * Below scriptMemoryMb's least value (4 MB), so it always fits.
 */
const EAGER_BODY_CHARS = 64 * 1024;

/** Memory the QuickJS build starts with (its INITIAL_MEMORY): static data, its stack, the prelude. */
const initialHeapBytes = 16 * 1024 * 1024;
const wasmPageBytes = 64 * 1024;

/**
 * A WebAssembly instance of QuickJS of its own (a few ms). Each engine has one, so a script that
 * exhausts the host's stack inside QuickJS's C code (which QuickJS's own stack check cannot see,
 * e.g. `JSON.parse` of deeply nested arrays) takes down only that instance, never the process.
 *
 * Its memory can grow by at most `memoryBytes`. QuickJS's own memory limit cannot be trusted
 * here: the WebAssembly build has no `malloc_usable_size`, so QuickJS counts a few bytes per
 * allocation and only refuses single allocations over the limit; a script pushing small objects
 * grew the heap to 2 GB. With the ceiling on the WebAssembly memory, `malloc` fails at the limit
 * and QuickJS throws its out-of-memory error inside the script.
 */
export async function loadQuickJS(memoryBytes: number = defaultMemoryBytes): Promise<QuickJSWASMModule> {
  // The build's own ceiling is 2 GB (32768 pages).
  const maximum = Math.min(32768, Math.ceil((initialHeapBytes + memoryBytes) / wasmPageBytes));
  const wasmMemory = new WebAssembly.Memory({ initial: initialHeapBytes / wasmPageBytes, maximum });
  // Imported here: a run without scripts never loads QuickJS.
  const { RELEASE_SYNC, newQuickJSWASMModuleFromVariant, newVariant } = await import('quickjs-emscripten');
  // The WebAssembly is compiled once per process (wasm-module.ts); each sandbox gets its own instance and memory.
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory, wasmModule: () => quickJSWasmModule() }));
  heaps.set(module, { memory: wasmMemory, maxBytes: maximum * wasmPageBytes });
  return module;
}

const heaps = new WeakMap<QuickJSWASMModule, { memory: WebAssembly.Memory; maxBytes: number }>();

/**
 * Whether the module's memory has grown to (nearly) its ceiling. Growth goes in steps of up to
 * 20%, so the last step may be refused a little before the ceiling.
 */
export function heapExhausted(module: QuickJSWASMModule): boolean {
  return heapShare(module) >= 0.8;
}

/** Whether the module's memory has grown past the size it started with. */
export function heapGrown(module: QuickJSWASMModule): boolean {
  const heap = heaps.get(module);
  return heap === undefined || heap.memory.buffer.byteLength > initialHeapBytes;
}

/** How much of its ceiling the module's memory has grown to (0 to 1). The memory never shrinks. */
export function heapShare(module: QuickJSWASMModule): number {
  const heap = heaps.get(module);
  return heap === undefined ? 0 : heap.memory.buffer.byteLength / heap.maxBytes;
}

/**
 * The process's CPU time, read at most once per `maxAgeMs` of wall-clock time. Reading it
 * (getrusage) is cheap in a quiet process but took 50-200 µs while other threads ran (V8's
 * compiler and GC threads, a loaded machine), a fifth of a short script's whole cost when read
 * three times per script. A reading up to `maxAgeMs` old only starts a script's budget that much
 * earlier: the limit gets stricter by at most the CPU the process used in that time.
 */
class CpuClock {
  private readAt = Number.NEGATIVE_INFINITY;
  private micros = 0;

  constructor(private readonly maxAgeMs: number) {}

  /** CPU time (µs, user + system) of the process, at most `maxAgeMs` old. */
  recent(): number {
    const now = performance.now();
    if (now - this.readAt >= this.maxAgeMs) this.micros = this.now(now);
    return this.micros;
  }

  /** CPU time (µs) of the process, read now. */
  now(wall = performance.now()): number {
    const cpu = process.cpuUsage();
    this.readAt = wall;
    this.micros = cpu.user + cpu.system;
    return this.micros;
  }
}

/**
 * How stale a CPU reading a script's budget may start from: 1% of the limit (50 ms for the
 * default 5 s). Read every 20 ms, the readings still took about 40 µs per scripted request in a
 * profile of the scripts bench at load average 11 (2-4 µs each in a tight loop, far more spread
 * out while other threads run).
 */
function cpuReadingMaxAge(timeoutMs: number): number {
  return timeoutMs / 100;
}

export class SandboxHost {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly runScript: QuickJSHandle;
  private readonly endScript: QuickJSHandle;
  /** Wall-clock time (ms) after which the process's CPU time is checked against the limit. */
  private deadline = Number.POSITIVE_INFINITY;
  /** Process CPU time (µs) at which a script past its wall-clock deadline is stopped. */
  private cpuDeadline = Number.POSITIVE_INFINITY;
  /** Wall-clock time (ms) after which a script stops whatever the CPU clock says. */
  private hardDeadline = Number.POSITIVE_INFINITY;
  private readonly cpuClock: CpuClock;
  /** The bundled modules evaluated in this sandbox so far, in order (chai among them only once an assertion needed it). */
  readonly modulesLoaded: string[] = [];
  /** The response body of the phase begun last, handed over when a script reads it. */
  private phaseBody: ResponseBody | undefined;
  /** Set after a limit was hit: the heap may be in any state, so it is not used again. */
  broken = false;
  /**
   * Set when the host's stack ran out inside QuickJS's C code: the whole WebAssembly instance
   * may be inconsistent, so neither this sandbox nor its module may be touched again.
   */
  poisoned = false;

  constructor(
    private readonly module: QuickJSWASMModule,
    private readonly timeoutMs: number,
    private readonly memoryBytes: number,
  ) {
    this.cpuClock = new CpuClock(cpuReadingMaxAge(timeoutMs));
    this.runtime = module.newRuntime();
    this.runtime.setMaxStackSize(maxStackBytes);
    this.runtime.setInterruptHandler(() => this.overTime());
    this.vm = this.runtime.newContext();
    try {
      this.installHostFunctions();
      const prelude = this.vm.evalCode(preludeSource(), 'ferry:prelude.js');
      if (prelude.error) throw new Error(`Ferry's script sandbox failed to start: ${this.describe(prelude.error)}`);
      prelude.value.dispose();
      const api = this.vm.getProp(this.vm.global, '__ferry');
      this.runScript = this.vm.getProp(api, 'runScript');
      this.endScript = this.vm.getProp(api, 'endScript');
      api.dispose();
      // Scripts never see the entry points: the host keeps the only references.
      this.vm.evalCode('delete globalThis.__ferry').dispose();
      // The memory limit applies to scripts; the prelude itself is not counted against them.
      this.runtime.setMemoryLimit(this.memoryBytes);
    } catch (error) {
      this.vm.dispose();
      this.runtime.dispose();
      throw error;
    }
  }

  private installHostFunctions(): void {
    const vm = this.vm;
    const host = vm.newObject();
    const loadModule = vm.newFunction('loadModule', (nameHandle) => {
      const name = vm.typeof(nameHandle) === 'string' ? vm.getString(nameHandle) : '';
      if (!isBundledModule(name)) return vm.newError(`no bundled module named ${JSON.stringify(name)}`);
      this.modulesLoaded.push(name);
      const result = vm.evalCode(`(function () {\n${moduleSource(name)}\nreturn __ferryModule;\n})()`, `ferry:${name}.js`);
      return result;
    });
    const randomHex = vm.newFunction('randomHex', (countHandle) => {
      const count = vm.typeof(countHandle) === 'number' ? vm.getNumber(countHandle) : 0;
      if (!Number.isInteger(count) || count < 0 || count > 65536) return vm.newError('randomHex: count must be 0 to 65536');
      return vm.newString(randomBytes(count).toString('hex'));
    });
    // The sandbox asks once per phase (it keeps the text): most scripts never read the body.
    const responseBody = vm.newFunction('responseBody', () => {
      const body = this.phaseBody;
      if (!body) return vm.newString('');
      // Thrown, not returned: quickjs-emscripten turns a host function's throw into the script's exception.
      if (body.size > this.memoryBytes) throw new Error(this.bodyTooBigMessage(body));
      try {
        return vm.newString(body.text());
      } catch {
        throw new Error(this.bodyTooBigMessage(body));
      }
    });
    vm.setProp(host, 'loadModule', loadModule);
    vm.setProp(host, 'randomHex', randomHex);
    vm.setProp(host, 'responseBody', responseBody);
    vm.setProp(vm.global, '__ferryHost', host);
    loadModule.dispose();
    randomHex.dispose();
    responseBody.dispose();
    host.dispose();
  }

  /**
   * Runs one script to its end (or its limit) and returns the sandbox's report as JSON. `phase`
   * begins a phase first (the response, info and state every script of the phase shares); a
   * phase that cannot begin gives an outcome marked `notStarted`.
   */
  run(code: string, phase?: PhaseData): RawOutcome {
    return this.guard(() => (scriptWatchdogArmed() ? this.watched(() => this.runUnguarded(code, phase)) : this.runUnguarded(code, phase)));
  }

  /**
   * Runs `body` (synchronous: QuickJS runs on this thread) under V8's watchdog, which stops even
   * WebAssembly code: QuickJS polls its interrupt handler only between bytecodes, and many of its
   * built-ins loop in C without polling — `[].sort()` on an array of length 2**32 with no
   * elements, `Array.prototype.indexOf.call({ length: 2 ** 53 })`, a quadratic string search —
   * which would otherwise hold the process (a run, the app, ferry mcp) for hours, deaf to Ctrl-C.
   * The watchdog fires at the hard deadline (ten times the limit, wall-clock time).
   */
  private watched(body: () => RawOutcome): RawOutcome {
    try {
      return runWatched(body, this.timeoutMs * 10);
    } catch (error) {
      if (!isWatchdogTimeout(error)) throw error;
      // Stopped anywhere inside QuickJS's C code: the whole instance may be inconsistent.
      this.stopClock();
      this.broken = true;
      this.poisoned = true;
      return { ok: false, kind: 'timeout', message: this.limitMessage('timeout') };
    }
  }

  /**
   * Catches the host's own RangeError (stack exhausted inside WebAssembly) and a WebAssembly
   * abort (e.g. the glue code itself out of memory), and poisons the sandbox.
   */
  private guard(body: () => RawOutcome): RawOutcome {
    try {
      return body();
    } catch (error) {
      if (!(error instanceof RangeError) && !(error instanceof WebAssembly.RuntimeError)) throw error;
      this.stopClock();
      this.broken = true;
      this.poisoned = true;
      if (error instanceof RangeError) return { ok: false, kind: 'stack', message: 'stopped: the script nested too deeply (the stack ran out)' };
      return this.limit('memory');
    }
  }

  private runUnguarded(code: string, phase: PhaseData | undefined): RawOutcome {
    const outcome = this.runToEnd(code, phase);
    if (outcome.ok || outcome.kind === 'error' || outcome.notStarted || this.poisoned) return outcome;
    const json = this.salvage();
    return json === undefined ? outcome : { ...outcome, json };
  }

  /**
   * After a limit stopped a script, asks the sandbox once more for the script's report, so the
   * variables it set and the tests it recorded before the limit are kept (as they are when a
   * script throws). A heap still full, or anything else going wrong, gives nothing.
   */
  private salvage(): string | undefined {
    this.startClock();
    try {
      const ended = this.vm.callFunction(this.endScript, this.vm.undefined);
      if (ended.error) {
        ended.error.dispose();
        return undefined;
      }
      const json = this.vm.typeof(ended.value) === 'string' ? this.vm.getString(ended.value) : undefined;
      ended.value.dispose();
      return json;
    } catch (error) {
      if (error instanceof RangeError) this.poisoned = true;
      return undefined;
    } finally {
      this.stopClock();
    }
  }

  private runToEnd(code: string, phase: PhaseData | undefined): RawOutcome {
    if (phase) this.phaseBody = phase.body;
    this.startClock();
    try {
      const body = phase?.body && phase.body.size <= EAGER_BODY_CHARS ? this.vm.newString(phase.body.text()) : undefined;
      const args = [this.vm.newString(phase?.json ?? ''), this.vm.newString(phase?.request ?? ''), this.vm.newString(code)];
      const ran = this.vm.callFunction(this.runScript, this.vm.undefined, ...args, body ?? this.vm.undefined);
      for (const arg of args) arg.dispose();
      body?.dispose();
      if (ran.error) return this.failure(ran.error);
      // runScript returns a string (the sandbox's own frozen entry point): no typeof call into the sandbox first.
      const first = this.vm.getString(ran.value);
      ran.value.dispose();
      if (first.startsWith('!')) return { ...this.classify(first.slice(1), true), notStarted: true };
      // Finished within the call, and left no promise jobs that could still add to its report.
      if (first !== '' && !this.runtime.hasPendingJob()) return { ok: true, json: first };
      for (;;) {
        const jobs = this.runtime.executePendingJobs(jobBatch);
        if (jobs.error) {
          const outcome = this.failure(jobs.error, false);
          if (!outcome.ok && outcome.kind !== 'error') return outcome;
          // An ordinary error in a job (e.g. an unhandled rejection inside a library) is the script's problem.
          continue;
        }
        const executed = jobs.value;
        if (executed === 0) break;
        if (this.overTime()) return this.limit('timeout');
        // QuickJS runs jobs until the queue is empty or the batch is done: fewer than a batch means
        // empty, and asking again would only cost another call into the sandbox.
        if (executed < jobBatch) break;
      }
      // Reporting gets its own time, so a script that used all of its time still reports its tests.
      this.startClock();
      const ended = this.vm.callFunction(this.endScript, this.vm.undefined);
      if (ended.error) return this.failure(ended.error);
      const json = this.vm.typeof(ended.value) === 'string' ? this.vm.getString(ended.value) : '';
      ended.value.dispose();
      return { ok: true, json };
    } finally {
      this.stopClock();
    }
  }

  /**
   * The limit is CPU time, as the spec says: a script on a busy machine (other processes taking
   * the cores) is not cut short by wall-clock time alone. The cheap wall clock is checked on
   * every interrupt poll; only past it is the process's CPU time read. Ten times the limit in
   * wall-clock time stops a script in any case.
   */
  private startClock(): void {
    const now = Date.now();
    this.deadline = now + this.timeoutMs;
    this.cpuDeadline = this.cpuClock.recent() + this.timeoutMs * 1000;
    this.hardDeadline = now + this.timeoutMs * 10;
  }

  private stopClock(): void {
    this.deadline = Number.POSITIVE_INFINITY;
    this.cpuDeadline = Number.POSITIVE_INFINITY;
    this.hardDeadline = Number.POSITIVE_INFINITY;
  }

  private overTime(): boolean {
    const now = Date.now();
    if (now <= this.deadline) return false;
    if (now > this.hardDeadline) return true;
    return this.cpuClock.now() >= this.cpuDeadline;
  }

  private limit(kind: LimitKind): Extract<RawOutcome, { ok: false }> {
    this.broken = true;
    return { ok: false, kind, message: this.limitMessage(kind) };
  }

  /** Why a script could not read the response body: what, which request, what to do. */
  private bodyTooBigMessage(body: ResponseBody): string {
    const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
    return `the response body of "${body.requestName}" (about ${mb(body.size)} MB) does not fit in the script memory limit of ${mb(this.memoryBytes)} MB: raise scriptMemoryMb, lower maxResponseMb, or do not read the body in this script (pm.response.code, headers and size() work without it)`;
  }

  /** The sentence a script stopped by `kind` fails with. */
  limitMessage(kind: LimitKind): string {
    const mb = Math.round(this.memoryBytes / (1024 * 1024));
    return kind === 'timeout'
      ? `stopped after ${this.timeoutMs} ms: the script ran over its CPU time limit (an endless loop?)`
      : kind === 'memory'
        ? `stopped: the script ran over its memory limit of ${mb} MB`
        : 'stopped: too much recursion (the call stack ran out)';
  }

  /** Turns an error handle from the sandbox into an outcome, spotting the limits. */
  private failure(handle: QuickJSHandle, fatal = true): RawOutcome {
    const text = this.describe(handle);
    handle.dispose();
    return this.classify(text, fatal);
  }

  /** An error's text (`Name: message`) as an outcome, spotting the limits. */
  private classify(text: string, fatal: boolean): Extract<RawOutcome, { ok: false }> {
    if (/\binterrupted\b/i.test(text) || this.overTime()) return this.limit('timeout');
    // QuickJS throws `null` when it cannot even allocate its out-of-memory error, and with the heap
    // full the error may not even be read back (an empty text; seen in an instance that hosted a
    // sandbox before).
    if (/out of memory/i.test(text) || ((text === 'null' || text === '' || text === unreadableError) && this.heapExhausted())) return this.limit('memory');
    if (/stack overflow/i.test(text)) return this.limit('stack');
    if (fatal) this.broken = true;
    return { ok: false, kind: 'error', message: text };
  }

  /** Whether the memory has grown past half its ceiling (big responses, big data), so the next phase would start cramped. */
  get heapHalfUsed(): boolean {
    return heapShare(this.module) > 0.5;
  }

  /** The WebAssembly memory is at its ceiling: a failure now is most likely for want of memory. */
  heapExhausted(): boolean {
    return heapExhausted(this.module);
  }

  private describe(handle: QuickJSHandle): string {
    try {
      const dumped: unknown = this.vm.dump(handle);
      if (dumped && typeof dumped === 'object' && 'message' in dumped) {
        const e = dumped as { name?: unknown; message?: unknown };
        return `${typeof e.name === 'string' ? e.name : 'Error'}: ${String(e.message)}`;
      }
      return String(dumped);
    } catch {
      return unreadableError;
    }
  }

  /**
   * Frees the sandbox; true when its runtime was freed whole, so its WebAssembly instance may host
   * another sandbox (a fresh runtime and context: nothing of this one is reachable from it).
   */
  dispose(): boolean {
    // A poisoned or broken instance is left to the garbage collector with its whole module:
    // a script stopped half-way can leave objects QuickJS's own teardown asserts against.
    if (this.poisoned || this.broken || !this.vm.alive) return false;
    try {
      this.runScript.dispose();
      this.endScript.dispose();
      this.vm.dispose();
      this.runtime.dispose();
      return true;
    } catch {
      this.poisoned = true;
      return false;
    }
  }
}
