/** Builds a fresh `pm` (and the legacy globals) for one script over the phase's shared state. */
import { VariableScope, ReadOnlyScope, MergedVariables, type ScopeState } from './variable-scopes.js';
import { ScriptRequest, type RequestData } from './request.js';
import { ScriptResponse, expect } from './response.js';
import { TestCollector } from './tests.js';
import { ConsoleCapture } from './console.js';
import { makeLegacy } from './legacy.js';
import { requireModule } from './modules.js';
import { unavailableFunction, unavailableObject } from './unavailable.js';
import { defineProperties } from './intrinsics.js';
import type { Phase, State, ScopeKey } from './state.js';

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

export function makeScope(phase: Phase, response: ScriptResponse | undefined, legacyWanted: boolean): ScriptScope {
  const state = phase.state;
  const scope = (key: ScopeKey, api: string, name?: string) => new VariableScope(state.scopes[key], api, name);
  const environment = scope('environment', 'pm.environment', phase.environmentName);
  const collection = scope('collection', 'pm.collectionVariables');
  const globals = scope('globals', 'pm.globals');
  const local = scope('local', 'pm.variables');
  const iterationData = new ReadOnlyScope(phase.iterationData);
  const variables = new MergedVariables(local, [iterationData, environment, collection, globals]);
  const request = new ScriptRequest(state.request);
  const tests = new TestCollector();
  const capture = new ConsoleCapture();
  const isPre = phase.event === 'prerequest';

  const setNextRequest = (name: unknown): void => {
    state.nextRequestSet = true;
    state.nextRequest = name === null || name === undefined ? null : String(name);
  };
  const execution = {
    skipRequest(): void {
      if (!isPre) throw new Error('pm.execution.skipRequest() works only in pre-request scripts');
      state.skipRequest = true;
    },
    setNextRequest,
    location: locationOf(phase).slice(),
    runRequest: noRunRequest,
  };

  const pm: Record<string, unknown> = {
    info: {
      requestName: phase.info.requestName,
      requestId: phase.info.requestPath ?? phase.info.requestName,
      iteration: phase.info.iteration,
      iterationCount: phase.info.iterationCount ?? 1,
      eventName: phase.event,
    },
    environment,
    collectionVariables: collection,
    globals,
    variables,
    iterationData,
    request,
    response,
    test: tests.makeTest(),
    execution,
    sendRequest: noSendRequest,
    require: noRequire,
  };
  defineProperties(pm, pmAccessors);

  const legacy = legacyWanted
    ? makeLegacy({ environment, globals, request, response, setNextRequest, iterationData: phase.iterationData, iteration: phase.info.iteration })
    : undefined;
  // In the order of paramNames.
  const args: unknown[] = [pm, legacy?.postman, tests.legacy, capture.makeConsole(), requireModule];
  if (legacy) for (let i = legacyStart; i < legacyEnd; i++) args.push(legacy[paramNames[i]!]);
  else args.length = legacyEnd;
  args.push(noSetTimeout, noSetInterval, noSetImmediate, noClearTimeout, noClearInterval);

  return {
    args,
    tests,
    console: capture,
    commit(target: State): StateUpdate {
      const update: StateUpdate = { scopes: {} };
      // An unchanged scope holds what the host sent: it need not go back.
      if (environment.changed) target.scopes.environment = update.scopes.environment = environment.snapshot();
      if (collection.changed) target.scopes.collection = update.scopes.collection = collection.snapshot();
      if (globals.changed) target.scopes.globals = update.scopes.globals = globals.snapshot();
      if (local.changed) target.scopes.local = update.scopes.local = local.snapshot();
      if (isPre) target.request = update.request = request.toData();
      return update;
    },
  };
}

/** `pm.execution.location` of the phase's request, worked out once per phase (each script gets a copy). */
function locationOf(phase: Phase): string[] {
  phase.location ??= phase.info.requestPath ? phase.info.requestPath.replace(/\.ya?ml$/i, '').split('/') : [phase.info.requestName];
  return phase.location;
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
