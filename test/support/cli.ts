/** Runs `ferry` in-process, capturing what it prints. */
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function ferry(args: string[], cwd = process.cwd()): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd,
    output: { out: (t) => (stdout += t.endsWith('\n') ? t : `${t}\n`), err: (t) => (stderr += t.endsWith('\n') ? t : `${t}\n`), color: false },
  });
  return { code, stdout, stderr };
}
