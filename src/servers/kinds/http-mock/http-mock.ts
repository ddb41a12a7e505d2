/**
 * The HTTP mock API (spec 2.11 `http`, 7, 8.2): routes tried in order, the first enabled match
 * answers, with its templated status line, headers and body, after `delayMs`, or with its fault.
 * Unmatched requests get 404 or go to the backend. Everything that can be prepared is prepared in
 * `configure`; a request costs one match and one rendering.
 */
import { performance } from 'node:perf_hooks';
import { kindSection, type MockRoute, type ServerFile } from '../../../model/index.js';
import { compile, type RenderContext, RequestValues, type VariableScope } from '../../../template/index.js';
import { ServerError } from '../../errors.js';
import { type AnyRequest, type AnyResponse, answerable, destroyConnection, firstHeader, forgetStatusMessage, type HeaderValues, mayHaveBody } from '../../http-types.js';
import { type HttpExchangeDetail, type HttpExchangeNote, httpExchangeRecord } from '../../http-traffic.js';
import { addCors, isPreflight, preflightHeaders } from './cors.js';
import type { HttpKindInstance, KindContext, KindSettings, ServerKindModule } from '../kind.js';
import { checkWait } from '../wait.js';
import { compileAnswer, type CompiledAnswer } from './mock-answer.js';
import { forward, parseBackendUrl } from './proxy.js';
import { BodyTooLarge, MAX_MOCK_REQUEST_BYTES, readBody } from './read-body.js';
import { compileConditions, RequestFacts, type RouteConditions } from './route-matcher.js';
import { linkOpenApi, type RouteOperation } from './openapi-link.js';
import { readPrefer } from './prefer.js';
import { invalidRequestAnswer } from './problem.js';
import { contractMessages } from '../../../contract/index.js';
import { PendingTimers } from '../pending-timers.js';
import { notFoundText } from './not-found.js';

interface CompiledRoute {
  label: string;
  conditions: RouteConditions;
  answer: CompiledAnswer;
  delayMs: number;
  fault: MockRoute['fault'];
  faultPercent: number;
  status: number;
  /** The operation the route stands for, when the server links an OpenAPI document. */
  openapi: RouteOperation | undefined;
}

interface MockState {
  name: string;
  routes: CompiledRoute[];
  /** Some route matches or templates on the body: read it before matching. */
  needsBody: boolean;
  cors: boolean;
  /** The rendered backend, for `fallback: proxy`. */
  backend: URL | undefined;
  variables: VariableScope;
  /** The rendering context of answers that read nothing from the request (shared: rendering only reads it). */
  context: RenderContext;
}

/** Headers HTTP/2 forbids (they describe one HTTP/1.1 connection). */
const HTTP1_ONLY = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/**
 * An answer's headers for HTTP/2, where names are lower case on the wire: a copy with lowered
 * names (so a route's `Keep-Alive`, in any case, is found and left out; Node refuses the answer
 * with it).
 */
function http2Headers(shared: HeaderValues): HeaderValues {
  const headers: HeaderValues = {};
  for (const name in shared) {
    const lower = name.toLowerCase();
    if (!HTTP1_ONLY.has(lower)) headers[lower] = shared[name]!;
  }
  return headers;
}

export function compileMock(server: ServerFile, variables: VariableScope, file: string, root?: string): MockState {
  const section = kindSection(server, 'http');
  const link = linkOpenApi(section.openapi, root, file);
  const routes: CompiledRoute[] = [];
  section.routes.forEach((route, index) => {
    if (route.enabled === false) return;
    if (!route.path.startsWith('/')) throw new ServerError(`${file}: http.routes[${index}].path: "${route.path}" must start with /.`);
    checkWait(route.delayMs, `http.routes[${index}].delayMs`, file);
    if (route.status < 200) {
      // An interim answer: the client would wait for a final one that never comes.
      throw new ServerError(`${file}: http.routes[${index}].status: ${route.status} is an interim status (1xx) that cannot end a request; give 200 to 999.`);
    }
    const answer = compileAnswer(route);
    routes.push({
      label: route.name.trim() !== '' ? route.name : `${route.method} ${route.path}`,
      conditions: compileConditions(route),
      answer,
      delayMs: route.delayMs,
      fault: route.fault,
      faultPercent: route.faultPercent,
      status: route.status,
      openapi: link?.forRoute(route),
    });
  });
  let backend: URL | undefined;
  if (section.fallback === 'proxy') {
    const parsed = parseBackendUrl(compile(section.proxyUrl ?? '', 'mock.backendUrl').render({ variables }));
    if (typeof parsed === 'string') throw new ServerError(`${file}: http.proxyUrl: ${parsed} (fallback is proxy).`);
    backend = parsed;
  }
  return {
    name: server.name,
    routes,
    needsBody: routes.some((r) => r.conditions.needsBody || r.answer.usesBody || r.openapi?.validator?.needsBody === true),
    cors: section.cors,
    backend,
    variables,
    context: { variables },
  };
}

class HttpMock implements HttpKindInstance {
  #state: MockState | undefined;
  readonly #timers = new PendingTimers();
  /** `close` was called: the listener is closing the connections still open. */
  #closing = false;

  constructor(private readonly context: KindContext) {}

  configure(settings: KindSettings): void {
    this.#state = compileMock(settings.server, settings.variables, this.context.file, this.context.root);
  }

  openStreams(): number {
    return 0;
  }

  close(): void {
    // Requests still waiting (a delay, a hang) are closed with the listener: their records say the
    // server stopped, not that the client left.
    this.#closing = true;
    this.#timers.clear();
  }

  handle(req: AnyRequest, res: AnyResponse): void {
    const start = performance.now();
    const state = this.#state!;
    if (state.needsBody && mayHaveBody(req)) {
      readBody(req).then(
        (body) => this.#dispatch(state, req, res, body, start),
        (error) => {
          if (error instanceof BodyTooLarge) {
            const text = `The request body is over ${MAX_MOCK_REQUEST_BYTES / 1048576} MB, more than a mock route reads.\n`;
            this.#sendText(req, res, state, 413, text, start, '', undefined);
          }
          // otherwise the client went away while sending: nothing to answer
        },
      );
      return;
    }
    this.#dispatch(state, req, res, undefined, start);
  }

  #dispatch(state: MockState, req: AnyRequest, res: AnyResponse, body: Buffer | undefined, start: number): void {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const method = req.method ?? 'GET';
    // Read from the request only when a route has conditions beyond method and path (no closure per request).
    let facts: RequestFacts | undefined;
    const preflight = state.cors && isPreflight(req);
    for (const route of state.routes) {
      const conditions = route.conditions;
      if (preflight && conditions.method !== 'OPTIONS') continue; // only an explicit OPTIONS route takes a preflight
      const params = conditions.matchTarget(method, path);
      if (params === null) continue;
      if (conditions.hasExtra && !conditions.holds((facts ??= new RequestFacts(url, req.rawHeaders, body)), state.variables)) continue;
      if (route.openapi !== undefined) {
        facts ??= new RequestFacts(url, req.rawHeaders, body);
        if (this.#answerFromSpec(state, route, route.openapi, params, req, res, facts, body, start)) return;
      }
      this.#answer(state, route, params, req, res, url, body, start);
      return;
    }
    if (preflight) {
      answerable(res).writeHead(204, preflightHeaders(req));
      answerable(res).end();
      this.#record(req, start, '', 204, 0, body, 'preflight');
      return;
    }
    if (state.backend !== undefined) {
      forward(
        req,
        res,
        state.backend,
        body,
        (outcome) => this.#record(req, start, '', outcome.status, outcome.responseBytes, body, outcome.failed ? 'proxyError' : 'proxy'),
        state.cors ? (headers) => addCors(req, headers) : undefined,
      );
      return;
    }
    const text = notFoundText(state.name, this.context.file, method, path, state.routes);
    this.#sendText(req, res, state, 404, text, start, '', body, 'notFound');
  }

  /**
   * The document's part (Ferry's addition): a request that does not match its operation gets 422
   * with every problem; a `Prefer: code=` / `example=` gets that documented response. Returns
   * false when the route answers as usual.
   */
  #answerFromSpec(
    state: MockState,
    route: CompiledRoute,
    operation: RouteOperation,
    params: Record<string, string>,
    req: AnyRequest,
    res: AnyResponse,
    facts: RequestFacts,
    body: Buffer | undefined,
    start: number,
  ): boolean {
    if (operation.validator !== undefined) {
      const problems = operation.validator.check({
        pathParam: (name) => params[operation.routeParam(name)],
        query: (name) => facts.queryValues(name),
        header: (name) => facts.headerValues(name),
        body,
      });
      if (problems.count > 0) {
        const lines = problems.unlisted > 0 ? [...problems.listed, contractMessages.moreProblems(problems.unlisted)] : problems.listed;
        const answer = invalidRequestAnswer(operation.operation, lines);
        this.#write(req, res, state, answer.status, answer.headers, answer.body);
        this.#record(req, start, route.label, answer.status, answer.body.length, body, 'invalid', lines);
        return true;
      }
    }
    const prefer = facts.headerValues('prefer');
    if (prefer.length === 0) return false;
    const preference = readPrefer(prefer);
    if (preference === undefined) return false;
    const answer = operation.preferred(preference, route.status);
    this.#write(req, res, state, answer.status, answer.headers, answer.body);
    this.#record(req, start, route.label, answer.status, answer.body.length, body, undefined);
    return true;
  }

  #answer(
    state: MockState,
    route: CompiledRoute,
    params: Record<string, string>,
    req: AnyRequest,
    res: AnyResponse,
    url: string,
    body: Buffer | undefined,
    start: number,
  ): void {
    const fault = route.fault !== 'none' && (route.faultPercent >= 100 || Math.random() * 100 < route.faultPercent) ? route.fault : 'none';
    if (route.delayMs <= 0) {
      this.#send(state, route, params, req, res, url, body, start, fault);
      return;
    }
    const onClose = () => {
      this.#timers.cancel(timer);
      this.#record(req, start, route.label, 0, 0, body, this.#closing ? 'stopped' : 'aborted');
    };
    const timer = this.#timers.later(route.delayMs, () => {
      res.off('close', onClose);
      this.#send(state, route, params, req, res, url, body, start, fault);
    });
    res.once('close', onClose);
  }

  #send(
    state: MockState,
    route: CompiledRoute,
    params: Record<string, string>,
    req: AnyRequest,
    res: AnyResponse,
    url: string,
    body: Buffer | undefined,
    start: number,
    fault: MockRoute['fault'],
  ): void {
    switch (fault) {
      case 'error': {
        const text = `Fault injected by Ferry: route "${route.label}" answers 500 (fault: error).\n`;
        this.#sendText(req, res, state, 500, text, start, route.label, body, 'error');
        return;
      }
      case 'reset':
        destroyConnection(req);
        this.#record(req, start, route.label, 0, 0, body, 'reset');
        return;
      case 'hang':
        // Never answered: the connection stays until the client gives up or the server stops.
        res.once('close', () => this.#record(req, start, route.label, 0, 0, body, this.#closing ? 'stopped' : 'hang'));
        return;
    }
    // Request values are one object whose parts are read when a template asks; without them, the
    // route renders with the server's one context.
    const context: RenderContext = route.answer.usesRequest
      ? { variables: state.variables, request: new RequestValues(req.method ?? 'GET', url, req.rawHeaders, body, params) }
      : state.context;
    let answer;
    try {
      answer = route.answer.render(context);
      this.#write(req, res, state, answer.status, answer.headers, answer.body);
    } catch (error) {
      if (answerable(res).headersSent) return;
      forgetStatusMessage(req, res);
      const text = `Ferry could not send the answer of route "${route.label}": ${(error as Error).message}. Check its headers in ${this.context.file}.\n`;
      this.#sendText(req, res, state, 500, text, start, route.label, body, 'error');
      return;
    }
    this.#record(req, start, route.label, answer.status, answer.bodyBytes, body, undefined);
  }

  #write(req: AnyRequest, res: AnyResponse, state: MockState, status: number, shared: HeaderValues, body: string | Buffer): void {
    let headers = shared;
    const http2 = req.httpVersionMajor === 2;
    if (state.cors || http2) {
      // a route's headers are shared between its answers: changed on a copy
      headers = http2 ? http2Headers(shared) : Object.assign({}, shared);
      if (state.cors) addCors(req, headers);
    }
    const out = answerable(res);
    out.writeHead(status, headers);
    out.end(body);
  }

  #sendText(
    req: AnyRequest,
    res: AnyResponse,
    state: MockState,
    status: number,
    text: string,
    start: number,
    route: string,
    body: Buffer | undefined,
    note?: HttpExchangeNote,
  ): void {
    const bytes = Buffer.from(text, 'utf8');
    this.#write(req, res, state, status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(bytes.length) }, bytes);
    this.#record(req, start, route, status, bytes.length, body, note);
  }

  /** One traffic record; positional arguments keep the hot path free of temporary objects. */
  #record(
    req: AnyRequest,
    start: number,
    route: string,
    status: number,
    responseBytes: number,
    body: Buffer | undefined,
    note: HttpExchangeNote | undefined,
    problems?: string[],
  ): void {
    const durationMs = performance.now() - start;
    const detail: HttpExchangeDetail = { method: req.method ?? '', path: req.url ?? '', route, status };
    if (note !== undefined) detail.note = note;
    if (problems !== undefined) detail.problems = problems;
    const requestBytes = body !== undefined ? body.length : Number(firstHeader(req, 'content-length') ?? 0) || 0;
    this.context.traffic.add(httpExchangeRecord('http', this.context.id, start, durationMs, detail, requestBytes, responseBytes));
  }
}

export const httpMockKind: ServerKindModule = {
  kind: 'http',
  transport: 'sharedHttp',
  create: (context) => new HttpMock(context),
};
