/**
 * Live connections (issue 26): a request of a streaming kind opened and kept open while someone
 * works in the app, instead of `send`'s connect → send the file's messages → read by the stop
 * rule → close. Messages both ways are the one message model (`StreamMessage`); what the user
 * composes is an `OutgoingMessage`; kind-specific operations (MQTT subscribe, gRPC half-close,
 * MCP calls) go through one generic `call`, each kind listing the operations it takes, so the
 * session and the app route them without naming a kind.
 */
import type { StreamMessage } from '../stream/messages.js';

/** How the composer's text becomes bytes: UTF-8 text, JSON (checked, sent as text), or binary written as hex pairs or base64. */
export type MessageFormat = 'text' | 'json' | 'hex' | 'base64';

export const MESSAGE_FORMATS: readonly MessageFormat[] = ['text', 'json', 'hex', 'base64'];

/** A message the user sends on a live connection. Fields a kind does not use are ignored by it. */
export interface OutgoingMessage {
  format: MessageFormat;
  text: string;
  /** Socket.IO: the event emitted (required there). Its arguments are `text`: JSON (an array is several arguments), else one argument. */
  event?: string;
  /** Socket.IO: ask for an acknowledgement; it arrives as a received `ack` message. */
  ack?: boolean;
  /** MQTT: the topic published to (required there), QoS and retain. */
  topic?: string;
  qos?: number;
  retain?: boolean;
}

/**
 * Composer fields beyond format and text, by name; the app shows the ones a kind lists (as
 * `fields` of `send` or `params` of an operation). MCP: `name` (a tool or prompt), `arguments`
 * (a JSON object, as text), `uri` (a resource).
 */
export type ComposerField = 'event' | 'ack' | 'topic' | 'qos' | 'retain' | 'name' | 'arguments' | 'uri';

/** A kind-specific operation of a live connection, and the parameters it takes (shown as composer fields). */
export interface LiveOperation {
  /** `subscribe`, `unsubscribe` (MQTT); `end` (gRPC half-close); `callTool`, `readResource`… (MCP). */
  name: string;
  /** Button text. */
  label: string;
  params: ComposerField[];
}

/** What the app's composer offers for a kind: static, so the page can draw it before connecting. */
export interface ComposerSpec {
  /** Formats of `send`; empty for kinds that only receive (SSE, GraphQL subscriptions). */
  formats: MessageFormat[];
  fields: ComposerField[];
  operations: LiveOperation[];
  /**
   * `always`: every request of the kind connects. `graphqlSubscription`: only requests whose body
   * is a GraphQL subscription (HTTP).
   */
  when: 'always' | 'graphqlSubscription';
}

/** How a live connection ended: closed by this side (`client`), by the peer (`peer`, a subscription's completion too), or an error. */
export interface ConnectionEnd {
  by: 'client' | 'peer' | 'error';
  /** One line for people: "closed by the server (close code 1000)", the error's message… */
  message: string;
}

/** Facts of the opened connection for the app to show: the upgrade answer's headers, subprotocol, transport, client id… JSON-safe. */
export interface ConnectionInfo {
  url: string;
  headers: [string, string][];
  httpVersion?: string;
  remoteAddress?: string;
  detail?: Record<string, unknown>;
}

export interface ConnectHandlers {
  /** Every message both ways, in order, as it happens (nothing is kept by the connection). */
  onMessage(message: StreamMessage): void;
}

export interface LiveConnection {
  readonly info: ConnectionInfo;
  /** Sends one message; fails with a `SendError` (one line) when it cannot be sent (closed, invalid hex, a kind that only receives…). */
  send(message: OutgoingMessage): Promise<void>;
  /**
   * A kind-specific operation (see `ComposerSpec.operations`), with JSON parameters; resolves
   * with a JSON-safe answer (or undefined). An operation the kind does not take fails with a
   * `SendError` naming the ones it does.
   */
  call(operation: string, params: Record<string, unknown>): Promise<unknown>;
  /** Closes (politely where the protocol has a close); resolves once closed. Closing twice is harmless. */
  close(): Promise<void>;
  /** Settles once, never rejects: how the connection ended. */
  readonly ended: Promise<ConnectionEnd>;
  readonly isOpen: boolean;
}
