/**
 * One way to turn a kind's opened stream session into a `LiveConnection`: the kind opens its
 * connection with the same code its `send` uses (a live `StreamSession` in place of one with the
 * stop rule) and gives how to send, its operations and how the peer's end reads; this wraps
 * them with the checks every kind shares (closed, an operation it does not have) and the end.
 */
import { SendError } from '../send-error.js';
import type { MessageStream, StreamStop } from '../stream/messages.js';
import type { StreamSession } from '../stream/session.js';
import type { ConnectionEnd, ConnectionInfo, LiveConnection, OutgoingMessage } from './types.js';

export type LiveOperationHandler = (params: Record<string, unknown>, messages: MessageStream) => Promise<unknown>;

export interface LiveParts {
  /** `a WebSocket connection`: the noun refusals use. */
  noun: string;
  /** Read once the handshake is done. */
  info(): ConnectionInfo;
  /** Absent for kinds that only receive: `send` is refused with a message saying so. */
  send?(message: OutgoingMessage, messages: MessageStream): Promise<void>;
  operations?: Record<string, LiveOperationHandler>;
  /** The peer's end in words ("the server closed it (close code 1000)"); `stop` is `closed`, `complete` or `error`. */
  peerEnd?(stop: StreamStop | undefined): string;
}

/**
 * Waits for the handshake (failing with the session's error, the connection already closed),
 * then gives the live connection. The session's `onClose` closers run however it ends.
 */
export async function openLive(session: StreamSession, parts: LiveParts): Promise<LiveConnection> {
  // Started now so the closers run whatever ends the session, before or after the handshake.
  const finished = session.finish().then(
    () => undefined,
    (error: unknown) => (error instanceof SendError ? error : new SendError(String((error as Error)?.message ?? error), 'other')),
  );
  try {
    await session.opened;
  } catch (error) {
    await finished;
    throw error;
  }
  const info = parts.info();
  let byClient = false;
  const ended: Promise<ConnectionEnd> = finished.then((error) => {
    if (byClient) return { by: 'client', message: 'closed by you' };
    if (error) return { by: 'error', message: error.message };
    return { by: 'peer', message: parts.peerEnd?.(session.messages?.stoppedBy) ?? 'the peer closed the connection' };
  });
  const open = () => !session.isOver;
  const refuseClosed = (what: string) => {
    if (!open()) throw new SendError(`${parts.noun} is closed, so ${what}; connect again first.`, 'other');
  };
  return {
    info,
    get isOpen() {
      return open();
    },
    ended,
    async send(message) {
      refuseClosed('the message was not sent');
      if (!parts.send) throw new SendError(`${parts.noun} only receives: there is nothing to send on it.`, 'unsupported');
      await parts.send(message, session.messages!);
    },
    async call(operation, params) {
      refuseClosed(`"${operation}" was not done`);
      const handler = Object.hasOwn(parts.operations ?? {}, operation) ? parts.operations![operation] : undefined;
      if (!handler) {
        const names = Object.keys(parts.operations ?? {});
        throw new SendError(`${parts.noun} has no operation "${operation}" (${names.length > 0 ? `it has: ${names.join(', ')}` : 'it has none'}).`, 'unsupported');
      }
      return handler(params, session.messages!);
    },
    async close() {
      if (open()) {
        byClient = true;
        session.messages?.stop('closed');
      }
      await ended;
    },
  };
}

/** A required string parameter of an operation, or a one-line refusal naming it. */
export function stringParam(params: Record<string, unknown>, name: string, operation: string): string {
  const value = params[name];
  if (typeof value !== 'string' || value === '') throw new SendError(`${operation} needs "${name}" (a non-empty string).`, 'invalid');
  return value;
}
