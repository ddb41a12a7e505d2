/** Runs `ferry` in-process, capturing what it prints. */
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function ferry(args: string[], cwd = process.cwd(), stdin?: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    stdin: stdin === undefined ? undefined : Readable.from([Buffer.from(stdin)]),
    output: { out: (t) => (stdout += t.endsWith('\n') ? t : `${t}\n`), err: (t) => (stderr += t.endsWith('\n') ? t : `${t}\n`), color: false },
  });
  return { code, stdout, stderr };
}
