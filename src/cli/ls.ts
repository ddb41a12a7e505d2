/** `ferry ls`: prints the workspace tree, environments, servers, load tests and parse warnings. */
import type { Command } from 'commander';
import { requestKind } from '../protocols/index.js';
import { formatWarning, type FolderNode, type Warning } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { paint } from './output.js';

export function registerLs(program: Command, ctx: CliContext): void {
  program
    .command('ls')
    .description('list the requests (with kind and method), environments, servers, load tests and file warnings')
    .option('--json', 'print the listing as JSON')
    .option('--problems', 'list every problem of every workspace file (path: message), and nothing else')
    .action(async (options: { json?: boolean; problems?: boolean }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      if (options.problems) {
        printProblems(ws.warnings, options.json === true, ctx);
        return;
      }
      if (options.json) {
        ctx.output.out(JSON.stringify({
          name: ws.file.name,
          root: ws.root,
          requests: flatten(ws.tree),
          environments: ws.environments.map((e) => ({ id: e.id, name: e.value.name })),
          servers: ws.servers.map((s) => ({ id: s.id, name: s.value.name, kind: s.value.kind, port: s.value.port })),
          loadtests: ws.loadtests.map((l) => ({ id: l.id, name: l.value.name })),
          warnings: ws.warnings,
        }, null, 2));
        return;
      }
      const c = paint(ctx.output);
      const lines: string[] = [c.bold(ws.file.name || ws.root)];
      printFolder(ws.tree, '', lines, c);
      if (ws.environments.length) lines.push('', c.bold('Environments'), ...ws.environments.map((e) => `  ${e.id}  ${c.dim(e.value.name)}`));
      if (ws.servers.length) lines.push('', c.bold('Servers'), ...ws.servers.map((s) => `  ${s.id}  ${c.dim(`${s.value.kind} ${s.value.name}`)}`));
      if (ws.loadtests.length) lines.push('', c.bold('Load tests'), ...ws.loadtests.map((l) => `  ${l.id}  ${c.dim(l.value.name)}`));
      if (ws.warnings.length) lines.push('', c.yellow(c.bold('Warnings')), ...ws.warnings.map((w) => `  ${c.yellow(formatWarning(w))}`));
      ctx.output.out(lines.join('\n'));
    });
}

/** `ferry ls --problems`: each file's problems, every one of them (a warning names only its first). */
function printProblems(warnings: readonly Warning[], json: boolean, ctx: CliContext): void {
  if (json) {
    ctx.output.out(JSON.stringify(warnings.map((w) => ({ ...w, problems: w.problems ?? [w.message] })), null, 2));
    return;
  }
  if (warnings.length === 0) {
    ctx.output.out('No file problems.');
    return;
  }
  const c = paint(ctx.output);
  const lines: string[] = [];
  for (const w of warnings) {
    if (!w.problems) {
      lines.push(c.yellow(formatWarning(w)));
      continue;
    }
    lines.push(c.yellow(`${w.file}${w.line ? `:${w.line}:${w.column ?? 1}` : ''}: ${w.problems.length} problems`));
    for (const problem of w.problems) lines.push(`  ${c.yellow(problem)}`);
  }
  lines.push('', `${warnings.length} file${warnings.length === 1 ? '' : 's'} with problems.`);
  ctx.output.out(lines.join('\n'));
}

function printFolder(folder: FolderNode, indent: string, lines: string[], c: ReturnType<typeof paint>): void {
  for (const child of folder.children) {
    if (child.type === 'folder') {
      // The folder's path too when it differs from its name (`Petstore 2/` for a second `Petstore`).
      const dirName = child.path.split('/').pop()!;
      lines.push(`${indent}${c.bold(`${child.name}/`)}${dirName === child.name ? '' : `  ${c.dim(`${child.path}/`)}`}`);
      printFolder(child, `${indent}  `, lines, c);
    } else if (child.type === 'request') {
      const r = child.request;
      const tag = requestKind(r.kind).tag(r.method);
      lines.push(`${indent}${c.cyan(tag.padEnd(7))} ${r.name}  ${c.dim(child.path)}`);
    } else {
      lines.push(`${indent}${c.yellow('!')}       ${child.path}  ${c.yellow(child.warning.message)}`);
    }
  }
}


function flatten(folder: FolderNode): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const child of folder.children) {
    if (child.type === 'folder') out.push(...flatten(child));
    else if (child.type === 'request') out.push({ path: child.path, name: child.request.name, kind: child.request.kind, method: child.request.method });
    else out.push({ path: child.path, broken: true, warning: child.warning.message });
  }
  return out;
}
