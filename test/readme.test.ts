/**
 * Every `npx ferry …` example in the README runs as written (on a copy of the demo on a free
 * port), so the README never promises a command or flag the code lacks.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from './support/cli.js';
import { demoCopy } from './support/demo.js';
import { isolatedDataDir } from './support/temp.js';

const repo = path.join(import.meta.dirname, '..');

/** Splits a command line the way a POSIX shell would for these simple examples. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

async function readmeExamples(): Promise<string[]> {
  const readme = await fs.readFile(path.join(repo, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l.startsWith('npx ferry '));
}


describe('README examples', () => {
  it('the README shows examples to run', async () => {
    expect((await readmeExamples()).length).toBeGreaterThanOrEqual(4);
  });

  it('each example runs and succeeds', async () => {
    await isolatedDataDir();
    const { root } = await demoCopy();
    for (const line of await readmeExamples()) {
      const args = shellWords(line).slice(2).map((w) => (w === 'examples/demo' ? root : w));
      // `serve` runs until Ctrl-C; its help and the same servers under `run --start-servers` are checked instead.
      const runnable = args.includes('serve') ? [...args, '--help'] : args;
      const result = await ferry(runnable);
      expect(result.code, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
      if (args.includes('json')) expect(JSON.parse(result.stdout).version).toBe(1);
    }
  });
});
