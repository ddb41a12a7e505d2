/**
 * Which operation a GraphQL body runs (spec 2.5): its query is parsed with the `graphql` package
 * and the operation picked by `operationName` (or the only one), so a subscription is known by
 * its definition, never guessed from the text. `graphql` is imported here, on first use.
 */
import type { PreparedRequest, PreparedSubscription } from '../../../request/prepared.js';
import { SendError } from '../../send-error.js';

export type OperationType = 'query' | 'mutation' | 'subscription';

/** What a GraphQL body sends: the JSON object of spec 2.5, as Ferry POSTs it. */
export interface GraphqlPayload {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | null;
}

export interface GraphqlOperation {
  type: OperationType;
  payload: GraphqlPayload;
  /** The body's subscription fields, filled. */
  subscription: PreparedSubscription;
}

/**
 * The operation of a prepared GraphQL body, or undefined for other bodies and for queries the
 * server is left to judge: one that does not parse (without a `transport` chosen), several
 * operations without `operationName`, or a name that matches none.
 * Throws a SendError with line and column when the query does not parse and `transport` says
 * the request is meant as a subscription.
 */
export async function graphqlOperation(prepared: PreparedRequest): Promise<GraphqlOperation | undefined> {
  const body = prepared.body;
  if (body.kind !== 'bytes' || body.source !== 'graphql' || !body.subscription) return undefined;
  const payload = JSON.parse(Buffer.from(body.bytes).toString('utf8')) as GraphqlPayload;
  const { parse, GraphQLError } = await import('graphql');
  let document;
  try {
    document = parse(payload.query, { noLocation: true });
  } catch (error) {
    if (!body.subscription.transport || !(error instanceof GraphQLError)) return undefined;
    throw parseError(error);
  }
  const operations = document.definitions.filter((d) => d.kind === 'OperationDefinition');
  const chosen = payload.operationName ? operations.find((o) => o.name?.value === payload.operationName) : operations.length === 1 ? operations[0] : undefined;
  return chosen ? { type: chosen.operation as OperationType, payload, subscription: body.subscription } : undefined;
}

/** `Syntax Error: Expected Name, found "}".` at its line and column. */
function parseError(error: { message: string; locations?: readonly { line: number; column: number }[] }): SendError {
  const at = error.locations?.[0];
  const where = at ? ` at line ${at.line}, column ${at.column}` : '';
  return new SendError(`the GraphQL query does not parse${where}: ${error.message} Fix body.graphql.query.`, 'invalid');
}
