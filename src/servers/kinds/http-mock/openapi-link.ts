/**
 * The mock API's link to its OpenAPI document (`http.openapi`, Ferry's addition, issue 22): each
 * route that stands for an operation (same method, same path shape) gets the operation's request
 * check and its documented answers for `Prefer`. Routes added by hand that match no operation
 * answer as usual. Compiled with the rest of the settings, so a request pays only for its check.
 */
import { segmentParts, type MockRoute } from '../../../model/index.js';
import { findResponseKey, documentedStatuses, loadDocumentSync, RequestValidator, SchemaChecker, type LoadedDocument } from '../../../contract/index.js';
import { DocumentedAnswers, type FoundOperation, type OpenApiDocument } from '../../../openapi-document/index.js';
import { ServerError } from '../../errors.js';
import type { HeaderValues } from '../../http-types.js';
import { problemAnswer, type ProblemAnswer } from './problem.js';
import type { MockPreference } from './prefer.js';

export interface MockOpenApiSection {
  spec: string;
  validateRequests: boolean;
}

export interface LinkedAnswer {
  status: number;
  headers: HeaderValues;
  body: Buffer;
}

/** One route's operation. */
export class RouteOperation {
  /** Route parameter name → the document's name, where they differ (`:id` for `{petId}`). */
  private readonly documentNames: Map<string, string>;
  private readonly answers = new Map<string, LinkedAnswer | ProblemAnswer>();

  constructor(
    readonly operation: string,
    private readonly found: FoundOperation,
    private readonly documented: DocumentedAnswers,
    /** Absent when requests are not validated. */
    readonly validator: RequestValidator | undefined,
    routeParams: readonly string[],
  ) {
    const documentParams = [...found.documentPath.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1]!);
    this.documentNames = new Map(routeParams.map((name, index) => [documentParams[index] ?? name, name]));
  }

  /** The route's parameter holding the document's path parameter `name`. */
  routeParam(name: string): string {
    return this.documentNames.get(name) ?? name;
  }

  /**
   * The answer a `Prefer` asks for: the documented response of `code` (exact, its range, then
   * `default`, as the contract check looks statuses up), else the route's own status; with
   * `example`, that named example. A 400 problem when the document has no such response.
   */
  preferred(preference: MockPreference, routeStatus: number): LinkedAnswer | ProblemAnswer {
    const status = preference.code ?? routeStatus;
    const cacheKey = `${status}\0${preference.example ?? ''}`;
    const cached = this.answers.get(cacheKey);
    if (cached !== undefined) return cached;
    const made = this.make(status, preference);
    // Only documented answers are kept: what a client asks for cannot grow the cache without bound.
    if (made.documented) this.answers.set(cacheKey, made.answer);
    return made.answer;
  }

  private make(status: number, preference: MockPreference): { documented: boolean; answer: LinkedAnswer | ProblemAnswer } {
    const refuse = (answer: ProblemAnswer) => ({ documented: false, answer });
    const key = findResponseKey(this.found.responses, status);
    if (key === undefined) {
      return refuse(problemAnswer(400, 'Bad Request', `Prefer asks for code=${status}, which the API spec does not document for ${this.operation}; documented: ${documentedStatuses(this.found.responses).join(', ')}.`, { operation: this.operation }));
    }
    const answer = this.documented.answer(this.found.operation, key, status, preference.example);
    if (answer === undefined) {
      const names = this.documented.exampleNames(this.found.operation, key);
      return refuse(problemAnswer(400, 'Bad Request', `Prefer asks for example=${preference.example}, which the ${key} response of ${this.operation} does not have; its examples: ${names.length > 0 ? names.join(', ') : 'none'}.`, { operation: this.operation }));
    }
    const body = Buffer.from(answer.body, 'utf8');
    // The document's header names as it spells them (compared without case), as Prism sends them.
    const headers: HeaderValues = {};
    const typed = answer.mediaType !== undefined && body.length > 0;
    const spelled = new Map<string, string>();
    for (const [name, value] of answer.headers) {
      const lower = name.toLowerCase();
      if (lower === 'content-length' || (typed && lower === 'content-type')) continue;
      let key = spelled.get(lower);
      if (key === undefined) spelled.set(lower, (key = name));
      headers[key] = value;
    }
    if (typed) headers['Content-Type'] = answer.mediaType!;
    headers['Content-Length'] = String(body.length);
    return { documented: true, answer: { status, headers, body: status === 204 || status === 304 ? Buffer.alloc(0) : body } };
  }
}

/** The document and the per-route links of one configuration of the server. */
export class MockOpenApiLink {
  private readonly document: OpenApiDocument;
  private readonly documented: DocumentedAnswers;
  private readonly checker: SchemaChecker;

  constructor(
    loaded: LoadedDocument,
    private readonly validate: boolean,
  ) {
    this.document = loaded.document;
    this.documented = new DocumentedAnswers(this.document);
    this.checker = new SchemaChecker(this.document, undefined, 'request');
  }

  /** The operation a route stands for, or undefined (a route added by hand, or `*` method). */
  forRoute(route: MockRoute): RouteOperation | undefined {
    const method = route.method.trim().toUpperCase();
    if (method === '' || method === '*') return undefined;
    const segments = route.path.split('/');
    const routeParams: string[] = [];
    const template = segments
      .map((segment) => {
        const parts = segmentParts(segment);
        if (parts === undefined) return segment;
        return parts.map((part) => (typeof part === 'string' ? part : (routeParams.push(part.param), `{${part.param}}`))).join('');
      })
      .join('/');
    if (template.includes('*')) return undefined;
    const operation = `${method} ${template}`;
    const found = this.document.findOperation(operation) ?? this.document.findOperation(`${method} ${template.replace(/\/$/, '')}`);
    if (found === undefined) return undefined;
    const validator = this.validate ? new RequestValidator(this.document, this.checker, found) : undefined;
    return new RouteOperation(`${found.method} ${found.documentPath}`, found, this.documented, validator, routeParams);
  }
}

/** Reads the linked document when the server starts or its file changes; a document that cannot be read stops the server. */
export function linkOpenApi(section: MockOpenApiSection | undefined, root: string | undefined, file: string): MockOpenApiLink | undefined {
  if (section === undefined || section.spec.trim() === '') return undefined;
  if (root === undefined) throw new ServerError(`${file}: http.openapi.spec: the workspace folder is not known, so ${section.spec} cannot be read.`);
  const load = loadDocumentSync(root, section.spec);
  if (!load.ok) throw new ServerError(`${file}: http.openapi.spec: ${load.reason}.`);
  return new MockOpenApiLink(load.loaded, section.validateRequests);
}
