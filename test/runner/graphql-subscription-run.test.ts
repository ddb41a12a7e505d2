/**
 * `ferry run -r json` with GraphQL subscriptions against real servers on 127.0.0.1 (graphql-peers.ts):
 * post-response tests over `pm.response.messages`, the JSON report's `stream` and `messages`,
 * `{{variables}}` in connectionParams and subscriptionUrl, the text reporter's stop reason, and a
 * bad connectionParams failing its request with one line while the run goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlSsePeer, graphqlWsPeer, legacyPeer, type GraphqlPeer } from '../protocols/graphql-peers.js';
import { ferry } from '../support/cli.js';
import { makeWorkspace } from './workspace.js';

let wsPeer: GraphqlPeer;
let ssePeer: GraphqlPeer;
let oldPeer: GraphqlPeer;

beforeAll(async () => {
  [wsPeer, ssePeer, oldPeer] = await Promise.all([graphqlWsPeer(), graphqlSsePeer(), legacyPeer()]);
});
afterAll(async () => {
  await Promise.all([wsPeer, ssePeer, oldPeer].map((p) => p?.close()));
});

const countTest = [
  "const next = pm.response.messages.filter((m) => m.direction === 'received' && m.event === 'next');",
  "pm.test('counted', () => pm.expect(next.map((m) => m.json().data.count)).to.eql([1, 2]));",
].join('\n');

describe('ferry run with GraphQL subscriptions', () => {
  it('runs each transport with tests over pm.response.messages; the report carries stream and messages', async () => {
    const temp = await makeWorkspace({
      'environments/local.yaml': { name: 'local', variables: [{ key: 'token', value: 'run-token' }, { key: 'wsUrl', value: wsPeer.url.replace('http:', 'ws:') }] },
      'requests/1 ws.yaml': {
        name: 'ws',
        method: 'POST',
        url: 'http://127.0.0.1:1/unused',
        body: { type: 'graphql', graphql: { query: 'subscription { count(to: 5, delayMs: 10) }', transport: 'websocket', subscriptionUrl: '{{wsUrl}}', connectionParams: '{"token": "{{token}}"}' } },
        settings: { stream: { maxEvents: 2 } },
        scripts: { postResponse: countTest },
      },
      'requests/2 legacy.yaml': {
        name: 'legacy',
        method: 'POST',
        url: oldPeer.url,
        body: { type: 'graphql', graphql: { query: 'subscription { count(to: 2) }', transport: 'websocketLegacy' } },
        scripts: { postResponse: countTest },
      },
      'requests/3 sse.yaml': {
        name: 'sse',
        method: 'POST',
        url: ssePeer.url,
        body: { type: 'graphql', graphql: { query: 'subscription { boom }', transport: 'sse' } },
        scripts: { postResponse: "pm.test('resolver error seen', () => pm.expect(pm.response.json().errors[0].message).to.equal('boom resolver failed'));" },
      },
      'requests/4 broken.yaml': {
        name: 'broken',
        method: 'POST',
        url: wsPeer.url,
        body: { type: 'graphql', graphql: { query: 'subscription { count(to: 1) }', connectionParams: '{not json' } },
      },
    });
    try {
      process.env.FERRY_DATA_DIR = temp.dataDir;
      const result = await ferry(['-w', temp.root, 'run', '-e', 'local', '-r', 'json']);
      if (!result.stdout.trim()) throw new Error(`no report: ${result.stderr}`);
      const report = JSON.parse(result.stdout);
      const byName = (name: string) => report.results.find((r: { name: string }) => r.name === name);
      expect(byName('ws')).toMatchObject({ kind: 'http', status: 101, passed: true, stream: { events: 2, stoppedBy: 'maxEvents' }, tests: [{ name: 'counted', passed: true }] });
      expect(byName('ws').messages[0]).toMatchObject({ direction: 'sent', event: 'subscribe' });
      expect(wsPeer.seen.params.at(-1)).toEqual({ token: 'run-token' });
      expect(byName('legacy')).toMatchObject({ status: 101, passed: true, stream: { events: 2, stoppedBy: 'complete' }, tests: [{ name: 'counted', passed: true }] });
      expect(byName('sse')).toMatchObject({ status: 200, passed: true, stream: { events: 1, stoppedBy: 'complete' }, tests: [{ name: 'resolver error seen', passed: true }] });
      const broken = byName('broken');
      expect(broken.passed).toBe(false);
      expect(broken.error).toMatch(/^body\.graphql\.connectionParams is not valid JSON/);
      expect(broken.error).not.toContain('\n');
      expect(result.code).toBe(1);

      const text = await ferry(['-w', temp.root, 'run', '-e', 'local', 'requests/2 legacy.yaml']);
      expect(text.stdout).toMatch(/2 events, subscription completed by the server/);
      expect(text.code).toBe(0);
    } finally {
      await temp.cleanup();
    }
  });
});
