/** Sends a request of a streaming kind the way a run does (prepared from a request file), for the kind tests. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
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

/**
 * A binary body file (`body: { type: binary, file }`) inside the kind tests' workspace folder (the
 * repository; `.vitest-temp/` is ignored by git), with its path as a request names it.
 */
export async function binaryBodyFile(bytes: Uint8Array): Promise<{ file: string; remove(): Promise<void> }> {
  const root = path.join(process.cwd(), '.vitest-temp');
  await fs.mkdir(root, { recursive: true });
  const folder = await fs.mkdtemp(path.join(root, 'binary-body-'));
  await fs.writeFile(path.join(folder, 'message.bin'), bytes);
  return { file: path.relative(process.cwd(), path.join(folder, 'message.bin')), remove: () => fs.rm(folder, { recursive: true, force: true }) };
}
