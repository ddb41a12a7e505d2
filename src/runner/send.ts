/**
 * One request of a run, end to end: pre-request scripts, preparation, the send by the request's
 * kind (the protocol table), post-response scripts, the contract check, and the verdict (spec 2.7, 7.1).
 */
import { performance } from 'node:perf_hooks';
import { DEFAULT_REQUEST_KIND, KEY_VALUE_DEFAULTS, type Auth, type Body, type KeyValue, type RequestFile } from '../model/index.js';
import { notRunYet, requestKind, SendError, TIMEOUT_SETTING, type ProtocolResult, type RequestKindModule, type SendContext } from '../protocols/index.js';
import { effectiveAuth, fetchOAuth2Token, PrepareError, prepareRequest, scriptChain, type FetchedToken } from '../request/index.js';
import { describeSystemError } from '../support/system-error.js';
import { render, templateText, type VariableScope } from '../template/index.js';
import type { OAuth2Options, PreparedRequest } from '../request/index.js';
import type { ScriptRequest, VariableValues, TestResult } from '../scripts/index.js';
import { formatWarning, type RequestNode, type Warning } from '../workspace/index.js';
import { recordHistory, type RunContext } from './context.js';
import type { RequestResult, TestOutcome } from './events.js';
import { recordAnswer, scriptResponse, statusShown } from './response.js';
import type { RunItem } from '../workspace/index.js';

export interface SendOutcome {
  result: RequestResult;
  /** `setNextRequest`: a name or path to go to, `null` to stop, undefined when not called. */
  nextRequest?: string | null;
  response?: ProtocolResult;
}

export interface SendInfo {
  iteration: number;
  iterationCount: number;
  /**
   * A collection run's `pm.variables.set` values: they last the whole run, across its requests and
   * iterations, as in Postman. Absent for a single send (the app's Send), where they last that send.
   */
  locals?: VariableValues;
  /** Prepared to list what the target offers (runner/describe.ts), not to be sent: see PrepareOptions.purpose. */
  purpose?: 'describe';
}

function baseResult(item: RunItem, iteration: number): RequestResult {
  const folders = item.folders.filter((f) => f.path !== '');
  const request = item.node.type === 'request' ? item.node.request : undefined;
  return {
    path: item.node.path,
    name: request?.name ?? item.node.path.replace(/\.yaml$/i, ''),
    kind: request?.kind ?? DEFAULT_REQUEST_KIND,
    folder: folders.at(-1)?.path ?? '',
    folderNames: folders.map((f) => f.name),
    method: request ? methodAsTyped(request) : '',
    url: request?.url ?? '',
    durationMs: 0,
    iteration,
    tests: [],
    passed: false,
    console: [],
    startedAt: new Date().toISOString(),
  };
}

/**
 * The method a result shows before its request is prepared (a refusal at preparation keeps it): by
 * the kind's rule, as preparation reads it (an HTTP method upper-cased; gRPC's `pkg.Svc/Method`
 * and DNS's record type as typed).
 */
function methodAsTyped(request: RequestFile): string {
  const rule = requestKind(request.kind).method;
  return rule === 'http' ? request.method.toUpperCase() : rule === 'text' ? request.method : '';
}

export async function sendItem(item: RunItem, ctx: RunContext, info: SendInfo): Promise<SendOutcome> {
  if (item.node.type === 'broken') {
    const result = baseResult(item, info.iteration);
    result.error = `${formatWarning(item.node.warning)} (fix the file to run it)`;
    return { result };
  }
  const node = item.node;
  const folderProblem = brokenFolderFile(item, ctx);
  if (folderProblem) {
    // Its auth, headers and scripts (tests among them) are unknown: sending without them could pass a run that should fail.
    const result = baseResult(item, info.iteration);
    result.error = `${formatWarning(folderProblem)} (the folder's auth, headers and scripts are unknown, so its requests are not sent; fix the file to run them)`;
    return { result };
  }
  const notRun = notRunYet(node.request.kind);
  if (notRun) {
    const result = baseResult(item, info.iteration);
    result.skipped = notRun;
    result.passed = true;
    return { result };
  }
  const repeat = node.request.settings?.repeat;
  if (!repeat) return sendOnce(item, node, ctx, info);

  // settings.repeat: send again until the condition holds, within the repeat's time limit.
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    const outcome = await sendOnce(item, node, ctx, info);
    outcome.result.attempts = attempt;
    const holds = await repeatConditionHolds(repeat.condition, outcome, item, ctx, info);
    if (holds === true) return outcome;
    const elapsed = performance.now() - started;
    const attempts = `${attempt} attempt${attempt === 1 ? '' : 's'}`;
    const fail = (why: string) => {
      outcome.result.passed = false;
      outcome.result.error = outcome.result.error ? `${outcome.result.error.replace(/\.$/, '')}; ${why}` : why;
      return outcome;
    };
    if (typeof holds === 'string') return fail(holds);
    if (ctx.signal?.aborted) return fail(`stopped before the repeat condition held (${attempts})`);
    if (elapsed + repeat.intervalMs > repeat.timeoutMs) return fail(`the repeat condition did not hold within ${repeat.timeoutMs} ms (${attempts})`);
    // Ctrl-C ends the wait at once: no further attempt is sent.
    await pause(repeat.intervalMs, ctx.signal);
    if (ctx.signal?.aborted) return fail(`stopped before the repeat condition held (${attempts})`);
  }
}

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The warning of a `_folder.yaml` above the request that could not be read, if any (the innermost). */
export function brokenFolderFile(item: RunItem, ctx: RunContext): Warning | undefined {
  const warnings = ctx.workspace.warnings;
  if (warnings.length === 0) return undefined;
  for (const folder of [...item.folders].reverse()) {
    if (folder.path === '') continue;
    const file = `requests/${folder.path}/_folder.yaml`.toLowerCase();
    const found = warnings.find((w) => w.file.toLowerCase() === file);
    if (found) return found;
  }
  return undefined;
}

/** True when it holds, false when not yet, a message when the condition itself fails to run. */
async function repeatConditionHolds(condition: string, outcome: SendOutcome, item: RunItem, ctx: RunContext, info: SendInfo): Promise<boolean | string> {
  if (condition.trim() === '') return outcome.result.passed;
  if (!outcome.response) return false;
  const engine = await ctx.scripts.get();
  const code = `pm.test('repeat condition', function () { if (!(${condition}\n)) throw new Error('not yet'); });`;
  const label = `requests/${item.node.path}: settings.repeat.condition`;
  const run = await engine.runPostResponse({
    scripts: [{ code, label }],
    request: { method: outcome.result.method, url: outcome.result.url, headers: [] },
    variables: ctx.variables.forScripts(),
    info: { requestName: outcome.result.name, requestPath: item.node.path, iteration: info.iteration, iterationCount: info.iterationCount, inCollectionRun: true },
    response: scriptResponse(outcome.response),
  });
  if (run.errors.length > 0) return `settings.repeat.condition failed to run: ${run.errors.map((e) => e.message).join('; ')}`;
  return run.tests.some((t) => t.passed);
}

/** A request made wire-ready for its kind (pre-request scripts run), or the outcome that ends it before the wire. */
export type PreparedItem =
  | { ready: true; prepared: PreparedRequest; kind: RequestKindModule; request: RequestFile; local: VariableValues; scope: VariableScope; errors: string[]; result: RequestResult; nextRequest?: string | null; scriptInfo: ScriptInfo }
  | { ready: false; outcome: SendOutcome };

type ScriptInfo = { requestName: string; requestPath: string; iteration: number; iterationCount: number; inCollectionRun: boolean };

/**
 * Pre-request scripts (workspace, folders outer to inner, the request's own), then preparation
 * for the request's kind: what a send and a live connection (`connectItem`) share.
 */
export async function prepareItem(item: RunItem, node: RequestNode, ctx: RunContext, info: SendInfo): Promise<PreparedItem> {
  const result = baseResult(item, info.iteration);
  const { workspace } = ctx;
  let request = node.request;
  let local: VariableValues = { ...info.locals };
  let nextRequest: string | null | undefined;
  const scriptInfo = { requestName: request.name, requestPath: node.path, iteration: info.iteration, iterationCount: info.iterationCount, inCollectionRun: true };
  const errors: string[] = [];

  // Pre-request scripts: workspace, folders outer to inner, the request's own.
  const pre = scriptChain(workspace.file, item.folders, request, node.path, 'preRequest');
  if (pre.length > 0) {
    const engine = await ctx.scripts.get();
    const out = await engine.runPreRequest({ scripts: pre, request: toScriptRequest(request), variables: ctx.variables.forScripts(local), info: scriptInfo });
    ctx.variables.apply(out.changes);
    local = out.variables.local ?? {};
    keepLocals(info, local);
    result.console.push(...out.console.map((c) => `${c.level === 'log' ? '' : `${c.level}: `}${c.text}`));
    result.tests.push(...out.tests.map(testOutcome));
    errors.push(...out.errors.map((e) => e.message));
    if (out.nextRequest !== undefined) nextRequest = out.nextRequest;
    if (out.skipRequest) {
      result.skipped = 'a pre-request script called skipRequest()';
      result.passed = errors.length === 0;
      if (errors.length) result.error = errors.join('\n');
      return { ready: false, outcome: { result, nextRequest } };
    }
    request = fromScriptRequest(request, out.request);
  }

  const kind = requestKind(request.kind);
  const scope = ctx.variables.scope(local);
  let prepared: PreparedRequest;
  try {
    prepared = await prepareRequest(
      { request, path: node.path, folders: item.folders, workspace, variables: scope },
      {
        data: ctx.data,
        settings: ctx.settings,
        overrides: ctx.overrides,
        allowFilesOutside: ctx.allowFilesOutside,
        kind,
        oauth2: oauth2Options(ctx, request, { path: node.path, scripted: pre.length > 0 }),
        face: ctx.face,
        ...(info.purpose ? { purpose: info.purpose } : {}),
      },
    );
  } catch (error) {
    // A file the request needs that cannot be read (permissions, a folder) fails this request only.
    const system = describeSystemError(error);
    if (!(error instanceof PrepareError) && !system) throw error;
    result.error = [...errors, system ? `requests/${node.path}: ${system.message}` : (error as Error).message].join('\n');
    return { ready: false, outcome: { result, nextRequest } };
  }
  maskCredentials(ctx, prepared);
  if (kind.shape) prepared = kind.shape(prepared);
  result.method = prepared.method;
  result.url = prepared.url;
  const refusal = ctx.guard?.({ url: prepared.url, carried: prepared, scripted: pre.length > 0, path: node.path, stored: Object.values(ctx.variables.snapshot.scriptValues).flatMap((values) => Object.values(values).map(templateText)) });
  if (refusal !== undefined) {
    result.error = [...errors, refusal].join('\n');
    return { ready: false, outcome: { result, nextRequest } };
  }
  return { ready: true, prepared, kind, request, local, scope, errors, result, nextRequest, scriptInfo };
}

/**
 * How a send of this run fetches OAuth 2.0 tokens: the run's token memo, the request's TLS, proxy
 * and time limit settings (also "get token" in the app); for a send (`sending`), the run's guard
 * sees the token request before it goes.
 */
export function oauth2Options(ctx: RunContext, request: RequestFile, sending?: { path: string; scripted: boolean }): Partial<OAuth2Options> {
  const guard = ctx.guard;
  return {
    ...(guard && sending
      ? {
          beforeTokenRequest: (settings) => {
            const refusal = guard({ url: settings.tokenUrl, carried: settings, what: 'its OAuth 2.0 token request', ...sending });
            if (refusal !== undefined) throw new PrepareError(refusal);
          },
        }
      : {}),
    memo: ctx.oauthTokens,
    dispatcher: ctx.agents.get(ctx.overrides.verifyTls ?? request.settings?.verifyTls ?? ctx.settings.verifyTls, 'auto', request.settings?.proxy === false),
    onAuthorizeUrl: ctx.onAuthorizeUrl,
    ...(ctx.noBrowser ? { noBrowser: ctx.noBrowser } : {}),
    signal: ctx.signal,
    timeoutMs: ctx.overrides.timeoutMs ?? request.settings?.timeoutMs ?? ctx.settings.timeoutMs,
  };
}

/**
 * A timeout's message as the user set it: the kinds say `(settings.timeoutMs)`, but a run-wide
 * override (`ferry run --timeout-ms`, the only face that sets one) beat the request's setting,
 * which may hold another value or none.
 */
/** What a kind's own failure (a bug of Ferry's: not a SendError) says: what broke, and that the run went on. */
function unexpectedFailure(kind: string, error: unknown): string {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `Ferry's ${kind} client failed unexpectedly (${what}). This is a bug in Ferry: please report it with this request's file; the run went on with the next request.`;
}

function timeoutNamed(error: SendError, ctx: RunContext): string {
  if (error.kind !== 'timeout' || ctx.overrides.timeoutMs === undefined) return error.message;
  return error.message.replace(TIMEOUT_SETTING, '(--timeout-ms)');
}

/** What every kind's wire gets from the run: pools, jar, limits, the programs policy. */
export function sendContextOf(ctx: RunContext): SendContext {
  return { agents: ctx.agents, cookies: ctx.cookies, maxResponseMb: ctx.settings.maxResponseMb, workspaceRoot: ctx.workspace.root, allowFilesOutside: ctx.allowFilesOutside, programs: ctx.programs, onMessage: ctx.onMessage, ...(ctx.face ? { face: ctx.face } : {}) };
}

async function sendOnce(item: RunItem, node: RequestNode, ctx: RunContext, info: SendInfo): Promise<SendOutcome> {
  const ready = await prepareItem(item, node, ctx, info);
  if (!ready.ready) return ready.outcome;
  const { prepared, kind, request, local, scope, errors, result, scriptInfo } = ready;
  let { nextRequest } = ready;
  const { workspace } = ctx;

  let response: ProtocolResult;
  const sentAt = performance.now();
  try {
    response = await kind.send!(prepared, sendContextOf(ctx), ctx.signal);
  } catch (error) {
    // A stop (Ctrl-C) passes through; anything else a kind throws fails this request, not the run.
    if (!(error instanceof SendError) && ctx.signal?.aborted) throw error;
    result.durationMs = Math.round(performance.now() - sentAt);
    const message = error instanceof SendError ? timeoutNamed(error, ctx) : unexpectedFailure(request.kind ?? 'http', error);
    result.error = [...errors, message].join('\n');
    recordHistory(ctx, { time: result.startedAt, path: node.path, method: prepared.method, url: prepared.url, durationMs: result.durationMs, error: message });
    return { result, nextRequest };
  }
  recordAnswer(result, response);
  recordHistory(ctx, { time: result.startedAt, path: node.path, method: prepared.method, url: prepared.url, status: response.outcome.status, statusLabel: statusShown(result), ok: response.outcome.ok, durationMs: result.durationMs });

  // Post-response scripts and their tests.
  const post = scriptChain(workspace.file, item.folders, request, node.path, 'postResponse');
  if (post.length > 0) {
    const engine = await ctx.scripts.get();
    // Loaded with the first post-response script: a run without one never needs it.
    const { filledAuth, filledBody } = await import('./sent-fields.js');
    const fill = (text: string) => render(text, 'request', { variables: scope });
    // An inherited auth that was sent is the folder's or the workspace's, as Newman's resolved request has it.
    const auth = request.auth.type === 'inherit' && prepared.authType !== 'none' ? effectiveAuth(request, item.folders, workspace.file).auth : (request.auth as Auth);
    const out = await engine.runPostResponse({
      scripts: post,
      request: toScriptRequest(request, prepared, response.sentHeaders, { body: filledBody(request.body, prepared, fill), auth: filledAuth(auth, fill) }),
      variables: ctx.variables.forScripts(local),
      info: scriptInfo,
      // HTTP with a cookie jar: its cookies for the answer's URL, the legacy responseCookies (as Newman's).
      response: { ...scriptResponse(response), ...(response.sentHeaders && ctx.cookies ? { jarCookies: ctx.cookies.cookiesFor(response.url) } : {}) },
    });
    ctx.variables.apply(out.changes);
    keepLocals(info, out.variables.local ?? local);
    result.console.push(...out.console.map((c) => `${c.level === 'log' ? '' : `${c.level}: `}${c.text}`));
    result.tests.push(...out.tests.map(testOutcome));
    errors.push(...out.errors.map((e) => e.message));
    if (out.nextRequest !== undefined) nextRequest = out.nextRequest;
  }
  const ownTests = result.tests.filter((t) => !t.skipped);

  // The contract check, for requests imported from an API document (spec 7.1).
  const contract = await ctx.contract.test({
    request,
    folderChain: item.folders.map((f) => f.settings),
    response: { status: response.outcome.status, headers: response.headers, body: response.body },
  });
  if (contract) result.tests.push({ name: contract.name, passed: contract.passed, ...(contract.message ? { message: contract.message } : {}) });

  const testsPassed = ownTests.every((t) => t.passed);
  const statusPassed = ownTests.length > 0 || response.outcome.ok;
  const passed = contract ? contract.passed && testsPassed : statusPassed && testsPassed;
  if (errors.length > 0) result.error = errors.join('\n');
  result.passed = passed && errors.length === 0;
  return { result, nextRequest, response };
}

/** A collection run's `pm.variables` values after a script, for the run's next scripts and templates. */
function keepLocals(info: SendInfo, local: VariableValues): void {
  if (!info.locals) return;
  for (const key of Object.keys(info.locals)) delete info.locals[key];
  Object.assign(info.locals, local);
}

function testOutcome(t: TestResult): TestOutcome {
  return { name: t.name, passed: t.passed, ...(t.skipped ? { skipped: true } : {}), ...(t.message ? { message: t.message } : {}) };
}

/**
 * `sent`: the headers as the client sent them (HTTP), which post-response scripts see, as in
 * Postman; `filled`, after the send: the body (its form rows, GraphQL fields) and the auth with
 * their variables filled, as Newman's resolved request has them (sent-fields.ts).
 */
function toScriptRequest(request: RequestFile, prepared?: PreparedRequest, sent?: [name: string, value: string, system?: true][], filled?: { body: Body; auth: Auth }): ScriptRequest {
  // After the send, the path parameters filled into the URL are gone from it, as in Newman (its
  // url.variables then lists only those the URL still names).
  const sentPath = prepared ? prepared.url.split(/[?#]/)[0]!.split('/') : undefined;
  const pathParams = sentPath ? request.pathParams.filter((p) => sentPath.some((segment) => segment.split('.')[0] === `:${p.key}`)) : request.pathParams;
  return {
    name: request.name,
    ...(request.docs ? { description: request.docs } : {}),
    method: prepared?.method ?? request.method,
    url: prepared?.url ?? request.url,
    headers: sent ? withSwitchedOff(request.headers, authMarked(request, prepared, sent)) : prepared ? prepared.headers.map((h) => ({ key: h.name, value: h.value })) : request.headers.map((h) => ({ ...h })),
    ...(pathParams.length > 0 ? { pathParams: pathParams.map((p) => ({ ...p })) } : {}),
    body: (sentText(request, prepared) ?? filled?.body ?? request.body) as ScriptRequest['body'],
    auth: (filled?.auth ?? request.auth) as ScriptRequest['auth'],
  };
}

/**
 * The headers the request's auth gave (Authorization, an API key's header) marked as the client's,
 * as Newman marks its auth's headers; a header of the same name the request sets itself is its own.
 */
function authMarked(request: RequestFile, prepared: PreparedRequest | undefined, sent: readonly [name: string, value: string, system?: true][]): [name: string, value: string, system?: true][] {
  if (!prepared || prepared.authType === 'none') return [...sent];
  const written = new Set(request.headers.filter((h) => h.enabled !== false).map((h) => h.key.toLowerCase()));
  const byAuth = new Set(['authorization', ...(prepared.credentialHeaders ?? []).map((name) => name.toLowerCase())].filter((name) => !written.has(name)));
  return sent.map(([name, value, system]) => (system || byAuth.has(name.toLowerCase()) ? [name, value, true] : [name, value]));
}

/**
 * The headers as sent, with the request's switched-off rows where Newman lists them: each after
 * the sent header the enabled row before it gave (first when no row is before it; before the
 * client's headers when that header is not among those sent).
 */
function withSwitchedOff(rows: readonly KeyValue[], sent: readonly [name: string, value: string, system?: true][]): ScriptRequest['headers'] {
  const out: ScriptRequest['headers'] = sent.map(([key, value, system]) => (system ? { key, value, system } : { key, value }));
  let previous: string | undefined;
  for (const row of rows) {
    if (row.enabled !== false) {
      previous = row.key.toLowerCase();
      continue;
    }
    let at = previous === undefined ? 0 : -1;
    for (let i = out.length - 1; at < 0 && i >= 0; i--) if (out[i]!.key.toLowerCase() === previous) at = i + 1;
    if (at < 0) at = out.findIndex((h) => h.system === true);
    if (at < 0) at = out.length;
    out.splice(at, 0, { ...row, enabled: false });
  }
  return out;
}

/**
 * A raw body as it was sent (`{{variables}}` filled), for post-response scripts: in Postman
 * `pm.request.body.raw` there is the text sent. Form and GraphQL bodies are filled by sent-fields.ts.
 */
function sentText(request: RequestFile, prepared: PreparedRequest | undefined): RequestFile['body'] | undefined {
  const body = prepared?.body;
  if (!body || body.kind !== 'bytes' || !body.isText || !['json', 'text', 'xml'].includes(body.source) || body.source !== request.body.type) return undefined;
  return { ...request.body, text: Buffer.from(body.bytes).toString('utf8') };
}

/** The request after pre-request scripts changed it (they see and change the request's own fields). */
function fromScriptRequest(original: RequestFile, changed: ScriptRequest): RequestFile {
  return {
    ...original,
    method: changed.method,
    url: changed.url,
    headers: changed.headers.map((h) => ({ ...KEY_VALUE_DEFAULTS, ...h, key: String(h.key), value: String(h.value), enabled: h.enabled !== false }) as KeyValue),
    pathParams: changed.pathParams ? changed.pathParams.map((p) => ({ ...KEY_VALUE_DEFAULTS, ...p, key: String(p.key), value: String(p.value), enabled: p.enabled !== false }) as KeyValue) : original.pathParams,
    body: (changed.body ?? original.body) as Body,
    auth: (changed.auth ?? original.auth) as Auth,
  };
}

/** Shorter credential values are not masked: replacing every "abc" in a run's output would garble it and hide nothing worth hiding. */
const MIN_MASKED_CREDENTIAL = 4;

/**
 * Passwords from the auth settings and OAuth 2.0 tokens (access and refresh) are masked in the
 * run's output like secret values, though no secret variable holds them.
 */
function maskCredentials(ctx: RunContext, prepared: PreparedRequest): void {
  const add = (value: string | undefined) => {
    if (value !== undefined && value.length >= MIN_MASKED_CREDENTIAL) ctx.variables.mask.add(value);
  };
  for (const value of prepared.credentials ?? []) add(value);
  for (const token of ctx.oauthTokens.values()) {
    add(token.accessToken);
    add(token.refreshToken);
  }
}

/**
 * The OAuth 2.0 token a send of this item would use, fetched (or taken from the cache) with the
 * send's options and variables, without running scripts or sending the request ("get token").
 */
export async function fetchItemToken(item: RunItem, ctx: RunContext, where?: string): Promise<FetchedToken> {
  const node = item.node as RequestNode;
  return fetchOAuth2Token(
    { request: node.request, path: node.path, folders: item.folders, workspace: ctx.workspace, variables: ctx.variables.scope() },
    { data: ctx.data, oauth2: oauth2Options(ctx, node.request) },
    where,
  );
}
