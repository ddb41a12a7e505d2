/** The API's route table shape, and JSON in and out. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A refusal the page shows as it is: `status` 400 for bad input, 404 for a missing item, 409 for a conflict. */
export class ApiError extends Error {
  /** `details`: more for the page than the message, e.g. where in an editor the problem is; sent beside `error`. */
  constructor(readonly status: number, message: string, readonly details?: Record<string, unknown>) {
    super(message);
  }
}

export interface RouteInput {
  query: URLSearchParams;
  body: unknown;
  /** Ends when the page goes away (the request's connection closes). */
  signal: AbortSignal;
  /**
   * The open page (browser tab) that made the call (its `x-ferry-page` header, shared/api.ts
   * PAGE_HEADER): what only concerns this call, such as its wait for another process's lock, is
   * said to that page alone. Undefined for a caller that names none.
   */
  page: string | undefined;
}

export type Handler = (input: RouteInput) => Promise<unknown>;

/** `'GET /api/workspace'` → handler. */
export type Routes = Record<string, Handler>;

/** The most a route reads of a request body, and its refusal past that. */
export interface BodyLimit {
  bytes: number;
  refusal(): ApiError;
}

/** Request bodies are JSON edits (a route taking an import's text has its own limit: server.ts). */
const EDITS: BodyLimit = { bytes: 60 * 1024 * 1024, refusal: () => new ApiError(413, 'The request body is larger than 60 MB.') };

export async function readJson(req: IncomingMessage, limit: BodyLimit = EDITS): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit.bytes) throw limit.refusal();
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ApiError(400, 'The request body is not JSON.');
  }
  // Every route reads named fields of an object; `null`, a list or a number would fail inside it.
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'The request body must be a JSON object ({…}).');
  return body;
}

/** A route's answer already serialized (a large value built once and served many times). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A route's answer that is a file to save (a response body), not JSON. */
export class Download {
  constructor(readonly body: Uint8Array, readonly fileName: string, readonly contentType = 'application/octet-stream') {}
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  if (value instanceof Download) {
    // Always an attachment, never rendered: the bytes are whatever a server answered.
    res.writeHead(status, {
      'content-type': 'application/octet-stream', 'content-length': String(value.body.byteLength), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
      'content-disposition': `attachment; filename="${value.fileName.replace(/[^\w.-]/g, '_')}"`,
    });
    res.end(value.body);
    return;
  }
  const text = value instanceof RawJson ? value.text : JSON.stringify(value ?? null);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/** A string field of a JSON body, or a 400 naming it. */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'string') throw new ApiError(400, `"${name}" is missing (a string is expected).`);
  return value;
}

export function optionalField(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : undefined;
}
