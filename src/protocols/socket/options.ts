/**
 * A TCP or UDP request's `socket` section as prepare fills it (spec 2.8), typed from the model's
 * own declaration, and where the request came from for messages.
 */
import type { z } from 'zod';
import { socketOptionsSchema } from '../../model/index.js';
import type { PreparedRequest } from '../../request/prepared.js';

export type SocketOptions = z.output<typeof socketOptionsSchema>;

export function socketOptions(prepared: PreparedRequest): SocketOptions {
  return socketOptionsSchema.parse(prepared.options ?? {});
}

/** `requests/Folder/Name.yaml: ` before a refusal, or nothing when the request has no file. */
export function wherePrefix(prepared: PreparedRequest): string {
  return prepared.path ? `requests/${prepared.path}: ` : '';
}
