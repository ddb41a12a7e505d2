/**
 * Two scripts in one script field, kept apart by a `// ---- next script ----` line (what an import
 * writes for a Postman item with two scripts of one event): a run runs them apart, as Newman does
 * — each in its own scope, an error in one leaving the next running — in the spec's order
 * (workspace, folders outer to inner, the request), against a real local server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { runRequests, type RunEvent } from '../../src/runner/index.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { openedWorkspace } from '../runner/workspace.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startHttp1();
});
afterAll(() => peer.close());

describe('a script field with break lines', () => {
  it('runs each part as a script of its own: the next part runs after an error, a const may be declared again, line numbers are the field\'s', async () => {
    const s = await openedWorkspace(
      {
        'requests/F/_folder.yaml': { scripts: { postResponse: "console.log('folder one');\n// ---- next script ----\nconsole.log('folder two');" } },
        'requests/F/R.yaml': {
          name: 'R',
          url: `${peer.url}/echo`,
          scripts: {
            postResponse: [
              'const x = 1;',
              "console.log('one', x);",
              'boom();',
              '  // ---- next script ----  ',
              'const x = 2;',
              "pm.test('the second script runs', () => pm.expect(x).to.equal(2));",
              "console.log('two', x);",
              '// ---- next script ----',
              '',
              'null.fails;',
            ].join('\n'),
          },
        },
      },
      { scripts: { postResponse: "console.log('workspace');" } },
    );
    const events: RunEvent[] = [];
    const { results } = await runRequests({ workspace: s.ws, dataFolder: s.data, settings: DEFAULT_SETTINGS, reporters: [{ onEvent: (e) => events.push(e) }] });
    expect(results).toHaveLength(1);
    const r = results[0]!;
    expect(r.console).toEqual(['workspace', 'folder one', 'folder two', 'one 1', 'two 2']);
    expect(r.tests).toEqual([expect.objectContaining({ name: 'the second script runs', passed: true })]);
    expect(r.error?.split('\n')).toEqual([
      expect.stringMatching(/^requests\/F\/R\.yaml: postResponse \(script 1\): ReferenceError: .*boom.* \(line 3\b/),
      expect.stringMatching(/^requests\/F\/R\.yaml: postResponse \(script 3\): TypeError: .* \(line 10\b/),
    ]);
    expect(r.passed).toBe(false);
  });

  it('a field without a break line is one script, as before (its label has no part number)', async () => {
    const s = await openedWorkspace({
      'requests/R.yaml': { name: 'R', url: `${peer.url}/echo`, scripts: { postResponse: "console.log('a');\n// ---- next script ---- (not alone on its line)\nboom();\nconsole.log('never');" } },
    });
    const { results } = await runRequests({ workspace: s.ws, dataFolder: s.data, settings: DEFAULT_SETTINGS });
    expect(results[0]!.console).toEqual(['a']);
    expect(results[0]!.error).toMatch(/^requests\/R\.yaml: postResponse: ReferenceError: .*\(line 3\b/);
  });
});
