/**
 * Programs a request starts (MCP over stdio today; any kind that starts one later): a workspace
 * from anywhere must not start programs by itself (spec 5.4, DESIGN "untrusted by default"). A
 * program is its exact command line, folder and environment; the send asks the context's policy,
 * which answers from this computer's allow-list (`ferry programs`, `ferry run --allow-programs`).
 */
import type { Face } from '../request/index.js';
import { SendError } from './send-error.js';

export interface ProgramSpec {
  /** The command line as written in the request (variables filled). */
  command: string;
  /** Absolute start folder. */
  cwd: string;
  /** The request's own environment variables (enabled rows), not the inherited ones. */
  env: Record<string, string>;
}

export interface ProgramPolicy {
  /** True when the program may start (allowed before, or allowed now and recorded); false to refuse it. */
  allow(program: ProgramSpec): Promise<boolean>;
}

/** A program the policy refused; it carries the program so a face can ask to allow it (the app, 5.4). */
export class ProgramRefusedError extends SendError {
  constructor(
    message: string,
    readonly program: ProgramSpec,
  ) {
    super(message, 'unsupported');
  }
}

/** How a person allows a refused program from the command line; `ferry mcp` words it for the agent instead (agent/programs.ts). */
export const PROGRAM_ALLOW_HINT = 'run with --allow-programs to allow it (or ferry programs allow), once you trust this workspace.';

/** How each face allows a program, for the refusal's remedy (the app's page has no command line). */
const ALLOW_PROGRAM: Record<Face, string> = {
  cli: PROGRAM_ALLOW_HINT,
  app: 'to allow it, use List methods and tools below the request and answer Allow and start, once you trust this workspace.',
  agent: PROGRAM_ALLOW_HINT,
};

/** The one line a refused program fails with: the command, and how to allow it (in the words of the face that shows it; the command line's by default). */
export function programRefused(program: ProgramSpec, workspaceRoot: string, face: Face = 'cli'): SendError {
  const env = Object.keys(program.env);
  const where = program.cwd === workspaceRoot ? '' : ` in ${program.cwd}`;
  return new ProgramRefusedError(
    `the program "${program.command}"${where}${env.length ? ` with env ${env.join(', ')}` : ''} is not allowed to start on this computer; ${ALLOW_PROGRAM[face]}`,
    program,
  );
}

/**
 * Splits a command line into the program and its arguments, as a POSIX shell splits words
 * (quotes and backslashes), without running a shell: no variables, globs or pipes.
 */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new SendError(`the command line has an unclosed ${quote} quote: ${line}`, 'other');
  if (inWord) words.push(word);
  return words;
}
