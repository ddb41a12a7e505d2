/** `ferry ls`: prints the workspace tree, environments, servers, load tests and parse warnings. */
import type { Command } from 'commander';
import { requestKind } from '../protocols/index.js';
import { formatWarning, type FolderNode } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { paint } from './output.js';
import { examples } from './examples.js';

export function registerLs(program: Command, ctx: CliContext): void {
  program
    .command('ls')
    .description('list the requests (with kind and method), environments, servers, load tests and file warnings')
    .addHelpText('after', examples([["ferry ls", "the tree, environments, servers and load tests"], ["ferry ls Users --kind http", "only HTTP requests under Users/"], ["ferry ls --problems", "every file problem, path: message"], ["ferry ls --json", "as JSON"]]))
    .option('--json', 'print the listing as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
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
