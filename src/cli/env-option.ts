/**
 * `-e FILE.postman_environment.json`: Newman takes an environment file there; Ferry takes the id
 * or name of an environment of the workspace. Say how to bring the file in instead of "no such
 * environment".
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './exit-codes.js';

export function checkEnvOption(env: string | undefined, cwd: string): void {
  if (env === undefined) return;
  const postman = /\.postman_environment\.json$/i.test(env);
  if (!postman && !(/\.json$/i.test(env) && existsSync(path.resolve(cwd, env)))) return;
  const quoted = /[\s'"$`\\]/.test(env) ? JSON.stringify(env) : env;
  throw new CliError(
    `-e ${env}: this looks like a Postman environment file, and -e takes the id or name of an environment of the workspace (environments/). Import the file once with \`ferry import ${quoted}\`, then use -e with the environment's name (see \`ferry env ls\`).`,
  );
}
