/**
 * The plain data the script engine takes and gives back. Nothing here is a live object: the
 * runner builds these from its own model, the engine passes them into the sandbox as JSON and
 * reads JSON back, so no host object ever reaches a script.
 */

/** A JSON value: what a script may store in a variable. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Limits per script. Both can be set; the defaults are 5 s and 64 MB. */
export interface ScriptLimits {
  /** CPU time one script may use, including its promise jobs. Default 5000. */
  timeoutMs?: number;
  /** Memory the sandbox may hold while a script runs. Default 64 MiB. */
  memoryBytes?: number;
}

/** One script to run, with a label that names where it came from in error messages. */
export interface ScriptSource {
  /** JavaScript source. */
  code: string;
  /** E.g. `requests/Users/Get user.yaml: preRequest`. */
  label: string;
}

/** A header, query or form row (`enabled` defaults to true). Extra fields survive the round trip. */
export interface ScriptKeyValue {
  key: string;
  value: string;
  enabled?: boolean;
  [field: string]: unknown;
}

/**
 * The request a script sees and may change. `body` and `auth` are the workspace format's own
 * objects (a `type` plus that type's fields), passed through untouched unless a script changes them.
 */
export interface ScriptRequest {
  /** Display name of the request. */
  name?: string;
  /** The request's notes (`docs`): the legacy `request.description`. */
  description?: string;
  method: string;
  /** The URL as written (placeholders may still be unfilled). */
  url: string;
  headers: ScriptKeyValue[];
  /** Values of the URL's `:name` path parameters (`pm.request.url.variables`). */
  pathParams?: ScriptKeyValue[];
  body?: { type: string; [field: string]: unknown };
  auth?: { type: string; [field: string]: unknown };
}

/** The response a post-response script sees. */
export interface ScriptResponse {
  /** Status code, e.g. 200. */
  code: number;
  /** Reason phrase, e.g. `OK` (filled from the code when empty). */
  status?: string;
  /** In wire order; repeated names are separate entries. */
  headers: [name: string, value: string][];
  /** Metadata after the answer, where the kind has it (gRPC's trailers): `pm.response.trailers`. */
  trailers?: [name: string, value: string][];
  /** The server's status message, where the kind has one apart from the body (gRPC's): `pm.response.statusMessage`. */
  statusMessage?: string;
  /** The body as text (UTF-8). Give either this or `bodyBytes`. */
  body?: string;
  /** The body bytes; decoded as UTF-8 for scripts when `body` is not given. */
  bodyBytes?: Uint8Array;
  /** Milliseconds from sending to the whole response. */
  responseTime: number;
  /** Bytes of the response body as received. */
  responseSize: number;
  /** Streaming kinds: the messages sent and received, in order (`pm.response.messages`). */
  messages?: ReadonlyArray<{ direction: 'sent' | 'received'; timeMs: number; text: string }>;
  /**
   * HTTP with a cookie jar: the jar's cookies for the response's URL once it was stored (the legacy
   * `responseCookies`, as Newman's). Without it, those the response's Set-Cookie headers give.
   */
  jarCookies?: ReadonlyArray<{ name: string; value: string; domain: string; path: string; expires: string | null; maxAge: number | null; secure: boolean; httpOnly: boolean; hostOnly: boolean }>;
}

/** Variable values by name. Scripts may store any JSON value; files hold strings. */
export type VariableValues = Record<string, JsonValue>;

/**
 * The variable scopes a script can read and write. `pm.variables.get` looks in `local`, then
 * `iterationData`, `environment`, `collection` and `globals`, as Postman does.
 */
export interface ScriptVariables {
  /** The active environment's values (file values, secrets and earlier script-set values merged). */
  environment: VariableValues;
  /** Name of the active environment (`pm.environment.name`). */
  environmentName?: string;
  /** Id of the active environment (`pm.environment.toJSON().id`). */
  environmentId?: string;
  /** Workspace variables (`pm.collectionVariables`). */
  collection: VariableValues;
  globals: VariableValues;
  /** The current data-file row of a collection run (`pm.iterationData`); read-only for scripts. */
  iterationData?: VariableValues;
  /**
   * Values of this request only: `pm.variables.set` writes here. Pass the pre-request result's
   * `variables.local` into the post-response call so both phases of one send share them.
   */
  local?: VariableValues;
}

export interface ScriptInfo {
  requestName: string;
  /** Relative request path (`Folder/Name.yaml`), also `pm.info.requestId`. */
  requestPath?: string;
  /** 0-based iteration of a collection run (0 for single sends). */
  iteration: number;
  iterationCount?: number;
  /** True in collection runs: only then do `setNextRequest` and friends matter. */
  inCollectionRun?: boolean;
}

interface ContextBase {
  /** In order: workspace, folders outer to inner, then the request's own. Empty strings are skipped. */
  scripts: ScriptSource[];
  request: ScriptRequest;
  variables: ScriptVariables;
  info: ScriptInfo;
}

export type PreRequestContext = ContextBase;

export interface PostResponseContext extends ContextBase {
  response: ScriptResponse;
}

export interface TestResult {
  name: string;
  passed: boolean;
  /** Set by `pm.test.skip`; a skipped test is neither passed nor failed. */
  skipped?: boolean;
  /** Why it failed (the assertion's message). */
  message?: string;
  /** Label of the script that defined it. */
  script: string;
}

export type ConsoleLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

export interface ConsoleEntry {
  level: ConsoleLevel;
  /** The arguments formatted as one line of text, as Node's console would. */
  text: string;
  script: string;
}

/** A script that failed: threw, did not compile, or ran over a limit. */
export interface ScriptError {
  script: string;
  /** A message for people, naming the script, e.g. `requests/a.yaml: preRequest: TypeError: x is undefined (line 3)`. */
  message: string;
  kind: 'error' | 'syntax' | 'timeout' | 'memory' | 'stack';
}

export type ScopeName = 'environment' | 'collection' | 'globals' | 'local';

/** What scripts did to one scope, net: apply `cleared` first, then `unset`, then `set`. */
export interface ScopeChanges {
  cleared: boolean;
  set: VariableValues;
  unset: string[];
}

interface ResultBase {
  tests: TestResult[];
  console: ConsoleEntry[];
  /** Empty when every script finished; later scripts still run after one fails. */
  errors: ScriptError[];
  /** Changes per scope for the runner to keep in the data folder (never in workspace files). */
  changes: Record<ScopeName, ScopeChanges>;
  /** Every scope's values after the scripts ran (pass these on to the next request of a run). */
  variables: ScriptVariables;
  /**
   * `setNextRequest(name)`: the name or path to run next; `null` stops the run;
   * `undefined` when no script called it.
   */
  nextRequest?: string | null;
}

export interface PreRequestResult extends ResultBase {
  /** The request after the scripts changed it (the same data when they did not). */
  request: ScriptRequest;
  /** `pm.execution.skipRequest()` was called: do not send, run no post-response scripts. */
  skipRequest: boolean;
}

export type PostResponseResult = ResultBase;
