/**
 * The format's constants that need no schema. Importing them loads no zod: a `ferry ls` whose
 * files all come from the listing cache builds no schema at all (docs/workspace.md).
 */
export const REQUEST_KINDS = ['http', 'websocket', 'socketio', 'sse', 'grpc', 'tcp', 'udp', 'dns', 'mqtt', 'mcp'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

export const WORKSPACE_FILE = 'ferry.yaml';
export const FORMAT_VERSION = 1;

/** A `version` written in quotes (`"2"`): the number its text gives, else undefined. */
export function quotedVersionNumber(input: unknown): number | undefined {
  return typeof input === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(input) ? Number(input) : undefined;
}

/**
 * Why a workspace file written by a newer Ferry (spec 7, 9.1) is refused, or undefined when it is
 * not one. A quoted newer version (`"2"`) is refused at once too: telling the user to drop the
 * quotes would only lead to this refusal.
 */
export function newerFormatProblem(data: unknown): string | undefined {
  const written = (data as { version?: unknown } | null)?.version;
  const version = typeof written === 'number' ? written : quotedVersionNumber(written);
  if (version === undefined || !(version > FORMAT_VERSION)) return undefined;
  return `This workspace was created by a newer version of Ferry (format version ${version}; this Ferry reads version ${FORMAT_VERSION}). Update Ferry to open it.`;
}

/** The Content-Type of a multipart file part that sets none: what Ferry sends, and what code export writes. */
export const FILE_PART_CONTENT_TYPE = 'application/octet-stream';

/** The `seq` of a request or folder that gives none (it orders among its siblings by it). */
export const DEFAULT_SEQ = 0;

/**
 * The longest wait a time field may name (about 24.8 days): Node's timers hold 2^31 - 1 ms, and a
 * longer one fires at once (a 3,000,000,000 ms timeout timed out immediately).
 */
export const MAX_TIMER_MS = 2_147_483_647;
