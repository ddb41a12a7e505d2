/**
 * The process's output on a terminal: control characters in what a command prints (names from a
 * cloned workspace or an import file) are shown escaped; Ferry's own colours pass; into a pipe or
 * a file the bytes go unchanged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { processOutput } from '../../src/cli/output.js';
import { closedPort } from '../support/servers/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const HOSTILE = 'Evil\x1b]0;title\x07\x1b[2J\rfake\u202e';
const SHOWN = 'Evil\\x1b]0;title\\x07\\x1b[2J\\rfake\\u202e';

const saved = { outTTY: process.stdout.isTTY, errTTY: process.stderr.isTTY, out: process.stdout.write, err: process.stderr.write };
afterEach(() => {
  process.stdout.isTTY = saved.outTTY;
  process.stderr.isTTY = saved.errTTY;
  process.stdout.write = saved.out;
  process.stderr.write = saved.err;
});

/** What `processOutput` writes with stdout and stderr as terminals or not. */
function capture(tty: boolean, print: (output: ReturnType<typeof processOutput>) => void): { out: string; err: string } {
  const got = { out: '', err: '' };
  process.stdout.isTTY = tty;
  process.stderr.isTTY = tty;
  process.stdout.write = ((chunk: string) => ((got.out += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((got.err += chunk), true)) as typeof process.stderr.write;
  try {
    print(processOutput());
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
  return got;
}

describe('processOutput', () => {
  it('on a terminal, shows control characters escaped and keeps colour sequences', () => {
    const got = capture(true, (output) => {
      output.out(`\x1b[1m${HOSTILE}\x1b[22m\tnext`);
      output.err(`ferry: ${HOSTILE}`);
    });
    expect(got.out).toBe(`\x1b[1m${SHOWN}\x1b[22m\tnext\n`);
    expect(got.err).toBe(`ferry: ${SHOWN}\n`);
  });

  it('a message printed while the status line is drawn (Ctrl-C during a request) is not glued to it', () => {
    const got = capture(true, (output) => {
      output.status!.write('\r\x1b[2K→ slow (1/2) 3.2 s');
      output.err('ferry: stopping');
      output.out('✗ slow');
      output.status!.write('\r\x1b[2K');
      output.err('ferry: after');
    });
    // Erased, the message on its own line, then the status line drawn again below it.
    // stdout being the same terminal, a line printed there erases and redraws the status line too.
    const status = '→ slow (1/2) 3.2 s';
    expect(got.err).toBe(`\r\x1b[2K${status}` + `\r\x1b[2Kferry: stopping\n${status}` + `\r\x1b[2K${status}` + '\r\x1b[2K' + 'ferry: after\n');
    expect(got.out).toBe('✗ slow\n');
  });

  it('JSON printed on a terminal (-r json, --json) stays valid JSON of the same text: DEL, C1 controls and bidi overrides are written as JSON escapes', () => {
    // JSON.stringify escapes C0 controls itself but leaves DEL, C1 (U+009B is CSI) and U+202E raw.
    const value = { text: `${HOSTILE} del\x7f c1\u0085\u009b31m isolate\u2066x\u2069` };
    const json = JSON.stringify(value, null, 2);
    const got = capture(true, (output) => output.out(json));
    expect(got.out).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(got.out)).toEqual(value);
  });

  it('into a pipe or a file, writes the text unchanged', () => {
    const got = capture(false, (output) => {
      output.out(HOSTILE);
      output.err(HOSTILE);
    });
    expect(got).toEqual({ out: `${HOSTILE}\n`, err: `${HOSTILE}\n` });
  });
});

describe('colour of a real ferry process writing into a pipe', () => {
  const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js');

  /** `ferry run` of a request to a closed port (a red ✗), stdout a pipe, with `env` added. */
  async function runInto(env: Record<string, string>): Promise<string> {
    const ws = path.join(await tempDir(), 'ws');
    await fs.mkdir(path.join(ws, 'requests'), { recursive: true });
    await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nname: Colours\n');
    await fs.writeFile(path.join(ws, 'requests', 'refused.yaml'), `name: refused\nurl: http://127.0.0.1:${await closedPort()}/\n`);
    const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NO_COLOR' && key !== 'FORCE_COLOR'));
    const child = spawnSync(process.execPath, [BIN, '-w', ws, 'run'], { env: { ...base, FERRY_DATA_DIR: await isolatedDataDir(), ...env }, encoding: 'utf8', timeout: 30_000 });
    expect(child.status).toBe(1);
    return child.stdout;
  }

  it('has none by default, colour with FORCE_COLOR (CI logs), none with FORCE_COLOR=0 or NO_COLOR', async () => {
    expect(await runInto({})).not.toContain('\x1b[');
    expect(await runInto({ FORCE_COLOR: '1' })).toContain('\x1b[31m✗\x1b[39m refused');
    expect(await runInto({ FORCE_COLOR: '0' })).not.toContain('\x1b[');
    expect(await runInto({ FORCE_COLOR: '1', NO_COLOR: '1' })).not.toContain('\x1b[');
  }, 60_000);
});

describe('colour on stderr follows stderr', () => {
  it('processOutput: stdout a terminal and stderr a file (`ferry serve 2>serve.log`), or the other way round, colours each as it is', () => {
    const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR, TERM: process.env.TERM };
    delete process.env.NO_COLOR;
    delete process.env.FORCE_COLOR;
    process.env.TERM = 'xterm-256color';
    try {
      for (const [outTTY, errTTY] of [[true, false], [false, true]] as const) {
        process.stdout.isTTY = outTTY;
        process.stderr.isTTY = errTTY;
        const output = processOutput();
        expect({ color: output.color, errColor: output.errColor }).toEqual({ color: outTTY, errColor: errTTY });
      }
    } finally {
      for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key]; else process.env[key] = value;
    }
  });

  it("ferry serve's failure lines on stderr carry no colour codes when stderr is not a terminal, though stdout is", async () => {
    const ws = path.join(await tempDir(), 'ws');
    await isolatedDataDir();
    const { main } = await import('../../src/cli/main.js');
    expect(await main(['init', ws], { output: { out: () => {}, err: () => {}, color: false } })).toBe(0);
    await fs.mkdir(path.join(ws, 'servers'));
    await fs.writeFile(path.join(ws, 'servers', 'bad.yaml'), 'name: Bad\nkind: dns\ndns:\n  records:\n    - { name: a.test, type: A, value: not-an-address }\n');
    let err = '';
    const code = await main(['-w', ws, 'serve', '--no-watch'], { output: { out: () => {}, err: (t) => void (err += `${t}\n`), color: true, errColor: false } });
    expect(code).toBe(1);
    expect(err).toContain('ferry: server bad did not start');
    expect(err).not.toContain('\x1b[');
  });
});
