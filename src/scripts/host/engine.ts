/**
 * The script engine the runner calls: one sandbox per run, reused by every script of the run;
 * each script gets a fresh `pm` and a fresh scope. Scripts of one phase run in order (workspace,
 * folders outer to inner, request); one failing does not stop the others.
 */
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { SandboxHost, defaultMemoryBytes, defaultTimeoutMs, heapGrown, loadQuickJS, type PhaseData, type ResponseBody } from './runtime.js';
import { OutputError, applyReport, parseOutput, scopeNames, type SandboxState, type ScriptOutput } from './output-check.js';
import type {
  ConsoleEntry, PostResponseContext, PostResponseResult, PreRequestContext, PreRequestResult, ScopeChanges,
  ScopeName, ScriptError, ScriptLimits, ScriptResponse, ScriptVariables, TestResult,
} from '../types.js';

type Event = 'prerequest' | 'test';

interface PhaseOutcome {
  state: SandboxState;
  tests: TestResult[];
  console: ConsoleEntry[];
  errors: ScriptError[];
}

function checkLimit(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new RangeError(`Script limit ${name} must be a number of at least ${min}; got ${String(value)}`);
  }
  return Math.floor(value);
}

function emptyChanges(): ScopeChanges {
  return { cleared: false, set: {}, unset: [] };
}

const decoder = new TextDecoder('utf-8');

/** The response as the sandbox reads it, but for the body, which crosses apart (`responseBody`). */
function responseData(response: ScriptResponse): Record<string, unknown> {
  return {
    code: response.code,
    status: response.status ?? '',
    headers: response.headers.map(([name, value]) => [String(name), String(value)]),
    ...(response.trailers ? { trailers: response.trailers.map(([name, value]) => [String(name), String(value)]) } : {}),
    ...(response.statusMessage !== undefined ? { statusMessage: String(response.statusMessage) } : {}),
    responseTime: response.responseTime,
    responseSize: response.responseSize,
    ...(response.messages ? { messages: response.messages } : {}),
    ...(response.jarCookies ? { jarCookies: response.jarCookies } : {}),
  };
}

/** The body as the sandbox may ask for it: decoded only when a script reads it, once per phase. */
function responseBody(response: ScriptResponse, requestName: string): ResponseBody {
  let text = response.body;
  return {
    size: text?.length ?? response.bodyBytes?.byteLength ?? 0,
    text: () => (text ??= response.bodyBytes ? decoder.decode(response.bodyBytes) : ''),
    requestName,
  };
}

/** A script of only white space (what `trim()` removes) does not run. */
const hasCode = /\S/;

/** A script's tests and console lines, each marked with the script (its own objects, fresh from `parseOutput`). */
function addOutput(outcome: PhaseOutcome, out: ScriptOutput, label: string): void {
  for (const t of out.tests) {
    (t as TestResult).script = label;
    outcome.tests.push(t as TestResult);
  }
  for (const c of out.console) {
    (c as ConsoleEntry).script = label;
    outcome.console.push(c as ConsoleEntry);
  }
}

function isEmpty(changes: ScopeChanges): boolean {
  return !changes.cleared && changes.unset.length === 0 && Object.keys(changes.set).length === 0;
}

/** The state as the sandbox gets it, but for the request (sent apart): scopes whose changes are still empty go without them. */
function sentState(state: SandboxState): unknown {
  const scopes: Record<string, unknown> = {};
  for (const name of scopeNames) {
    const scope = state.scopes[name];
    scopes[name] = isEmpty(scope.changes) ? { values: scope.values } : scope;
  }
  return { scopes, nextRequestSet: state.nextRequestSet, skipRequest: state.skipRequest, ...(state.nextRequestSet ? { nextRequest: state.nextRequest } : {}) };
}

/**
 * A QuickJS instance whose last sandbox was freed whole, kept for the next engine of the process
 * (the app's runs, and the session API's, come one after another). Starting one costs ~2-3 ms and
 * a fresh WebAssembly memory, whose pages the system zeroes and V8's threads later free: most of
 * the ~45-55 µs per request a sandbox per run cost a 1,000-request run. The next engine starts a
 * fresh runtime and context in it, so nothing of the last run's scripts is reachable; memory
 * limits are per instance, so only an engine with the same limit takes it.
 */
let spare: { module: QuickJSWASMModule; memoryBytes: number } | undefined;

function takeSpare(memoryBytes: number): QuickJSWASMModule | undefined {
  if (spare?.memoryBytes !== memoryBytes) return undefined;
  const module = spare.module;
  spare = undefined;
  return module;
}

export class ScriptEngine {
  private sandbox: SandboxHost | undefined;
  private disposed = false;
  /** Phases run one at a time: the sandbox holds one phase's state. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private quickjs: QuickJSWASMModule,
    private readonly timeoutMs: number,
    private readonly memoryBytes: number,
  ) {}

  /** Loads QuickJS (once per process) and starts a sandbox with these limits per script. */
  static async create(limits: ScriptLimits = {}): Promise<ScriptEngine> {
    const timeoutMs = checkLimit('timeoutMs', limits.timeoutMs, defaultTimeoutMs, 1);
    const memoryBytes = checkLimit('memoryBytes', limits.memoryBytes, defaultMemoryBytes, 4 * 1024 * 1024);
    const engine = new ScriptEngine(takeSpare(memoryBytes) ?? (await loadQuickJS(memoryBytes)), timeoutMs, memoryBytes);
    engine.sandbox = engine.newSandbox();
    return engine;
  }

  /** Frees the sandbox (and keeps its QuickJS instance for the next engine when it ended cleanly). The engine cannot be used afterwards. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const sandbox = this.sandbox;
    this.sandbox = undefined;
    // Only an instance whose memory never grew: one that did (big responses, big data) is in pieces
    // and never shrinks, and a script running out of memory there failed unlike in a fresh one.
    if (sandbox?.dispose() && !heapGrown(this.quickjs)) spare = { module: this.quickjs, memoryBytes: this.memoryBytes };
  }

  /**
   * The bundled modules (`chai`, `lodash`…) the sandbox now in use has evaluated, in order: a
   * module is evaluated only when a script needs it (chai: an assertion `pm.expect` cannot decide
   * alone). For diagnostics and tests.
   */
  modulesLoaded(): readonly string[] {
    return [...(this.sandbox?.modulesLoaded ?? [])];
  }

  async runPreRequest(ctx: PreRequestContext): Promise<PreRequestResult> {
    const outcome = await this.runPhase('prerequest', ctx, undefined);
    const result = this.common(ctx, outcome) as PreRequestResult;
    result.request = outcome.state.request;
    result.skipRequest = outcome.state.skipRequest;
    return result;
  }

  async runPostResponse(ctx: PostResponseContext): Promise<PostResponseResult> {
    const outcome = await this.runPhase('test', ctx, ctx.response);
    return this.common(ctx, outcome);
  }

  private newSandbox(): SandboxHost {
    return new SandboxHost(this.quickjs, this.timeoutMs, this.memoryBytes);
  }

  /** `fresh`: a phase is about to begin (the sandbox may be swapped for a new one). */
  private async current(fresh = false): Promise<SandboxHost> {
    if (this.disposed) throw new Error('This ScriptEngine was disposed; create a new one');
    if (this.sandbox && (this.sandbox.poisoned || this.sandbox.broken || (fresh && this.sandbox.heapHalfUsed))) {
      // Stopped half-way, the heap may hold leaked objects: start over with a fresh WebAssembly
      // instance (a few ms) and let the garbage collector take the old one whole. Likewise before
      // a phase when earlier phases grew the memory past half its ceiling (it never shrinks, and
      // what is free in it is in pieces): the next big response gets the whole limit.
      this.sandbox = undefined;
      this.quickjs = await loadQuickJS(this.memoryBytes);
    }
    if (!this.sandbox) this.sandbox = this.newSandbox();
    return this.sandbox;
  }

  private runPhase(event: Event, ctx: PreRequestContext, response: ScriptResponse | undefined): Promise<PhaseOutcome> {
    const next = this.queue.then(() => this.runPhaseNow(event, ctx, response));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runPhaseNow(event: Event, ctx: PreRequestContext, response: ScriptResponse | undefined): Promise<PhaseOutcome> {
    const v = ctx.variables;
    let state: SandboxState = {
      request: ctx.request,
      scopes: {
        environment: { values: v.environment ?? {}, changes: emptyChanges() },
        collection: { values: v.collection ?? {}, changes: emptyChanges() },
        globals: { values: v.globals ?? {}, changes: emptyChanges() },
        local: { values: v.local ?? {}, changes: emptyChanges() },
      },
      nextRequestSet: false,
      skipRequest: false,
    };
    const outcome: PhaseOutcome = { state, tests: [], console: [], errors: [] };
    const scripts = ctx.scripts.filter((s) => hasCode.test(s.code));
    if (scripts.length === 0) return outcome;

    const phaseBase = JSON.stringify({
      event,
      info: ctx.info,
      environmentName: v.environmentName,
      environmentId: v.environmentId,
      iterationData: v.iterationData ?? {},
      response: response ? responseData(response) : undefined,
    });
    const body = response ? responseBody(response, ctx.info.requestName) : undefined;
    // A phase begins with the state as the scripts before left it; scripts report only what they
    // changed, and the rest stays the state as the host sent it.
    const phaseData = (): PhaseData => ({ json: `{"state":${JSON.stringify(sentState(state))},${phaseBase.slice(1)}`, request: JSON.stringify(state.request), body });
    let begun: SandboxHost | undefined;
    for (const script of scripts) {
      const sandbox = await this.current(begun === undefined);
      let phase: PhaseData | undefined;
      if (begun !== sandbox) {
        // A phase begins in each sandbox it runs in.
        phase = phaseData();
      }
      const result = sandbox.run(script.code, phase);
      if (phase) {
        if (!result.ok && result.notStarted) {
          outcome.errors.push({ script: script.label, kind: result.kind, message: `${script.label}: the script could not start: ${result.message}` });
          continue;
        }
        begun = sandbox;
      }
      if (!result.ok) {
        outcome.errors.push({ script: script.label, kind: result.kind, message: `${script.label}: ${result.message}` });
        // Stopped by a limit: what it did before (variables, tests, console) still counts.
        if (result.json !== undefined) {
          try {
            const out = parseOutput(result.json);
            state = applyReport(state, out.state);
            addOutput(outcome, out, script.label);
          } catch (error) {
            if (!(error instanceof OutputError)) throw error;
          }
        }
        continue;
      }
      try {
        const out = parseOutput(result.json);
        state = applyReport(state, out.state);
        addOutput(outcome, out, script.label);
        // QuickJS throws `null` when it cannot even allocate its out-of-memory error.
        // And running out inside a `.then` callback only rejects its promise: a chain of jobs can end
        // quietly with the heap exhausted, and the script looks as if it never settled.
        if (out.error?.kind === 'error' && /^the script threw null$|^the script never finished/.test(out.error.message) && sandbox.heapExhausted()) {
          out.error = { kind: 'memory', message: 'out of memory' };
        }
        // The time limit met inside a built-in that walks an iterator (`new Set(longSparseArray)`)
        // reaches the script as a plain error that it (or the sandbox) caught: it is the time limit.
        if (out.error?.kind === 'error' && /^InternalError: interrupted\b/.test(out.error.message)) {
          outcome.errors.push({ script: script.label, kind: 'timeout', message: `${script.label}: ${sandbox.limitMessage('timeout')}` });
          sandbox.broken = true;
        } else if (out.error) outcome.errors.push({ script: script.label, kind: out.error.kind, message: `${script.label}: ${this.explain(out.error)}` });
        // Errors that may leave the heap short of memory or stack get a fresh sandbox next time.
        if (out.error && out.error.kind !== 'error' && out.error.kind !== 'syntax') sandbox.broken = true;
      } catch (error) {
        if (!(error instanceof OutputError)) throw error;
        sandbox.broken = true;
        // A heap that ran out while the script's output was written leaves it unreadable: that is the memory limit.
        const exhausted = sandbox.heapExhausted();
        const failure = exhausted ? { kind: 'memory' as const, message: 'out of memory' } : { kind: 'error' as const, message: error.message };
        outcome.errors.push({ script: script.label, kind: failure.kind, message: `${script.label}: ${exhausted ? this.explain(failure) : failure.message}` });
      }
    }
    outcome.state = state;
    return outcome;
  }

  /** Errors the script could have caught but that mean a limit was reached get a plain sentence first. */
  private explain(error: { message: string; kind: string }): string {
    if (error.kind === 'memory') return `stopped: the script ran over its memory limit of ${Math.round(this.memoryBytes / 1048576)} MB (${error.message})`;
    if (error.kind === 'stack') return `stopped: too much recursion, the call stack ran out (${error.message})`;
    return error.message;
  }

  private common(ctx: PreRequestContext, outcome: PhaseOutcome): PostResponseResult {
    const scopes = outcome.state.scopes;
    const changes: Record<ScopeName, ScopeChanges> = {
      environment: scopes.environment.changes,
      collection: scopes.collection.changes,
      globals: scopes.globals.changes,
      local: scopes.local.changes,
    };
    const variables: ScriptVariables = {
      environment: scopes.environment.values,
      collection: scopes.collection.values,
      globals: scopes.globals.values,
      local: scopes.local.values,
    };
    if (ctx.variables.environmentName !== undefined) variables.environmentName = ctx.variables.environmentName;
    if (ctx.variables.environmentId !== undefined) variables.environmentId = ctx.variables.environmentId;
    if (ctx.variables.iterationData !== undefined) variables.iterationData = ctx.variables.iterationData;
    const result: PostResponseResult = { tests: outcome.tests, console: outcome.console, errors: outcome.errors, changes, variables };
    if (outcome.state.nextRequestSet) result.nextRequest = outcome.state.nextRequest ?? null;
    return result;
  }
}
