/**
 * `ferry mv OLD NEW`: renames or moves a request or folder (issue 20). Parsing and printing only:
 * the plan and the move are workspace/move-item.ts, the app's own functions, under the
 * workspace's write lock as every writer.
 */
import type { Command } from 'commander';
import { moveJournalFile, refuseLinkedFolder, withWorkspaceLock, WorkspaceBusyError } from '../appdata/index.js';
import { applyMove, MoveError, openWorkspace, planMove } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError } from './exit-codes.js';
import { examples } from './examples.js';

export function registerMv(program: Command, ctx: CliContext): void {
  program
    .command('mv')
    .description('rename or move a request or folder (files renamed, seq kept, load tests updated)')
    .addHelpText('after', examples([
      ['ferry mv "Users/Get user" "Users/Fetch user"', 'rename a request (its file follows)'],
      ['ferry mv "Users/Get user" Admin', 'move it into the existing folder Admin'],
      ['ferry mv Users "Admin/People"', 'move and rename a folder with everything in it'],
    ]))
    .argument('<old>', 'a request (Folder/Name, extension optional) or folder under requests/')
    .argument('<new>', 'an existing folder to move into, or Folder/New name (New name alone: at the root)')
    .action(async (oldPath: string, newPath: string, _options: unknown, command: Command) => {
      const { root } = await openWorkspaceFor(command, ctx);
      let moved: { from: string; to: string };
      try {
        moved = await withWorkspaceLock(root, 'ferry mv', async () => {
          // Read under the lock: the tree as no other writer is changing it.
          const ws = await openWorkspace(root);
          const plan = planMove(ws.tree, oldPath, newPath);
          await refuseLinkedFolder(moveJournalFile(ws.id, root));
          return { from: plan.from, to: await applyMove(root, ws.tree, plan, { journal: moveJournalFile(ws.id, root), onNotice: (message) => ctx.output.err(`ferry: ${message}`) }) };
        });
      } catch (error) {
        if (error instanceof MoveError || error instanceof WorkspaceBusyError) throw new CliError(error.message);
        if (error instanceof Error && !(error as NodeJS.ErrnoException).code) throw new CliError(error.message);
        throw error;
      }
      ctx.output.err(`ferry: moved ${moved.from} to ${moved.to}`);
    });
}
