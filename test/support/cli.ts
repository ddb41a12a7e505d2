/** Runs `ferry` in-process, capturing what it prints. */
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function ferry(args: string[], cwd = process.cwd(), stdin?: string): Promise<CliResult> {
  return capture(args, cwd, stdin, undefined);
}

/**
 * As `ferry`, with stderr a terminal: what the status line drew (progress of long work) is
 * returned too, as the raw writes it made.
 */
export async function ferryOnTerminal(args: string[], cwd = process.cwd()): Promise<CliResult & { status: string[] }> {
  const status: string[] = [];
  const result = await capture(args, cwd, undefined, { write: (text) => void status.push(text) });
  return { ...result, status };
}

async function capture(args: string[], cwd: string, stdin: string | undefined, status: { write(text: string): void } | undefined): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    stdin: stdin === undefined ? undefined : Readable.from([Buffer.from(stdin)]),
    output: {
      out: (t) => (stdout += t.endsWith('\n') ? t : `${t}\n`),
      err: (t) => (stderr += t.endsWith('\n') ? t : `${t}\n`),
      color: false,
      ...(status ? { status } : {}),
    },
  });
  return { code, stdout, stderr };
}
