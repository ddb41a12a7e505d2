/**
 * Checks what comes back out of the sandbox before the host uses it. A script can replace
 * built-ins the sandbox's reporting relies on, so its report is untrusted data: anything of the
 * wrong shape is refused. The report is parsed here, so its objects are the host's own, fresh
 * and plain: `JSON.parse` gives only own data properties (a `__proto__` key is an ordinary key,
 * not the prototype), and objects of the right shape are kept as parsed instead of copied.
 */
import type { ConsoleLevel, ScriptKeyValue, ScriptRequest, ScopeChanges, ScopeName, VariableValues } from '../types.js';

export interface SandboxState {
  request: ScriptRequest;
  scopes: Record<ScopeName, { values: VariableValues; changes: ScopeChanges }>;
  nextRequest?: string | null;
  nextRequestSet: boolean;
  skipRequest: boolean;
}

/**
 * The state as a script reports it: only the scopes it changed, and the request only from a
 * pre-request script; the rest is as the host sent it.
 */
export interface ReportedState {
  request?: ScriptRequest;
  scopes: Partial<SandboxState['scopes']>;
  nextRequest?: string | null;
  nextRequestSet: boolean;
  skipRequest: boolean;
}

export interface ScriptOutput {
  tests: { name: string; passed: boolean; skipped?: boolean; message?: string }[];
  console: { level: ConsoleLevel; text: string }[];
  error?: { message: string; kind: 'error' | 'syntax' | 'memory' | 'stack' };
  state: ReportedState;
}

export class OutputError extends Error {}

const levels = new Set(['log', 'info', 'warn', 'error', 'debug']);
const errorKinds = new Set(['error', 'syntax', 'memory', 'stack']);
export const scopeNames: ScopeName[] = ['environment', 'collection', 'globals', 'local'];

function fail(what: string): never {
  throw new OutputError(`the script's report was malformed (${what}); did the script replace a built-in such as Array.prototype.map?`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) fail(what);
  return value;
}

function string(value: unknown, what: string): string {
  if (typeof value !== 'string') fail(what);
  return value;
}

function array(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) fail(what);
  return value;
}

/** Values as parsed: JSON has no `undefined`, so every value is a JSON value. */
function values(value: unknown, what: string): VariableValues {
  return record(value, what) as VariableValues;
}

function keyValues(value: unknown, what: string): ScriptKeyValue[] {
  const rows = array(value, what);
  for (const row of rows) {
    const r = record(row, what);
    string(r.key, `${what} key`);
    string(r.value, `${what} value`);
    if (r.enabled !== undefined && typeof r.enabled !== 'boolean') fail(`${what} enabled`);
  }
  return rows as ScriptKeyValue[];
}

function typed(value: unknown, what: string): { type: string; [field: string]: unknown } | undefined {
  if (value === undefined) return undefined;
  const r = record(value, what);
  string(r.type, `${what} type`);
  return r as { type: string };
}

function request(value: unknown): ScriptRequest {
  const r = record(value, 'request');
  const out: ScriptRequest = {
    method: string(r.method, 'request method'),
    url: string(r.url, 'request url'),
    headers: keyValues(r.headers, 'request headers'),
  };
  if (r.name !== undefined) out.name = string(r.name, 'request name');
  if (r.description !== undefined) out.description = string(r.description, 'request description');
  if (r.pathParams !== undefined) out.pathParams = keyValues(r.pathParams, 'request path parameters');
  const body = typed(r.body, 'request body');
  if (body) out.body = body;
  const auth = typed(r.auth, 'request auth');
  if (auth) out.auth = auth;
  return out;
}

function scope(value: unknown, name: string): { values: VariableValues; changes: ScopeChanges } {
  const r = record(value, `${name} scope`);
  const changes = record(r.changes, `${name} changes`);
  if (typeof changes.cleared !== 'boolean') fail(`${name} cleared`);
  return {
    values: values(r.values, `${name} values`),
    changes: {
      cleared: changes.cleared,
      set: values(changes.set, `${name} set`),
      unset: array(changes.unset, `${name} unset`).map((k) => string(k, `${name} unset key`)),
    },
  };
}

function parseReportedState(value: unknown): ReportedState {
  const r = record(value, 'state');
  const scopes = record(r.scopes, 'scopes');
  const reported: ReportedState['scopes'] = {};
  for (const name of scopeNames) if (scopes[name] !== undefined) reported[name] = scope(scopes[name], name);
  const state: ReportedState = {
    scopes: reported,
    nextRequestSet: r.nextRequestSet === true,
    skipRequest: r.skipRequest === true,
  };
  if (r.request !== undefined) state.request = request(r.request);
  if (state.nextRequestSet) {
    if (r.nextRequest !== null && typeof r.nextRequest !== 'string') fail('nextRequest');
    state.nextRequest = r.nextRequest;
  }
  return state;
}

/** The state after a script: what it reported over the state before it. */
export function applyReport(before: SandboxState, reported: ReportedState): SandboxState {
  const state: SandboxState = {
    request: reported.request ?? before.request,
    scopes: { ...before.scopes, ...reported.scopes },
    nextRequestSet: reported.nextRequestSet,
    skipRequest: reported.skipRequest,
  };
  if (reported.nextRequestSet) state.nextRequest = reported.nextRequest;
  return state;
}

export function parseOutput(json: string): ScriptOutput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    fail('not JSON');
  }
  const r = record(parsed, 'report');
  const out: ScriptOutput = {
    tests: array(r.tests, 'tests').map((t) => {
      const test = record(t, 'test');
      const item: ScriptOutput['tests'][number] = { name: string(test.name, 'test name'), passed: test.passed === true };
      if (test.skipped === true) item.skipped = true;
      if (test.message !== undefined) item.message = String(test.message);
      return item;
    }),
    console: array(r.console, 'console').map((c) => {
      const entry = record(c, 'console line');
      const level = string(entry.level, 'console level');
      if (!levels.has(level)) fail('console level');
      return { level: level as ConsoleLevel, text: string(entry.text, 'console text') };
    }),
    state: parseReportedState(r.state),
  };
  if (r.error !== undefined) {
    const e = record(r.error, 'error');
    const kind = string(e.kind, 'error kind');
    if (!errorKinds.has(kind)) fail('error kind');
    out.error = { message: string(e.message, 'error message'), kind: kind as 'error' };
  }
  return out;
}
