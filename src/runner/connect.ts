/**
 * Opening a request as a live connection (issue 26): checked and prepared exactly as a send
 * (`prepareItem`: pre-request scripts, inheritance, variables, auth, cookies), then handed to the
 * kind's `connect` with the same send context. No post-response scripts: a live connection has
 * no end result to test.
 */
import { formatWarning } from '../workspace/index.js';
import type { RunItem } from '../workspace/index.js';
import { noLiveConnection, SendError, type ConnectHandlers, type LiveConnection } from '../protocols/index.js';
import type { RunContext } from './context.js';
import { brokenFolderFile, prepareItem, sendContextOf } from './send.js';

/** A request that cannot be opened: one line saying why and what to do. */
export class ConnectError extends Error {
  override name = 'ConnectError';
}

export interface ConnectedItem {
  connection: LiveConnection;
  /** The URL and method as prepared (variables filled). */
  url: string;
  method: string;
  /** Pre-request script errors and console lines: the connection was opened anyway, as a send would have been sent. */
  scriptErrors: string[];
  console: string[];
}

export async function connectItem(item: RunItem, ctx: RunContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<ConnectedItem> {
  if (item.node.type === 'broken') throw new ConnectError(`${formatWarning(item.node.warning)} (fix the file to connect)`);
  const folderProblem = brokenFolderFile(item, ctx);
  if (folderProblem) throw new ConnectError(`${formatWarning(folderProblem)} (the folder's auth, headers and scripts are unknown; fix the file to connect)`);
  const node = item.node;
  const refused = noLiveConnection(node.request.kind);
  if (refused) throw new ConnectError(refused);
  const ready = await prepareItem(item, node, { ...ctx, signal }, { iteration: 0, iterationCount: 1 });
  if (!ready.ready) {
    const { result } = ready.outcome;
    throw new ConnectError(result.skipped ? `not connected: ${result.skipped}.` : (result.error ?? `requests/${node.path} could not be prepared.`));
  }
  try {
    const connection = await ready.kind.connect!(ready.prepared, sendContextOf(ctx), handlers, signal);
    return { connection, url: ready.prepared.url, method: ready.prepared.method, scriptErrors: ready.errors, console: ready.result.console };
  } catch (error) {
    if (error instanceof SendError) throw new ConnectError(error.message);
    throw error;
  }
}
