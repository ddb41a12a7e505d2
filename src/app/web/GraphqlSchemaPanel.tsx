/**
 * The GraphQL schema of a request with a GraphQL body (issue 26): read by introspection through
 * the app (kept per URL; Refresh asks again), the query checked against it (errors listed with
 * their line), and a documentation explorer of its types, fields and arguments.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { buildClientSchema, getNamedType, isInputObjectType, isInterfaceType, isObjectType, parse, validate, type GraphQLNamedType, type GraphQLSchema, type GraphQLType, type IntrospectionQuery } from 'graphql';
import type { RequestFile } from '../shared/api.js';
import { api } from './api.js';
import { keepGraphqlSchema } from './graphql-schemas.js';

interface Props {
  request: RequestFile;
  path: string;
}

export function GraphqlSchemaPanel({ request, path }: Props) {
  const [schema, setSchema] = useState<GraphQLSchema | null>(null);
  const [fetchedAt, setFetchedAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [typeName, setTypeName] = useState<string | null>(null);
  // The schema being read: its answer belongs to the URL it was read for.
  const reading = useRef<AbortController | null>(null);
  // Another URL (another request shown), another schema: one still being read is stopped (the
  // server stops too), and its schema or failure is not shown for this URL.
  useEffect(() => {
    reading.current?.abort();
    reading.current = null;
    setSchema(null);
    setTypeName(null);
    setError(null);
    setLoading(false);
  }, [request.url]);
  useEffect(() => () => reading.current?.abort(), []);
  const query = request.body.graphql?.query ?? '';
  const problems = useMemo(() => {
    if (!schema || query.trim() === '') return [];
    try {
      return validate(schema, parse(query)).map((e) => `${e.locations?.[0] ? `line ${e.locations[0].line}: ` : ''}${e.message}`);
    } catch (e) {
      return [String((e as Error).message)];
    }
  }, [schema, query]);
  if (request.body.type !== 'graphql') return null;

  const load = async (refresh: boolean) => {
    reading.current?.abort();
    const asking = new AbortController();
    reading.current = asking;
    setLoading(true);
    setError(null);
    try {
      const answer = await api.post<{ fetchedAt: string; introspection: IntrospectionQuery }>('/api/graphql/schema', { path, request, refresh }, asking.signal);
      const built = buildClientSchema(answer.introspection);
      // Kept for its URL (the editor's completion) even when another request is shown by now.
      keepGraphqlSchema(request.url, built);
      if (asking.signal.aborted) return;
      setSchema(built);
      setFetchedAt(answer.fetchedAt);
    } catch (e) {
      if (!asking.signal.aborted) setError((e as Error).message);
    } finally {
      if (reading.current === asking) {
        reading.current = null;
        setLoading(false);
      }
    }
  };
  const types = schema ? Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__')) : [];
  const shown: GraphQLNamedType | undefined = typeName ? schema?.getType(typeName) ?? undefined : undefined;
  return (
    <section className="catalog" aria-label="GraphQL schema">
      <div className="catalog-head">
        <button onClick={() => void load(schema !== null)} disabled={loading}>{loading ? 'Reading schema…' : schema ? 'Refresh schema' : 'Read schema'}</button>
        {schema && <span className="muted">{types.length} types, read {new Date(fetchedAt).toLocaleTimeString()}</span>}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {schema && (
        <ul className="tests" aria-label="Query problems">
          {problems.length === 0 ? <li className="pass">The query fits the schema.</li> : problems.map((p, i) => <li key={i} className="fail">{p}</li>)}
        </ul>
      )}
      {schema && (
        <div className="catalog-list" aria-label="Documentation">
          {shown ? (
            <>
              <button onClick={() => setTypeName(null)}>← All types</button>
              <h4>{shown.name}</h4>
              {shown.description && <p className="muted">{shown.description}</p>}
              {(isObjectType(shown) || isInterfaceType(shown) || isInputObjectType(shown)) && (
                <ul>
                  {Object.values(shown.getFields() as Record<string, { name: string; type: GraphQLType; description?: string | null; args?: ReadonlyArray<{ name: string; type: GraphQLType }> }>).map((f) => (
                    <li key={f.name}>
                      <code>{f.name}</code>
                      {f.args && f.args.length > 0 && <code>({f.args.map((a) => `${a.name}: ${String(a.type)}`).join(', ')})</code>}
                      {': '}
                      <button className="link" onClick={() => setTypeName(getNamedType(f.type)?.name ?? null)}>{String(f.type)}</button>
                      {f.description && <small className="muted"> {f.description}</small>}
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <ul>
              {types.map((t) => <li key={t.name}><button className="link" onClick={() => setTypeName(t.name)}>{t.name}</button></li>)}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
