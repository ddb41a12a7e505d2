/** What a Socket.IO request emits and connects with, read from JSON text (spec 2.5, 2.8). */
import type { PreparedRequest } from '../../request/prepared.js';
import { SendError } from '../send-error.js';
import type { MessageInput } from '../stream/messages.js';

function where(prepared: PreparedRequest): string {
  return prepared.path ? `requests/${prepared.path}` : 'the request';
}

/**
 * `body.text` as the emitted arguments: a JSON array is several arguments, any other JSON value one;
 * empty is none. A binary body (a file) is one binary argument, as the live composer's hex and
 * Base64 messages are: socket.io sends it as an attachment, a Buffer on the server.
 */
export function emitArguments(prepared: PreparedRequest): unknown[] {
  if (prepared.body.kind !== 'bytes') return [];
  if (!prepared.body.isText) return prepared.body.bytes.length > 0 ? [Buffer.from(prepared.body.bytes)] : [];
  const text = Buffer.from(prepared.body.bytes).toString('utf8');
  if (text.trim() === '') return [];
  const value = parseJson(text, `${where(prepared)}: body.text is not valid JSON`, 'Socket.IO emits the JSON value as the arguments (an array is several arguments).');
  return Array.isArray(value) ? value : [value];
}

/** `socketio.auth` as the connection's auth payload: a JSON object, or none when empty. */
export function authPayload(prepared: PreparedRequest, auth: string): Record<string, unknown> | undefined {
  if (auth.trim() === '') return undefined;
  const value = parseJson(auth, `${where(prepared)}: socketio.auth is not valid JSON`, 'Write the auth payload as a JSON object, such as {"token": "{{token}}"}.');
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new SendError(`${where(prepared)}: socketio.auth must be a JSON object, such as {"token": "{{token}}"}.`, 'other');
  }
  return value as Record<string, unknown>;
}

function parseJson(text: string, what: string, todo: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SendError(`${what} (${(error as Error).message}). ${todo}`, 'other');
  }
}

/**
 * An event as the message model keeps it: `args` JSON-safe (binary arguments as base64), and
 * `text` the one argument (a string as is, else as JSON) or all of them as a JSON array.
 */
export function eventMessage(event: string, args: readonly unknown[]): MessageInput {
  const safe = args.map(jsonSafe);
  const binary = args.length === 1 && isBytes(args[0]);
  const text = safe.length === 1 ? (typeof safe[0] === 'string' ? safe[0] : JSON.stringify(safe[0]) ?? '') : JSON.stringify(safe);
  return { event, args: safe, text, ...(binary ? { binary: true as const } : {}) };
}

function isBytes(value: unknown): value is Uint8Array | ArrayBuffer {
  return value instanceof Uint8Array || value instanceof ArrayBuffer;
}

function jsonSafe(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  return value;
}
