/**
 * Secret values a script prints or puts into a test's name stay out of the reports (terminal,
 * JSON, JUnit) like everything else Ferry writes about a run. Real workspace, data folder, server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { CliReporter, JsonReporter, JunitReporter, runRequests } from '../../src/runner/index.js';
import { openedWorkspace } from './workspace.js';

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

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
      reporters: [new JsonReporter((t) => void (json = t)), new JunitReporter((t) => void (xml = t)), new CliReporter({ write: (t) => void (cli += t), color: false })],
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
