/** Builders shared by the contract tests: small documents in each dialect, and responses. */
import { checkResponse, documentFromValue, type ContractResponse, type ContractTestResult, type Dialect, type LoadedDocument } from '../../src/contract/index.js';

export const DIALECTS: Dialect[] = ['oas30', 'oas31', 'swagger2'];

const encoder = new TextEncoder();

/** Rewrites `#/components/schemas/` references for Swagger 2.0's `#/definitions/`. */
function forSwagger(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forSwagger);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', '#/definitions/') : forSwagger(inner),
      ]),
    );
  }
  return value;
}

/** A document with one operation, `GET /things`, whose `200` response has `schema` as its JSON body. */
export function documentWithSchema(dialect: Dialect, schema: unknown, schemas: Record<string, unknown> = {}): Record<string, unknown> {
  if (dialect === 'swagger2') {
    return {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      paths: { '/things': { get: { responses: { '200': { description: 'ok', schema: forSwagger(schema) } } } } },
      definitions: forSwagger(schemas),
    };
  }
  return {
    openapi: dialect === 'oas30' ? '3.0.3' : '3.1.0',
    info: { title: 'T', version: '1' },
    paths: { '/things': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
    components: { schemas },
  };
}

export function load(document: unknown): LoadedDocument {
  const result = documentFromValue(document, 'the test document');
  if (!result.ok) throw new Error(result.reason);
  return result.loaded;
}

export function jsonResponse(body: string | unknown, status = 200, contentType = 'application/json'): ContractResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: [['Content-Type', contentType]], body: encoder.encode(text) };
}

export function textResponse(text: string, status: number, headers: ContractResponse['headers']): ContractResponse {
  return { status, headers, body: encoder.encode(text) };
}

/** A body given as JSON text exactly as sent (e.g. `3.0`), rather than as a value to serialize. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Runs the check of `GET /things` and returns the problems (empty when it passes). */
export function problemsFor(dialect: Dialect, schema: unknown, body: unknown, schemas: Record<string, unknown> = {}): string[] {
  const text = body instanceof RawJson ? body.text : JSON.stringify(body);
  const result = checkResponse(load(documentWithSchema(dialect, schema, schemas)), 'GET /things', jsonResponse(text));
  return problemLines(result);
}

export function problemLines(result: ContractTestResult | null): string[] {
  if (result === null) throw new Error('the check was left out');
  if (result.passed) return [];
  return (result.message ?? '').split('\n');
}
