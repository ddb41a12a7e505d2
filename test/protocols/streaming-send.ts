/** Sends a request of a streaming kind the way a run does (prepared from a request file), for the kind tests. */
import { requestSchema } from '../../src/model/index.js';
import { requestKind, type ProtocolResult } from '../../src/protocols/index.js';
import type { RequestKind } from '../../src/model/index.js';
import { sendWith } from './kind-cases.js';

export function sendRequest(kind: RequestKind, fields: Record<string, unknown>, signal?: AbortSignal): Promise<ProtocolResult> {
  const request = requestSchema.parse({ name: 'stream', kind, ...fields, settings: { timeoutMs: 5000, ...(fields.settings as object | undefined) } });
  return sendWith(requestKind(kind), request, signal);
}

export { failure } from './kind-cases.js';

export const received = (result: ProtocolResult) => (result.messages ?? []).filter((m) => m.direction === 'received');
