/** Code export of GraphQL requests (spec 4.7, issue 25): a subscription's code says it is one; queries get no such note. */
import { describe, expect, it } from 'vitest';
import { exportSavedRequest } from '../../src/codegen/export-saved.js';
import { openedWorkspace } from '../runner/workspace.js';

const graphqlRequest = (name: string, graphql: Record<string, unknown>) => ({ name, method: 'POST', url: 'http://127.0.0.1:4000/graphql', body: { type: 'graphql', graphql } });

describe('exporting GraphQL requests as code', () => {
  it('says in a comment that a subscription is one, naming its transport', async () => {
    const { ws } = await openedWorkspace({
      'requests/sub.yaml': graphqlRequest('sub', { query: 'subscription { count(to: 3) }', transport: 'sse' }),
      'requests/legacy.yaml': graphqlRequest('legacy', { query: 'query Q { a }\nsubscription S { b }', operationName: 'S', transport: 'websocketLegacy' }),
      'requests/query.yaml': graphqlRequest('query', { query: 'query Q { a }\nsubscription S { b }', operationName: 'Q', transport: 'websocket' }),
      'requests/broken.yaml': graphqlRequest('broken', { query: 'subscription {', transport: 'websocket' }),
    });
    const sub = (await exportSavedRequest(ws, 'sub.yaml', { lang: 'curl', lib: 'bash' })).code;
    expect(sub).toMatch(/# GraphQL subscription: Ferry subscribes over GraphQL over SSE instead of POSTing;/);
    const legacy = (await exportSavedRequest(ws, 'legacy.yaml', { lang: 'python' })).code;
    expect(legacy).toMatch(/# GraphQL subscription: Ferry subscribes over WebSocket \(subscriptions-transport-ws\)/);
    const query = (await exportSavedRequest(ws, 'query.yaml', { lang: 'curl', lib: 'bash' })).code;
    expect(query).not.toMatch(/subscription:/i);
    expect(query).toContain('"operationName":"Q"');
    // A query that does not parse is exported as written, without the note.
    const broken = (await exportSavedRequest(ws, 'broken.yaml', { lang: 'curl', lib: 'bash' })).code;
    expect(broken).toContain('subscription {');
    expect(broken).not.toMatch(/Ferry subscribes/);
  });
});
