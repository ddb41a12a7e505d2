/**
 * The GraphQL schemas read by introspection in this page, per request URL: the schema panel puts
 * them here and the query editor takes them for completion and inline lint (issue 26). Only the
 * type is imported, so graphql-js stays out of the page's first bundle.
 */
import { useSyncExternalStore } from 'react';
import type { GraphQLSchema } from 'graphql';

const byUrl = new Map<string, GraphQLSchema>();
const listeners = new Set<() => void>();

export function keepGraphqlSchema(url: string, schema: GraphQLSchema): void {
  byUrl.set(url.trim(), schema);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The schema last read for `url`, or undefined until the panel reads one. */
export function useGraphqlSchema(url: string): GraphQLSchema | undefined {
  return useSyncExternalStore(subscribe, () => byUrl.get(url.trim()));
}
