/**
 * Secret values a script prints or puts into a test's name stay out of the reports (terminal,
 * JSON, JUnit) like everything else Ferry writes about a run. Real workspace, data folder, server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { CliReporter, JsonReporter, JunitReporter, runRequests } from '../../src/runner/index.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { openedWorkspace } from './workspace.js';

let peer: Peer;
let base = '';

beforeAll(async () => {
  peer = await startHttp1();
  base = peer.url;
});
afterAll(() => peer.close());

describe('secret values in what scripts write', () => {
  it('are masked in console lines and test names, in every report', async () => {
    const secret = 'tok-8c1e-Secret';
    const s = await openedWorkspace({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', secret: true }] },
      'requests/a.yaml': {
        name: 'a',
        url: `${base}/a`,
        scripts: {
          postResponse: [
            "const t = pm.environment.get('token');",
            "console.log('token is', t);",
            "console.warn(encodeURIComponent(t));",
            "pm.test('uses ' + t, () => pm.expect(t).to.eql(t));",
            "pm.test('fails with ' + t, () => pm.expect(t).to.eql('other'));",
          ].join('\n'),
        },
      },
    });
    await s.data.secrets.set('local', 'token', secret);
    let json = '';
    let xml = '';
    let cli = '';
    const outcome = await runRequests({
      workspace: s.ws,
      dataFolder: new WorkspaceData(s.ws.id, s.ws.root),
      settings: DEFAULT_SETTINGS,
      environment: 'local',
      reporters: [new JsonReporter((t) => void (json += t)), new JunitReporter((t) => void (xml += t)), new CliReporter({ write: (t) => void (cli += t), color: false })],
    });
    const result = outcome.results[0]!;
    expect(result.tests.map((t) => [t.name, t.passed])).toEqual([['uses ***', true], ['fails with ***', false]]);
    expect(result.console).toEqual(['token is ***', 'warn: ***']);
    for (const report of [json, xml, cli]) {
      expect(report).not.toBe('');
      expect(report).not.toContain(secret);
    }
    expect(cli).toContain('fails with ***');
  });
});
