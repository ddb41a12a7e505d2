/**
 * The variables a server's templates see (spec 8.2): `--var` overrides, then the environment
 * (script-set values first), then the workspace variables (their saved values only). Read from the files each time a server
 * starts or its settings change, so an edit picks up current values. Secrets are never given to
 * server templates: the scope is built without a secret store, so secret placeholders stay as written.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_FILE } from '../model/index.js';
import { buildVariableScope, type VariableScope } from '../template/index.js';
import { checkNoSymlinks } from '../support/paths-inside.js';
import { ENVIRONMENTS_DIR, formatWarning, readResource } from '../workspace/index.js';
import { ServerError } from './errors.js';
import type { ServerOptions } from './types.js';

export async function readServerVariables(options: ServerOptions): Promise<VariableScope> {
  const workspace = await readResource('workspace', path.join(options.root, WORKSPACE_FILE), WORKSPACE_FILE);
  if (!workspace.ok) throw new ServerError(`Cannot read the workspace variables: ${formatWarning(workspace.warning)}`);
  let environment;
  if (options.environment !== undefined) {
    const id = options.environment;
    const relative = `${ENVIRONMENTS_DIR}/${id}.yaml`;
    if (!/^[^/\\]+$/.test(id) || id.startsWith('.')) {
      throw new ServerError(`"${id}" is not an environment id; give the file name under ${ENVIRONMENTS_DIR}/ without .yaml.`);
    }
    const absolute = path.join(options.root, relative);
    // O_NOFOLLOW guards only the file itself: an `environments` folder that is a link is refused here.
    const linked = await checkNoSymlinks(options.root, relative);
    if (linked) throw new ServerError(`Cannot read environment "${id}": ${linked}.`);
    if (!(await exists(absolute))) {
      throw new ServerError(`No environment "${id}": ${relative} does not exist. Environments here: ${await environmentIds(options.root)}.`);
    }
    const outcome = await readResource('environment', absolute, relative);
    if (!outcome.ok) throw new ServerError(`Cannot read environment "${id}": ${formatWarning(outcome.warning)}`);
    environment = outcome.value;
  }
  const environmentScripted = options.environment !== undefined ? await options.scriptValues?.(`environment:${options.environment}`) : undefined;
  // Spec 8.2: the environment's variables "including script-set values on this computer", then the
  // workspace variables' "saved values": what scripts set in the collection stays out of answers.
  return buildVariableScope({
    overrides: options.overrides,
    environment: environment && { variables: environment.variables, scriptValues: environmentScripted },
    workspace: { variables: workspace.value.variables },
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}

async function environmentIds(root: string): Promise<string> {
  try {
    const names = (await fs.readdir(path.join(root, ENVIRONMENTS_DIR))).filter((n) => n.endsWith('.yaml') && !n.startsWith('.'));
    return names.length > 0 ? names.map((n) => n.slice(0, -5)).join(', ') : 'none';
  } catch {
    return 'none';
  }
}
