/**
 * What a request's target offers (issue 26: the app's gRPC method and MCP tool pickers): the
 * request prepared as a send prepares it (`prepareItem`, for the purpose `describe`: no method
 * need be chosen yet), then the kind's `describe` with the same send context. A kind without `describe` is refused in one line.
 */
import { formatWarning, type RunItem } from '../workspace/index.js';
import { requestKind, ProgramRefusedError, SendError, type KindCatalog, type ProgramSpec } from '../protocols/index.js';
import type { RunContext } from './context.js';
import { brokenFolderFile, prepareItem, sendContextOf } from './send.js';

/** A target that could not be listed: one line; `program` when it is a program this computer has not allowed yet. */
export class DescribeError extends Error {
  override name = 'DescribeError';
  constructor(
    message: string,
    readonly program?: ProgramSpec,
  ) {
    super(message);
  }
}

export async function describeItem(item: RunItem, ctx: RunContext, signal?: AbortSignal): Promise<KindCatalog> {
  if (item.node.type === 'broken') throw new DescribeError(`${formatWarning(item.node.warning)} (fix the file to list what its server offers)`);
  const folderProblem = brokenFolderFile(item, ctx);
  if (folderProblem) throw new DescribeError(`${formatWarning(folderProblem)} (fix the file first)`);
  const node = item.node;
  const kind = requestKind(node.request.kind);
  if (!kind.describe) throw new DescribeError(`${kind.noun} has no list of methods or tools to show; only gRPC and MCP requests do.`);
  // As a send prepares it, less what only a send needs (a method chosen: the list is where it is chosen).
  const ready = await prepareItem(item, node, { ...ctx, signal }, { iteration: 0, iterationCount: 1, purpose: 'describe' });
  if (!ready.ready) {
    const { result } = ready.outcome;
    throw new DescribeError(result.skipped ? `not listed: ${result.skipped}.` : (result.error ?? `requests/${node.path} could not be prepared.`));
  }
  try {
    return await kind.describe(ready.prepared, sendContextOf(ctx), signal);
  } catch (error) {
    if (error instanceof ProgramRefusedError) throw new DescribeError(error.message, error.program);
    if (error instanceof SendError) throw new DescribeError(error.message);
    throw error;
  }
}
