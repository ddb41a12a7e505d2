/**
 * GraphQL schema introspection for the query editor (issue 26): the editor's request sent with
 * the standard introspection query in place of its own (same URL, headers, auth and settings, its
 * own scripts left out), through the session as any send. Kept per URL (as written) until the
 * user refreshes, so completion and the documentation explorer do not ask the server each time.
 */
import type { RequestFile } from '../../model/index.js';
import type { Session } from '../../session/index.js';
import { ApiError } from './router.js';

export interface IntrospectedSchema {
  url: string;
  fetchedAt: string;
  /** The introspection result's `data` (`{ __schema }`), for graphql-js `buildClientSchema`. */
  introspection: Record<string, unknown>;
}

const KEPT_URLS = 50;

export class SchemaCache {
  private readonly byUrl = new Map<string, IntrospectedSchema>();

  async get(session: Session, request: RequestFile, path: string, refresh: boolean, signal?: AbortSignal): Promise<IntrospectedSchema> {
    const url = request.url.trim();
    if (url === '') throw new ApiError(400, 'The request has no URL: give the GraphQL endpoint to read its schema.');
    const kept = this.byUrl.get(url);
    if (kept && !refresh) return kept;
    // graphql-js is loaded the first time a schema is read, not when the app starts.
    const { getIntrospectionQuery } = await import('graphql');
    const asked: RequestFile = {
      ...request,
      method: 'POST',
      scripts: undefined,
      body: { ...request.body, type: 'graphql', graphql: { query: getIntrospectionQuery(), variables: '', operationName: 'IntrospectionQuery' } },
    };
    const { result, response } = await session.exchange({ request: asked, path }, { signal });
    if (!response) throw new ApiError(400, `The schema of ${url} could not be read: ${(result.error ?? 'no answer').replace(/\.+$/, '')}.`);
    const text = Buffer.from(response.body).toString('utf8');
    let answer: { data?: { __schema?: unknown }; errors?: Array<{ message?: string }> };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      throw new ApiError(400, `${url} did not answer the introspection query with JSON (status ${response.outcome.status}); is it a GraphQL endpoint?`);
    }
    if (!answer?.data?.__schema) {
      const why = answer?.errors?.[0]?.message;
      throw new ApiError(400, `${url} gave no schema${why ? `: ${why}` : ` (status ${response.outcome.status})`}; the server may have introspection turned off.`);
    }
    const schema = { url, fetchedAt: new Date().toISOString(), introspection: answer.data as Record<string, unknown> };
    this.byUrl.delete(url);
    this.byUrl.set(url, schema);
    if (this.byUrl.size > KEPT_URLS) this.byUrl.delete(this.byUrl.keys().next().value!);
    return schema;
  }
}
