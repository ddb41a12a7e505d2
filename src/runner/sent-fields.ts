/**
 * A request's body and auth as sent, for post-response scripts: in Newman `pm.request` after the
 * send is the request resolved, so a form's keys and values (switched-off rows too), a GraphQL
 * body's query and variables and the auth's settings have their `{{variables}}` filled. Rows that
 * went on the wire are read from what was sent (a `{{$guid}}` keeps the value the server got);
 * the others are filled with the send's variables.
 */
import type { Auth, Body, KeyValue, MultipartPart } from '../model/index.js';
import type { PreparedRequest } from '../request/index.js';

type Fill = (text: string) => string;

/** The body with its form rows or GraphQL fields filled; other types (a raw body is read apart) as written. */
export function filledBody(body: Body, prepared: PreparedRequest, fill: Fill): Body {
  const sent = prepared.body;
  switch (body.type) {
    case 'formUrlencoded': {
      const pairs = sent.kind === 'bytes' && sent.source === 'formUrlencoded' ? [...new URLSearchParams(Buffer.from(sent.bytes).toString('utf8'))] : [];
      return { ...body, form: filledRows(body.form, pairs.map(([key, value]) => ({ key, value })), fill) };
    }
    case 'multipart': {
      const parts = sent.kind === 'multipart' ? sent.parts.map((part) => ({ key: part.name, value: part.file ? part.file.path : (part.value ?? '') })) : [];
      return { ...body, multipart: filledRows(body.multipart, parts, fill) };
    }
    case 'graphql': {
      if (!body.graphql) return body;
      const query = sent.kind === 'bytes' && sent.source === 'graphql' ? sentQuery(Buffer.from(sent.bytes).toString('utf8')) : undefined;
      return { ...body, graphql: { ...body.graphql, query: query ?? fill(body.graphql.query), variables: fill(body.graphql.variables), operationName: fill(body.graphql.operationName) } };
    }
    default:
      return body;
  }
}

/**
 * Each row filled: the rows preparation sent (enabled, with a key) take the sent pairs in order;
 * the others, and all of them should the counts differ, are filled here.
 */
function filledRows<Row extends KeyValue | MultipartPart>(rows: readonly Row[], sent: readonly { key: string; value: string }[], fill: Fill): Row[] {
  const wasSent = (row: Row) => row.enabled !== false && row.key !== '';
  const matches = rows.filter(wasSent).length === sent.length;
  let next = 0;
  return rows.map((row) => {
    if (matches && wasSent(row)) {
      const pair = sent[next++]!;
      return { ...row, key: pair.key, value: pair.value };
    }
    return { ...row, key: fill(row.key), value: fill(row.value) };
  });
}

function sentQuery(json: string): string | undefined {
  try {
    const query = (JSON.parse(json) as { query?: unknown }).query;
    return typeof query === 'string' ? query : undefined;
  } catch {
    return undefined;
  }
}

/** The auth with its text settings filled (`type` and an inherited auth as written). */
export function filledAuth(auth: Auth, fill: Fill): Auth {
  if (auth.type === 'inherit' || auth.type === 'none') return auth;
  const out: Auth = { type: auth.type };
  for (const [key, value] of Object.entries(auth)) {
    if (key === 'type') continue;
    Object.defineProperty(out, key, { value: typeof value === 'string' ? fill(value) : value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
