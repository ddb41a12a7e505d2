/**
 * What a hostile server sends reaches the terminal through console lines, test names and messages:
 * control characters (ESC sequences that set the title, clear the screen or recolour text, a
 * carriage return that overwrites a line) are shown escaped, never written raw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { CliReporter, runRequests } from '../../src/runner/index.js';
import { openedWorkspace } from './workspace.js';

const HOSTILE = 'A\x1b]0;title\x07B\x1b[2J\x9b31m\rfake \u2713 line\u202e';
let server: net.Server;
let base = '';

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      const body = Buffer.from(HOSTILE, 'utf8');
      socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`), body]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the terminal report', () => {
  it('shows control characters from a response escaped, in console lines, test names, messages and errors', async () => {
    const s = await openedWorkspace({
      'requests/a.yaml': {
        name: 'a',
        url: `${base}/`,
        scripts: {
          postResponse: [
            'console.log(pm.response.text());',
            'pm.test(pm.response.text(), () => { throw new Error(pm.response.text()); });',
            'throw new Error(pm.response.text());',
          ].join('\n'),
        },
      },
    });
    let cli = '';
    const outcome = await runRequests({
      workspace: s.ws,
      dataFolder: new WorkspaceData(s.ws.id, s.ws.root),
      settings: DEFAULT_SETTINGS,
      reporters: [new CliReporter({ write: (t) => void (cli += t), color: false })],
    });
    // The result itself keeps the text as it came (the JSON report escapes it on its own).
    expect(outcome.results[0]!.console).toEqual([HOSTILE]);
    expect(cli).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    const shown = 'A\\x1b]0;title\\x07B\\x1b[2J\\u009b31m\\rfake \u2713 line\\u202e';
    expect(cli).toContain(`│ ${shown}`);
    expect(cli).toContain(`✗ ${shown}`);
    expect(cli.split(shown).length).toBeGreaterThanOrEqual(5); // console, test name, its message, the error, the summary
  });

  it('a line feed in a console line, a test name or a request name cannot print a line of its own (a fake ✓ or verdict)', async () => {
    const s = await openedWorkspace({
      'requests/b.yaml': {
        name: 'b\n✓ request passed',
        url: `${base}/`,
        scripts: {
          postResponse: [
            "console.log('logged\\n✓ fake test\\n\\nSummary\\n  0 failed\\n\\nPASSED');",
            "pm.test('real\\n✓ fake name', () => {});",
            "pm.test('fails', () => { throw new Error('first\\nsecond'); });",
          ].join('\n'),
        },
      },
    });
    let cli = '';
    await runRequests({
      workspace: s.ws,
      dataFolder: new WorkspaceData(s.ws.id, s.ws.root),
      settings: DEFAULT_SETTINGS,
      reporters: [new CliReporter({ write: (t) => void (cli += t), color: false })],
    });
    // Ferry's own lines only: nothing the script wrote starts a line with ✓ or reads as the verdict.
    expect(cli).not.toMatch(/^\s*✓ (fake|request)/m);
    expect(cli.match(/^(PASSED|FAILED)$/gm)).toEqual(['FAILED']);
    expect(cli).toContain('✗ b\\n✓ request passed');
    expect(cli).toContain('    │ logged\n    │ ✓ fake test\n    │ \n    │ Summary\n    │   0 failed\n    │ \n    │ PASSED\n');
    expect(cli).toContain('    ✓ real\\n✓ fake name\n');
    // A message keeps its lines, each indented under its test.
    expect(cli).toContain('    ✗ fails\n        first\n        second\n');
  });
});
