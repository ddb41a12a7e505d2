/**
 * From a load test file (spec 2.12) to what the generators run: targets found and prepared once
 * with the request pipeline (inheritance, auth, variables, `-e`, `--var`), stages, thresholds,
 * data rows and options checked. Every problem is found here, before anything is sent.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SettingsError, settingsFile, type AppSettings, type WorkspaceData } from '../appdata/index.js';
import { unknownFieldNotes, unknownFieldsMessage, type LoadTestFile } from '../model/index.js';
import { defaultHeaders, encodeMultipart, requestKind, resolveProxyConfig, SendError, withMultipartType } from '../protocols/index.js';
import { describeProxy, ProxyRules } from '../protocols/http/proxy-rules.js';
import { hasScripts, loadVariableSnapshot, PrepareError, prepareRequest, scopeFrom, type Face, type PreparedRequest } from '../request/index.js';
import { namedFile } from '../support/paths-inside.js';
import { loadClientTls } from '../request/client-tls-files.js';
import { tlsOptionsForUrl, type ClientTls } from '../request/client-tls.js';
import { DataFileError, readDataFile, rowText, resolveEnvironment, RunError, type ActiveEnvironmentNotice } from '../variables/index.js';
import { DYNAMIC_VALUE_NAMES } from '../template/index.js';
import { entriesHere, formatWarning, loadTargetPath, nearestPath, unreadEntryFiles, walkRequests, type Workspace } from '../workspace/index.js';
import { fieldPlacer } from './field-place.js';
import { markerFor } from './fill.js';
import { rowsOf, type Segment } from './segment.js';
import { checkStages, StageError, totalSeconds, wholeCount, type Stage } from './stages.js';
import type { ThresholdRule } from './thresholds.js';
import type { GeneratorConfig, WireTarget, WireTls } from './wire.js';

/** Bad input: unknown id, missing or non-HTTP target, bad stage, threshold or data file. Nothing was sent. */
export class LoadInputError extends Error {
  override name = 'LoadInputError';
}

export interface PlanOptions {
  workspace: Workspace;
  id: string;
  environment?: string;
  /** Told the active environment's name when `environment` is absent and it applies (the CLI prints it). */
  onActiveEnvironment?: ActiveEnvironmentNotice;
  vars?: ReadonlyMap<string, string>;
  stages?: Stage[];
  segment?: Segment;
  data?: WorkspaceData;
  settings: AppSettings;
  /** Who shows a refusal (the app's page words its remedies for the app); default the command line. */
  face?: Face;
}

export interface LoadPlan {
  id: string;
  file: string;
  test: LoadTestFile;
  /** The generator config but the worker stripe (engine.ts adds it). */
  config: Omit<GeneratorConfig, 'worker' | 'activeWorkers'>;
  thresholds: ThresholdRule[];
  plannedSeconds: number;
  /** Requests that have scripts, which load tests do not run. */
  withScripts: string[];
  /** Fields of the file that load tests do not have (kept, never read), each with the field it likely meant: `targets[0].weigth (did you mean weight?)`. */
  unknownFields: string[];
  /** Targets a run would send through a proxy (the setting or the system's), which load tests send directly. */
  pastProxy?: { proxy: string; requests: string[] };
  /** Set when this segment (`--segment i/n`) gets no users or requests of the whole: what it says. */
  idleSegment?: string;
}

/**
 * What `ferry load` says on stderr before a run (after `ferry: `), and the app's load-test panel
 * shows with the run and its history line: requests whose scripts are not run, and fields of the
 * file that load tests do not have.
 */
export function planNotices(plan: Pick<LoadPlan, 'file' | 'withScripts' | 'unknownFields' | 'pastProxy' | 'idleSegment'>): string[] {
  const notices: string[] = [];
  if (plan.idleSegment) notices.push(plan.idleSegment);
  if (plan.withScripts.length) notices.push(`load tests do not run scripts; not run for: ${plan.withScripts.join(', ')}.`);
  if (plan.pastProxy) notices.push(`load tests send directly, not through the proxy (${plan.pastProxy.proxy}): ${plan.pastProxy.requests.join(', ')}.`);
  const unknown = unknownFieldsMessage('loadtest', plan.file, plan.unknownFields);
  if (unknown) notices.push(unknown);
  return notices;
}


/** The workspace's requests by their lower-cased path: what a target's `request` names. */
function requestsByPath(workspace: Workspace) {
  return new Map([...walkRequests(workspace.tree)].map((r) => [r.node.path.toLowerCase(), r]));
}

/**
 * The notices `test` (the file `where`, as an editor holds it, saved or not) would get from its
 * plan (planNotices), worked out without planning: nothing prepared, no variable, secret or file
 * read, nothing sent. A target the plan would refuse (missing, not HTTP) is left to the plan.
 */
export function loadTestNotices(workspace: Workspace, test: LoadTestFile, where: string): string[] {
  const requests = requestsByPath(workspace);
  const withScripts = test.targets.filter((t) => t.enabled && t.weight > 0).flatMap((t) => {
    const hit = requests.get(loadTargetPath(t.request).toLowerCase());
    if (!hit || requestKind(hit.node.request.kind).kind !== 'http') return [];
    return hasScripts(workspace.file, hit.folders, hit.node.request, hit.node.path) ? [hit.node.path] : [];
  });
  return planNotices({ file: where, withScripts, unknownFields: unknownFieldNotes('loadtest', test) });
}

export async function planLoadTest(options: PlanOptions): Promise<LoadPlan> {
  const { workspace, id } = options;
  const entry = workspace.loadtests.find((e) => e.id === id);
  if (!entry) {
    const broken = unreadEntryFiles(workspace, 'loadtest').get(id);
    if (broken) throw new LoadInputError(`Load test "${id}" cannot be used: ${formatWarning(broken)}`);
    throw new LoadInputError(`No load test "${id}". ${entriesHere(workspace, 'loadtest')}`);
  }
  const test = entry.value;
  const where = entry.file;
  /** `file:line:column` of a field, for the problems found here (the format's own carry theirs). */
  const place = await fieldPlacer(workspace.root, where);

  const httpVersion = test.httpVersion ?? options.settings.httpVersion;
  if (httpVersion === 'http3') {
    // Said where the value came from: the test's own field, or this computer's setting under it.
    throw new LoadInputError(test.httpVersion
      ? `${where}: httpVersion http3 is not supported by load tests; use auto, http1 or http2.`
      : `The application setting httpVersion is http3 (in ${settingsFile()}), which load tests do not support; change it with ferry config set httpVersion auto (or http1, http2), or give ${where} an httpVersion of its own.`);
  }
  // This computer's caFiles and client certificates, as for a run: a CA file that cannot be used
  // stops the test before anything is sent.
  let clientTls: ClientTls | undefined;
  // What each HTTPS target's connections use (worked out here: the workers get plain options).
  const tls: WireTls = { byOrigin: {} };
  try {
    clientTls = await loadClientTls(options.settings);
    if (clientTls?.ca) tls.ca = clientTls.ca;
  } catch (error) {
    if (error instanceof SettingsError) throw new LoadInputError(error.message);
    throw error;
  }
  const stages = options.stages ?? test.stages;
  try {
    // The file's stages are placed by their line; --stages by its name.
    checkStages(stages, options.stages ? '--stages' : where, test.model, options.segment?.count ?? 1, options.stages ? undefined : place);
  } catch (error) {
    if (error instanceof StageError) throw new LoadInputError(error.message);
    throw error;
  }

  const sent = test.targets.map((t, i) => ({ t, i })).filter(({ t }) => t.enabled && t.weight > 0);
  if (sent.length === 0) throw new LoadInputError(`${where}: no target is sent (each needs enabled: true and a weight above 0); add targets with request: Folder/Name.yaml.`);
  for (const { t, i } of sent) t.captures.forEach((capture, j) => checkCapture(capture, `${where}: targets[${i}].captures[${j}]`));
  const requests = requestsByPath(workspace);
  const found = sent.map(({ t, i }) => {
    const hit = requests.get(loadTargetPath(t.request).toLowerCase());
    if (!hit) {
      const near = nearestPath([...requests.values()].map((r) => r.node.path), t.request);
      throw new LoadInputError(`${where}: targets[${i}].request: there is no request "${t.request}" under requests/.${near ? ` Did you mean ${near}?` : ''}`);
    }
    const kind = requestKind(hit.node.request.kind);
    if (kind.kind !== 'http') throw new LoadInputError(`${where}: targets[${i}].request: ${hit.node.path} is ${kind.noun}; load tests send HTTP requests only.`);
    return { target: t, hit };
  });
  // A threshold's target names its request as a target does: `.yaml` may be left out, any case;
  // a target not sent (weight 0, switched off) too, whose rule then fails with no samples.
  const paths = new Set(found.map((f) => f.hit.node.path.toLowerCase()));
  const listed = new Map(test.targets.map((t) => [loadTargetPath(t.request).toLowerCase(), loadTargetPath(t.request)]));
  test.thresholds.forEach((rule, i) => {
    const problem = limitProblem(rule.metric, rule.value);
    if (problem) throw new LoadInputError(`${place(['thresholds', i, 'value'])}: thresholds[${i}].value: ${problem}`);
    const named = rule.target === undefined ? undefined : loadTargetPath(rule.target).toLowerCase();
    if (named !== undefined && !paths.has(named) && !listed.has(named)) {
      throw new LoadInputError(`${place(['thresholds', i, 'target'])}: thresholds[${i}].target: "${rule.target}" is not one of the test's targets (${[...new Set(listed.values())].join(', ')}); name one of them, or leave target out to judge all.`);
    }
  });
  const thresholds: ThresholdRule[] = test.thresholds.map((r) => ({ metric: r.metric, op: r.op, value: r.value, enabled: r.enabled, ...(r.target !== undefined ? { target: normalizeTarget(r.target, found, listed) } : {}) }));

  let rows: Array<Record<string, string>> = [];
  if (test.dataFile) {
    // A data file lies inside the workspace, reached without a link, unless this computer allows files outside it.
    const { absolute: file, inside, linked } = await namedFile(workspace.root, test.dataFile);
    if (linked) throw new LoadInputError(`${where}: dataFile cannot be used: ${linked}.`);
    if (!inside && !options.settings.filesOutsideWorkspace) {
      throw new LoadInputError(`${where}: dataFile ${test.dataFile} lies outside the workspace folder. Move it into the workspace, or allow files outside it (ferry config set filesOutsideWorkspace true).`);
    }
    try {
      // Each send fills its templates from the row: text once, here.
      rows = (await readDataFile(file)).map(rowText);
    } catch (error) {
      if (error instanceof DataFileError) throw new LoadInputError(`${where}: dataFile: ${error.message}`);
      throw error;
    }
    if (rows.length === 0) throw new LoadInputError(`${where}: dataFile ${test.dataFile} has no rows.`);
  }
  const segment = options.segment ?? { index: 0, count: 1 };

  let environmentId: string | undefined;
  try {
    environmentId = await resolveEnvironment(workspace, options.environment, options.data, options.onActiveEnvironment);
  } catch (error) {
    if (error instanceof RunError) throw new LoadInputError(error.message);
    throw error;
  }
  const snapshot = await loadVariableSnapshot(workspace, options.data, environmentId);
  const cliVars = options.vars ?? new Map<string, string>();
  // Names whose value changes per request stand as markers; --var wins over them all.
  const marker = `ferry${randomBytes(4).toString('hex')}`;
  // Every row's columns: the rows of a JSON file need not have the same keys.
  const columns = new Set<string>();
  for (const row of rows) for (const key in row) columns.add(key);
  const perRequest = [...new Set([...columns, ...test.targets.flatMap((t) => t.captures.map((c) => c.variable)), ...DYNAMIC_VALUE_NAMES])].filter((n) => !cliVars.has(n));
  const markers = new Map(perRequest.map((name, i) => [name, markerFor(marker, i)]));
  const variables = scopeFrom(snapshot, [markers, cliVars]);
  // What such a name is when a send has no value for it (nothing captured yet, a row without that
  // column): the environment's or workspace's value, as a run fills it.
  const withoutMarkers = scopeFrom(snapshot, [cliVars]);
  const defaults = perRequest.map((name) => (name.startsWith('$') ? null : (withoutMarkers.resolve(name, { allowSecrets: true }) ?? null)));

  const targets: WireTarget[] = [];
  const withScripts: string[] = [];
  // A run would send these through a proxy; the generator connects to the service itself (said, never silently).
  const settings = options.settings;
  const proxyConfig = resolveProxyConfig(settings);
  const proxyRules = proxyConfig && new ProxyRules(proxyConfig);
  const pastProxy: string[] = [];
  let proxyUsed: string | undefined;
  for (const { target, hit } of found) {
    const { node, folders } = hit;
    if (hasScripts(workspace.file, folders, node.request, node.path)) withScripts.push(node.path);
    let prepared: PreparedRequest;
    try {
      prepared = await prepareRequest(
        { request: node.request, path: node.path, folders, workspace, variables },
        { data: options.data, settings: options.settings, kind: requestKind('http'), signEachSend: true, ...(options.face ? { face: options.face } : {}) },
      );
    } catch (error) {
      if (error instanceof PrepareError) throw new LoadInputError(error.message);
      throw error;
    }
    if (prepared.digest || prepared.ntlm) throw new LoadInputError(`${where}: ${node.path} uses ${prepared.digest ? 'digest' : 'NTLM'} auth, which load tests do not answer; use another auth type for load tests.`);
    targets.push(await wireTarget(prepared, node.path, target.weight, target.captures, marker));
    const proxy = proxyRules && URL.canParse(prepared.url) ? proxyRules.proxyFor(new URL(prepared.url)) : undefined;
    if (proxy) {
      proxyUsed ??= proxy;
      if (!pastProxy.includes(node.path)) pastProxy.push(node.path);
    }
    // A client certificate for this host that cannot be used (unreadable, key not matching): said now, not by every send.
    if (clientTls && /^https:/i.test(prepared.url)) {
      const url = new URL(prepared.url);
      try {
        tls.byOrigin[url.origin] = tlsOptionsForUrl(clientTls, url);
      } catch (error) {
        throw new LoadInputError(`${where}: ${node.path}: ${(error as Error).message}`);
      }
    }
  }

  return {
    id,
    file: where,
    test,
    thresholds,
    plannedSeconds: totalSeconds(stages),
    withScripts,
    unknownFields: unknownFieldNotes('loadtest', test),
    ...idleSegment(stages, test.model, options.segment),
    ...(proxyUsed ? { pastProxy: { proxy: `${describeProxy(proxyUsed)}, from ${settings.proxy ? 'the proxy setting' : 'the system proxy variables (HTTP_PROXY, HTTPS_PROXY)'}`, requests: pastProxy } } : {}),
    config: {
      targets,
      model: test.model,
      stages,
      thinkTimeMs: test.thinkTimeMs,
      maxInFlight: Math.max(1, Math.ceil((test.maxInFlight - segment.index) / segment.count)),
      keepAlive: test.keepAlive,
      timeoutMs: test.timeoutMs ?? options.settings.timeoutMs,
      http2: httpVersion === 'http2' || httpVersion === 'auto',
      http2Only: httpVersion === 'http2',
      verifyTls: options.settings.verifyTls,
      followRedirects: options.settings.followRedirects,
      maxRedirects: options.settings.maxRedirects,
      ...(clientTls ? { tls } : {}),
      rows: rowsOf(rows, segment),
      segment,
      marker,
      names: perRequest,
      ...(defaults.some((d) => d !== null) ? { defaults } : {}),
    },
  };
}

/** A capture that could never take a value (no variable, no header name, a pattern that does not compile) is refused, not skipped at every answer. */
function checkCapture(capture: WireTarget['captures'][number], at: string): void {
  const variable = capture.variable.trim();
  if (!variable) throw new LoadInputError(`${at}.variable is empty; name the variable the value goes into (later requests use it as {{name}}).`);
  // A name no {{placeholder}} can name (`{{token}}` written with its braces, a line break, spaces
  // around it) would be captured and never sent: the requests would go out with the old value.
  if (variable !== capture.variable || /\{\{|\}\}|[\r\n]/.test(variable)) {
    const bare = variable.replace(/^\{\{\s*|\s*\}\}$/g, '');
    throw new LoadInputError(`${at}.variable: ${JSON.stringify(capture.variable)} is not a name a request can use as {{name}}; write the name alone${/^[^{}\r\n]+$/.test(bare) ? ` (variable: ${bare})` : ', without braces, line breaks or spaces around it'}.`);
  }
  if (capture.from !== 'json' && !capture.path.trim()) {
    throw new LoadInputError(`${at}.path is empty; give the ${capture.from === 'header' ? 'header name to read' : 'regular expression to match in the body'}.`);
  }
  // A header name is a token (RFC 9110): `X-Session: abc` or `x session` would never match.
  if (capture.from === 'header' && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(capture.path.trim())) {
    throw new LoadInputError(`${at}.path: ${JSON.stringify(capture.path)} is not a header name; give the name alone (for example path: x-session).`);
  }
  if (capture.from === 'regex') {
    try {
      new RegExp(capture.path);
    } catch (error) {
      throw new LoadInputError(`${at}.path: "${capture.path}" is not a valid regular expression (${(error as Error).message}).`);
    }
  }
}

/**
 * A segment whose stripe of the whole is empty (3 segments of a 2-user test) sends nothing, as
 * k6's execution segments without work do: said, so an idle part is not mistaken for a broken one.
 */
function idleSegment(stages: readonly Stage[], model: LoadTestFile['model'], segment: Segment | undefined): { idleSegment?: string } {
  if (!segment || segment.count === 1) return {};
  const whole = wholeCount(stages, model);
  if (whole > segment.index) return {};
  const what = model === 'arrivalRate' ? [`${whole} request${whole === 1 ? '' : 's'} in all`, 'request k'] : [`at most ${whole} user${whole === 1 ? '' : 's'}`, 'user u'];
  return { idleSegment: `segment ${segment.index + 1}/${segment.count} sends nothing: the stages ask for ${what[0]}, and ${what[1]} goes to segment ${what[1]!.slice(-1)} mod ${segment.count} + 1; split the test into at most ${Math.max(1, whole)} segments.` };
}

/**
 * A limit no measurement can cross: every metric is 0 or more and errorRate at most 100 (%), so
 * such a rule passes always or never, whatever the service does. k6 users write the error rate
 * as a fraction (`rate<0.01`); above 100 it is surely not a percent.
 */
function limitProblem(metric: LoadTestFile['thresholds'][number]['metric'], value: number): string | undefined {
  if (value < 0) return `${value} is below 0, and ${metric} never is, so the rule would pass always or never; give a limit of 0 or more.`;
  if (metric === 'errorRate' && value > 100) return `${value} is above 100, and errorRate is a percent (0 to 100), so the rule would pass always or never; write 1 for 1% (k6's rate<0.01 is errorRate < 1 here).`;
  return undefined;
}

/**
 * The request path a threshold's target names (the one its result carries): found as the targets'
 * requests are found; for a target not sent, the target as the file lists it.
 */
function normalizeTarget(target: string, found: Array<{ target: { request: string }; hit: { node: { path: string } } }>, listed: ReadonlyMap<string, string>): string {
  const lower = loadTargetPath(target).toLowerCase();
  return (found.find((f) => f.target.request === target) ?? found.find((f) => f.hit.node.path.toLowerCase() === lower))?.hit.node.path ?? listed.get(lower) ?? loadTargetPath(target);
}

async function wireTarget(prepared: PreparedRequest, request: string, weight: number, captures: WireTarget['captures'], marker: string): Promise<WireTarget> {
  // A signing auth type: the request before signing, signed afresh at each send.
  const from = prepared.signEachSend ?? prepared;
  const headers: Array<[string, string]> = from.headers.map((h) => [h.name, h.value]);
  let body: WireTarget['body'];
  if (from.body.kind === 'bytes') {
    const text = from.body.isText ? Buffer.from(from.body.bytes).toString('utf8') : undefined;
    body = text !== undefined && text.includes(marker) ? text : from.body.bytes;
  } else if (from.body.kind === 'multipart') {
    // Built once into bytes (files read now, never through a link) by the encoder sends use: the same body for every request.
    let encoded: { body: Buffer; contentType: string };
    try {
      encoded = await encodeMultipart(from.body.parts);
    } catch (error) {
      if (error instanceof SendError) throw new LoadInputError(`requests/${request}: ${error.message}`);
      throw error;
    }
    body = new Uint8Array(encoded.body);
    const typed = withMultipartType(headers, encoded.contentType);
    headers.length = 0;
    headers.push(...typed);
  }
  // The User-Agent and Accept a run of the request sends (spec 4.7). No Accept-Encoding, as k6:
  // a load test asks for compressed answers only when the request does.
  headers.push(...defaultHeaders(headers, { decompress: false }));
  const sign = prepared.signEachSend && {
    ...prepared.signEachSend.signing,
    bodySource: from.body.kind === 'bytes' ? from.body.source : 'binary',
    bodyIsText: from.body.kind === 'bytes' && from.body.isText,
    added: prepared.signEachHop?.added ?? [],
  };
  const credentialHeaders = prepared.credentialHeaders;
  return { request, weight, method: prepared.method, url: from.url, headers, ...(body !== undefined ? { body } : {}), captures, ...(sign ? { sign } : {}), ...(credentialHeaders?.length ? { credentialHeaders } : {}) };
}
