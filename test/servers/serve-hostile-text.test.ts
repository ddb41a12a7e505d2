/**
 * `ferry serve` into a pipe (`ferry serve | tee serve.log` shows it on a terminal): what a client
 * sends is previewed in the traffic line, and no control character or bidi override it chose
 * reaches the output raw.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ferryProcess } from '../support/cli.js';
import { isolatedDataDir } from '../support/temp.js';
import { eventually, makeWorkspace } from './helpers.js';

/** ESC sequences (title, clear, OSC 8 link), CR, backspace, C1 CSI, and the bidi overrides and isolates. */
const HOSTILE = 'hi \x1b]0;PWNED\x07\x1b[2J\x1b]8;;http://evil/\x07link\rFAKE\b\u009b31m \u202eevil\u2066x\u2069';

describe('ferry serve: a client\'s text in the traffic line', () => {
  it('a WebSocket message holding ESC sequences, a CR, C1 controls and bidi overrides is shown with none of them raw', { timeout: 60_000 }, async () => {
    const dataDir = await isolatedDataDir();
    const root = await makeWorkspace({ servers: { chat: { name: 'Chat', kind: 'websocket', websocket: { mode: 'echo' } } } });
    const serve = ferryProcess(['-w', root, 'serve', '--no-watch'], { FERRY_DATA_DIR: dataDir });
    try {
      await eventually(async () => /ws:\/\/127\.0\.0\.1:\d+/.test(serve.output.stdout), 30_000);
      const url = /ws:\/\/127\.0\.0\.1:\d+/.exec(serve.output.stdout)![0];
      const client = new WebSocket(`${url}/`);
      await new Promise((resolve, reject) => (client.once('open', resolve), client.once('error', reject)));
      client.send(HOSTILE);
      await new Promise((resolve) => client.once('message', resolve));
      client.close();
      await eventually(async () => serve.output.stdout.includes('(echoed)'), 10_000);
    } finally {
      serve.child.kill('SIGINT');
      await serve.done;
    }
    const line = serve.output.stdout.split('\n').find((l) => l.includes('(echoed)'))!;
    expect(line).toContain('PWNED');
    // Only printable text: no C0 (tabs and line feeds aside), DEL, C1 or bidi control.
    // eslint-disable-next-line no-control-regex
    expect(serve.output.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });
});
