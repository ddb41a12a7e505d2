/** Builds a fresh `pm` (and the legacy globals) for one script over the phase's shared state. */
import { VariableScope, ReadOnlyScope, MergedVariables, type ScopeState } from './variable-scopes.js';
import { ScriptRequest, type RequestData } from './request.js';
import { ScriptResponse, expect } from './response.js';
import { TestCollector, test } from './tests.js';
import { ConsoleCapture } from './console.js';
import { makeLegacy } from './legacy.js';
import { requireModule } from './modules.js';
import { unavailableFunction, unavailableObject } from './unavailable.js';
import { defineProperties } from './intrinsics.js';
import { phaseRequest, requestIdOf, type Phase, type State, type ScopeKey } from './state.js';

/** The parts of the state a script may have changed, sent back to the host. */
export interface StateUpdate {
  scopes: Partial<Record<ScopeKey, ScopeState>>;
  request?: RequestData;
}

export interface ScriptScope {
  /** Values passed to the script function, in the order of `paramNames`. */
  args: unknown[];
  tests: TestCollector;
  console: ConsoleCapture;
  /**
   * Writes what the script changed back into the state, and returns those parts: the scopes it
   * changed, and (before the request) the request.
   */
  commit(state: State): StateUpdate;
  /** Set by commit: a value the script set that could not be kept (storedValue), as the script's error. */
  commitError?: string;
}

const noSendRequest = unavailableFunction('pm.sendRequest');
const noRequire = unavailableFunction('pm.require');
const noRunRequest = unavailableFunction('pm.execution.runRequest');
const noSetTimeout = unavailableFunction('setTimeout');
const noSetInterval = unavailableFunction('setInterval');
const noSetImmediate = unavailableFunction('setImmediate');
const noClearTimeout = unavailableFunction('clearTimeout');
const noClearInterval = unavailableFunction('clearInterval');
/** `pm`'s accessors, defined on each script's `pm` in one call (shared descriptors: four defineProperty calls cost more). */
const pmAccessors: PropertyDescriptorMap = {
  expect: { get: expect, enumerable: true },
  cookies: unavailableObject('pm.cookies'),
  visualizer: unavailableObject('pm.visualizer'),
  vault: unavailableObject('pm.vault'),
};

/** Names of the legacy globals; building them costs time, so only scripts that mention one get them. */
const legacyNames = ['postman', 'request', 'environment', 'globals', 'data', 'iteration', 'xml2Json', 'responseBody', 'responseCode', 'responseHeaders', 'responseTime', 'responseCookies'];
/**
 * A legacy name not read as a property: `pm.request`, `pm.environment`, `pm.response.responseTime`
 * (after a single dot) never reach the legacy globals, and counting them built the legacy globals
 * for most scripts (about 60 µs each in QuickJS). A spread (`...request`) still counts, and so does
 * any other mention (strings and comments included: a false alarm only costs time).
 */
const legacyPattern = new RegExp(`(?:^|[^.\\w$]|\\.\\.\\.)(?:${legacyNames.join('|')})\\b`);

export function usesLegacy(code: string): boolean {
  return legacyPattern.test(code);
}

/** A script that could read the legacy `responseBody` (by name, or through `eval`): only then is the body read for it. */
const legacyBodyPattern = /\bresponseBody\b|\beval\b/;

export function readsLegacyBody(code: string): boolean {
  return legacyBodyPattern.test(code);
}

/** Parameter names every script function takes, in order. */
export const paramNames = [
  'pm', 'postman', 'tests', 'console', 'require', 'request', 'environment', 'globals', 'data', 'iteration', 'xml2Json',
  'responseBody', 'responseCode', 'responseHeaders', 'responseTime', 'responseCookies',
  'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval',
];
/** The legacy globals other than `postman`: paramNames[legacyStart] to paramNames[legacyEnd - 1]. */
const legacyStart = 5;
const legacyEnd = 16;

/**
 * One script's parts, each built on first use: most scripts touch two or three of them (a
 * scope, the request or the response, `pm.test`), and building all of them for every script was
 * most of a short script's cost in QuickJS.
 */
class ScriptParts {
  environment: VariableScope | undefined;
  collection: VariableScope | undefined;
  globals: VariableScope | undefined;
  local: VariableScope | undefined;
  iterationData: ReadOnlyScope | undefined;
  request: ScriptRequest | undefined;
  info: Record<string, unknown> | undefined;

  constructor(
    readonly phase: Phase,
    readonly response: ScriptResponse | undefined,
  ) {}

  scope(key: ScopeKey): VariableScope {
    switch (key) {
      case 'environment':
        return (this.environment ??= new VariableScope(this.phase.state.scopes.environment, 'pm.environment', this.phase.environmentName, this.phase.environmentId));
      case 'collection':
        return (this.collection ??= new VariableScope(this.phase.state.scopes.collection, 'pm.collectionVariables'));
      case 'globals':
        return (this.globals ??= new VariableScope(this.phase.state.scopes.globals, 'pm.globals'));
      default:
        return (this.local ??= new VariableScope(this.phase.state.scopes.local, 'pm.variables'));
    }
  }

  readOnlyIterationData(): ReadOnlyScope {
    return (this.iterationData ??= new ReadOnlyScope(this.phase.iterationData));
  }

  scriptRequest(): ScriptRequest {
    return (this.request ??= new ScriptRequest(phaseRequest(this.phase), requestIdOf(this.phase)));
  }

  /** The layers of `pm.variables` under the local scope, in the order they are read. */
  layers(): (ReadOnlyScope | VariableScope)[] {
    return [this.readOnlyIterationData(), this.scope('environment'), this.scope('collection'), this.scope('globals')];
  }

  setNextRequest(name: unknown): void {
    const state = this.phase.state;
    state.nextRequestSet = true;
    state.nextRequest = name === null || name === undefined ? null : String(name);
  }
}

/**
 * `pm`: its members are getters of the class, shared by every script, over the script's own
 * parts (private fields scripts cannot reach). What refers back to the parts (`pm.variables`,
 * `pm.execution`) is kept here, not in the parts: a cycle would outlive the script until
 * QuickJS's cycle collector, whose every pass walks the whole sandbox (the prelude, chai…).
 */
class Pm {
  readonly #parts: ScriptParts;
  #variables: MergedVariables | undefined;
  #execution: Record<string, unknown> | undefined;

  constructor(parts: ScriptParts) {
    this.#parts = parts;
  }

  get info(): Record<string, unknown> {
    const parts = this.#parts;
    const info = parts.phase.info;
    return (parts.info ??= {
      requestName: info.requestName,
      requestId: requestIdOf(parts.phase),
      iteration: info.iteration,
      iterationCount: info.iterationCount ?? 1,
      eventName: parts.phase.event,
    });
  }
  get environment(): VariableScope {
    return this.#parts.scope('environment');
  }
  get collectionVariables(): VariableScope {
    return this.#parts.scope('collection');
  }
  get globals(): VariableScope {
    return this.#parts.scope('globals');
  }
  get variables(): MergedVariables {
    const parts = this.#parts;
    return (this.#variables ??= new MergedVariables(parts.scope('local'), parts));
  }
  get iterationData(): ReadOnlyScope {
    return this.#parts.readOnlyIterationData();
  }
  get request(): ScriptRequest {
    return this.#parts.scriptRequest();
  }
  get response(): ScriptResponse | undefined {
    return this.#parts.response;
  }
  get test(): typeof test {
    return test;
  }
  get execution(): Record<string, unknown> {
    if (this.#execution) return this.#execution;
    const parts = this.#parts;
    const phase = parts.phase;
    const isPre = phase.event === 'prerequest';
    this.#execution = {
      skipRequest(): void {
        if (!isPre) throw new Error('pm.execution.skipRequest() works only in pre-request scripts');
        phase.state.skipRequest = true;
      },
      setNextRequest: (name: unknown) => parts.setNextRequest(name),
      location: locationOf(phase).slice(),
      runRequest: noRunRequest,
    };
    return this.#execution;
  }
  get sendRequest(): typeof noSendRequest {
    return noSendRequest;
  }
  get require(): typeof noRequire {
    return noRequire;
  }
}
defineProperties(Pm.prototype, pmAccessors);

/** The script's scope: its arguments, tests and console, and what it changed for the report. */
class Scope implements ScriptScope {
  commitError: string | undefined;

  constructor(
    readonly args: unknown[],
    readonly tests: TestCollector,
    readonly console: ConsoleCapture,
    private readonly parts: ScriptParts,
  ) {}

  commit(target: State): StateUpdate {
    const update: StateUpdate = { scopes: {} };
    const parts = this.parts;
    // An unchanged (or unread) scope holds what the host sent: it need not go back.
    for (const key of ['environment', 'collection', 'globals', 'local'] as const) {
      const scope = parts[key];
      if (scope?.changed) target.scopes[key] = update.scopes[key] = this.snapshotOf(scope);
    }
    // Before the request: the request as the script left it (a script that never read it leaves it as it came).
    if (parts.phase.event === 'prerequest' && parts.request) target.request = update.request = parts.request.toData();
    return update;
  }

  /** The scope's snapshot; a value it cannot keep is left out and said as the script's error. */
  private snapshotOf(scope: VariableScope): ScopeState {
    for (;;) {
      try {
        return scope.snapshot();
      } catch (error) {
        this.commitError ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
    }
  }
}

/** The arguments of a script without the legacy globals, in the order of paramNames; each script fills in its own. */
const plainArgs: unknown[] = [undefined, undefined, undefined, undefined, requireModule];
plainArgs.length = legacyEnd;
plainArgs.push(noSetTimeout, noSetInterval, noSetImmediate, noClearTimeout, noClearInterval);

export function makeScope(phase: Phase, response: ScriptResponse | undefined, legacyWanted: boolean, legacyBody = false): ScriptScope {
  const tests = new TestCollector();
  tests.activate();
  const capture = new ConsoleCapture();
  const parts = new ScriptParts(phase, response);
  const pm = new Pm(parts);
  const args = plainArgs.slice();
  args[0] = pm;
  args[2] = tests.legacy;
  args[3] = capture.makeConsole();
  if (legacyWanted) {
    const legacy = makeLegacy({
      environment: parts.scope('environment'),
      globals: parts.scope('globals'),
      request: parts.scriptRequest(),
      response,
      withBody: legacyBody,
      setNextRequest: (name) => parts.setNextRequest(name),
      iterationData: phase.iterationData,
      iteration: phase.info.iteration,
    });
    args[1] = legacy.postman;
    for (let i = legacyStart; i < legacyEnd; i++) args[i] = legacy[paramNames[i]!];
  }
  return new Scope(args, tests, capture, parts);
}

/** `pm.execution.location` of the phase's request, worked out once per phase (each script gets a copy). */
function locationOf(phase: Phase): string[] {
  phase.location ??= phase.info.requestPath ? phase.info.requestPath.replace(/\.ya?ml$/i, '').split('/') : [phase.info.requestName];
  return phase.location;
}
