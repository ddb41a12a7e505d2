/**
 * `ferry import DOC --as-server`: a mock API server file from a document (issue 22). One route
 * per operation (`{param}` paths as `:param`), answering with the first 2xx response's example
 * (media-type `example`, then `examples`, then generated from the schema), its documented
 * headers and its Content-Type; literal paths ordered before parameters. Pure: the same
 * document gives the same routes, which `ferry update` relies on for its three-way rule.
 */
import {
  DocumentedAnswers, defaultResponseKey, isObject, OpenApiDocument, statusForKey, type JsonObject, type SpecVersionInfo,
} from '../../openapi-document/index.js';
import type { z } from 'zod';
import { segmentParts, type RouteSchema } from '../../model/index.js';
import { cleanName, requestName } from './names.js';
import { listOperations } from './operations.js';
import { orderRoutes } from './route-order.js';

/** A route as written to the server file (model input shape: defaults may be left out). */
export type GeneratedRoute = z.input<RouteSchema> & { method: string; path: string };

export interface GeneratedMock {
  title: string;
  routes: GeneratedRoute[];
  /** Routes whose body was generated from the schema (the document gives no example). */
  generatedBodies: ReadonlySet<GeneratedRoute>;
  notes: string[];
}

export function buildMockRoutes(root: JsonObject, info: SpecVersionInfo): GeneratedMock {
  const document = new OpenApiDocument(root, info.version);
  const answers = new DocumentedAnswers(document);
  const notes: string[] = [];
  const title = cleanName(isRecord(root.info) ? root.info.title : undefined) ?? 'API';
  const { operations, skipped } = listOperations(root, document.refs);
  if (skipped > 0) notes.push(`The document has ${operations.length + skipped} operations; the mock got routes for the first ${operations.length}.`);
  const generated: GeneratedRoute[] = [];
  const generatedBodies = new Set<GeneratedRoute>();
  for (const op of operations) {
    const path = routePath(op.path);
    const responses = document.followRefs(op.operation.responses);
    const key = isObject(responses) ? defaultResponseKey(responses) : undefined;
    const answer = key === undefined ? undefined : answers.answer(op.operation, key, statusForKey(key));
    const headers: { key: string; value: string }[] = [];
    if (answer?.mediaType !== undefined && answer.body !== '') headers.push({ key: 'Content-Type', value: answer.mediaType });
    for (const [name, value] of answer?.headers ?? []) headers.push({ key: name, value });
    const status = answer?.status ?? 200;
    const route: GeneratedRoute = {
      name: requestName(op.operation, op.method, op.path),
      method: op.method,
      path,
      ...(status !== 200 ? { status } : {}),
      ...(headers.length > 0 ? { headers } : {}),
      ...(answer !== undefined && answer.body !== '' ? { body: answer.body } : {}),
    };
    generated.push(route);
    if (answer?.generated) generatedBodies.add(route);
  }
  if (operations.length === 0) notes.push('The document has no operations: the mock has no routes.');
  return { title, routes: orderRoutes(generated), generatedBodies, notes };
}

/** `/pets/{petId}` → `/pets/:petId`; a parameter with text around it in its segment stays as written (`{Sid}.json`), which routes match too. */
export function routePath(template: string): string {
  return template
    .split('/')
    .map((segment) => (/^\{[^{}/]+\}$/.test(segment) ? `:${segment.slice(1, -1)}` : segment))
    .join('/');
}

/** `/pets/:petId` → `/pets/{}`, `/calls/{Sid}.json` → `/calls/{}.json`: the shape an operation path and a route path share. */
export function pathShape(path: string): string {
  return path
    .split('/')
    .map((segment) => segmentParts(segment)?.map((part) => (typeof part === 'string' ? part : '{}')).join('') ?? segment)
    .join('/');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
