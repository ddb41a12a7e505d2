/**
 * `ferry serve` into a pipe (`ferry serve | tee serve.log` shows it on a terminal): what a client
 * sends is previewed in the traffic line, and no control character or bidi override it chose
 * reaches the output raw; nor does one in a server's name or file name, as the terminal shows them.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ferryProcess } from '../support/cli.js';
import { isolatedDataDir } from '../support/temp.js';
import { eventually, makeWorkspace } from './helpers.js';

/** ESC sequences (title, clear, OSC 8 link), CR, backspace, C1 CSI, and the bidi overrides and isolates. */
const HOSTILE = 'hi \x1b]0;PWNED\x07\x1b[2J\x1b]8;;http://evil/\x07link\rFAKE\b\u009b31m \u202eevil\u2066x\u2069';

/** Sends `text` to the echo server at `url` as a real client, and waits for ferry serve's line of the echo. */
async function echoedOnce(output: { stdout: string }, url: string, text: string): Promise<void> {
  const client = new WebSocket(`${url}/`);
  await new Promise((resolve, reject) => (client.once('open', resolve), client.once('error', reject)));
  client.send(text);
  await new Promise((resolve) => client.once('message', resolve));
  client.close();
  await eventually(async () => output.stdout.includes('(echoed)'), 10_000);
}

describe('ferry serve: a client\'s text in the traffic line', () => {
  it('a WebSocket message holding ESC sequences, a CR, C1 controls and bidi overrides is shown with none of them raw', { timeout: 60_000 }, async () => {
    const dataDir = await isolatedDataDir();
    const root = await makeWorkspace({ servers: { chat: { name: 'Chat', kind: 'websocket', websocket: { mode: 'echo' } } } });
    const serve = ferryProcess(['-w', root, 'serve', '--no-watch'], { FERRY_DATA_DIR: dataDir });
    try {
      await eventually(async () => /ws:\/\/127\.0\.0\.1:\d+/.test(serve.output.stdout), 30_000);
      await echoedOnce(serve.output, /ws:\/\/127\.0\.0\.1:\d+/.exec(serve.output.stdout)![0], HOSTILE);
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

  it("a server's name and file name holding ESC sequences, a C1 control and bidi overrides are escaped into a pipe as on a terminal; --json keeps the text", { timeout: 60_000 }, async () => {
    const dataDir = await isolatedDataDir();
    const id = 'chat\x1b]0;PWNED\x07\u202eX';
    const name = 'Chat \x1b[2J\u009b \u202eevil\u2066\nFAKE';
    const root = await makeWorkspace({ servers: { [id]: { name, kind: 'websocket', websocket: { mode: 'echo' } }, plain: { name: 'Plain', kind: 'websocket', websocket: { mode: 'echo' } } } });
    const serve = ferryProcess(['-w', root, 'serve', '--no-watch'], { FERRY_DATA_DIR: dataDir });
    try {
      await eventually(async () => /ws:\/\/127\.0\.0\.1:\d+/.test(serve.output.stdout), 30_000);
      await echoedOnce(serve.output, /Chat[^\n]* (ws:\/\/127\.0\.0\.1:\d+)/.exec(serve.output.stdout)![1]!, 'hello');
    } finally {
      serve.child.kill('SIGINT');
      await serve.done;
    }
    const { stdout, stderr } = serve.output;
    // The listing, as a terminal shows it (escapes); the traffic line, as it shows what clients send (symbols).
    // One line per server, the names escaped before they are padded, so the URLs line up.
    const listed = stdout.split('\n').filter((l) => l.includes('ws://127.0.0.1:'));
    expect(listed).toHaveLength(2);
    expect(listed.find((l) => l.includes('Chat'))).toMatch(/^ {2}Chat \\x1b\[2J\\u009b \\u202eevil\\u2066\\nFAKE {2}ws:/);
    expect(listed[1]!.indexOf('ws://')).toBe(listed[0]!.indexOf('ws://'));
    expect(stdout).toContain('websocket · servers/chat\\x1b]0;PWNED\\x07\\u202eX.yaml\n');
    expect(stdout).toMatch(/\n\d\d:\d\d:\d\d\.\d{3} chat␛]0;PWNED␇\ufffdX ← [^\n]*"hello"/);
    // eslint-disable-next-line no-control-regex
    for (const text of [stdout, stderr]) expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);

    // --json: JSON lines carry the text as it is (JSON escapes the C0 controls).
    const json = ferryProcess(['-w', root, 'serve', '--no-watch', '--json'], { FERRY_DATA_DIR: dataDir });
    try {
      await eventually(async () => json.output.stdout.includes('"type":"server"'), 30_000);
    } finally {
      json.child.kill('SIGINT');
      await json.done;
    }
    const server = json.output.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; id?: string; name?: string }).find((l) => l.type === 'server');
    expect(server).toMatchObject({ id, name });
  });
});
