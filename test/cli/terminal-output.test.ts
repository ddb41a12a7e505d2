/**
 * The process's output on a terminal: control characters in what a command prints (names from a
 * cloned workspace or an import file) are shown escaped; Ferry's own colours pass; into a pipe or
 * a file the bytes go unchanged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { processOutput } from '../../src/cli/output.js';

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

  it('into a pipe or a file, writes the text unchanged', () => {
    const got = capture(false, (output) => {
      output.out(HOSTILE);
      output.err(HOSTILE);
    });
    expect(got).toEqual({ out: `${HOSTILE}\n`, err: `${HOSTILE}\n` });
  });
});
