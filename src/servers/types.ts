/** The shapes the faces (CLI, app, runner) see of Ferry's local servers. */
import type { ServerFile, ServerKind } from '../model/index.js';
import type { TrafficLog } from './traffic.js';

/**
 * Which way a record's traffic went, seen from the server: `exchange` is a request and its answer
 * (or a whole stream or connection), `in` a message a client sent, `out` one the server sent.
 */
export type TrafficDirection = 'exchange' | 'in' | 'out';

/**
 * One entry of the traffic log, the same shape for every kind: what the faces list and print
 * without knowing the kind. What only one kind knows (an HTTP method and status, a WebSocket
 * frame's opcode, a DNS question) is in `detail`, described by the kind's module.
 */
export interface TrafficRecord<Detail = unknown> {
  kind: ServerKind;
  /** The server's id (file name under `servers/` without `.yaml`). */
  server: string;
  /** Epoch milliseconds when it began (a request's arrival, a message's receipt). */
  time: number;
  direction: TrafficDirection;
  /** One line saying what happened, e.g. `200 GET /users/42 → Get user`. */
  summary: string;
  /** Said after the sizes in parentheses, e.g. `no route`; absent for the ordinary case. */
  note?: string;
  /** How a face colours it: `error` for failures (a 5xx, a reset), `warning` for a refusal (a 4xx). */
  level: 'info' | 'warning' | 'error';
  durationMs: number;
  /** Bytes received from the client. */
  bytesIn: number;
  /** Bytes sent to the client. */
  bytesOut: number;
  detail: Detail;
  /**
   * For records that word their summary only when read (an HTTP exchange): its length in UTF-16
   * units and its UTF-8 bytes, so a printed line needs no summary string (see format.ts).
   */
  summaryLength?(): number;
  writeSummary?(out: Buffer, at: number): number;
  /** For records that are not plain objects: their fields, summary included, as JSON shows them. */
  toJSON?(): TrafficRecord<Detail>;
}

/** Something a running server wants a person to know (a reload, a broken edit, a failure). */
export interface ServerNotice {
  server: string;
  level: 'info' | 'warning' | 'error';
  message: string;
  /**
   * What happened to the server's file, for notices a branch checkout brings by the dozen (a
   * printer may gather them into one line): `deleted` (the server keeps running), `changed` (new
   * settings taken), `stopped` (its file gone, it gave way to a renamed one).
   */
  event?: 'deleted' | 'changed' | 'stopped';
}

export interface ServerOptions {
  /** Absolute workspace folder: TLS paths resolve against it; the server file is watched inside it. */
  root: string;
  /** The environment whose variables fill templates (an id under `environments/`); none = workspace variables only. */
  environment?: string;
  /** `--var key=value`: wins over every other definition. */
  overrides?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /**
   * Values set by scripts on this computer in an environment (`environment:<id>`); they win over
   * the file's values. Workspace variables give servers their saved values only (spec 8.2).
   * Secrets are never given to servers.
   */
  scriptValues?: (scope: `environment:${string}`) => Promise<Readonly<Record<string, unknown>>>;
  /** Folder for the generated localhost certificate; default: Ferry's data folder. */
  certificateDir?: string;
  /** Watch the server file and pick up edits while running (default true). */
  watch?: boolean;
  /** Shared traffic log; default: a new one per call of startServers / startServer. */
  traffic?: TrafficLog;
  /** Reloads, broken edits, failures while running. */
  onNotice?: (notice: ServerNotice) => void;
  /** TLS `certPath`/`keyPath` may point outside the workspace folder (default false). */
  allowFilesOutsideWorkspace?: boolean;
}

export interface RunningServer {
  readonly id: string;
  readonly name: string;
  readonly kind: ServerKind;
  /** The bound URL, e.g. `http://127.0.0.1:4010` or `https://localhost:54321`. */
  readonly url: string;
  /**
   * The URL a client connects to, as Ferry shows it (`ferry serve`, `--start-servers`, the app,
   * `ferry mcp`): `ws://` (`wss://`) for a WebSocket server, the Streamable HTTP endpoint
   * (`mcp.path`, `/mcp` by default) for an MCP server, else `url`.
   */
  readonly clientUrl: string;
  readonly port: number;
  readonly traffic: TrafficLog;
  /** The settings now in use (changes after a reload). */
  readonly config: ServerFile;
  /** Open client connections (keep-alive sockets, HTTP/2 sessions, event streams count once each). */
  openConnections(): number;
  /** Open event streams (SSE servers). */
  openStreams(): number;
  /**
   * SSE servers: sends one event to every open stream now, its data rendered per client from the
   * request that opened the stream (the traffic panel's send). Returns the number of streams;
   * 0 for kinds without streams.
   */
  pushEvent(data: string, name?: string): number;
  /**
   * The traffic panel's send, for every kind that can send to clients (`sendForm` present): to
   * every open client, or to `options.to`. Returns how many clients it reached (0: none open, or
   * `to` is gone). Throws a ServerError for data the kind cannot send (hex that is not hex).
   */
  send(data: string, options?: PushOptions): number;
  /** The open clients a send can go to (none for kinds that cannot send). */
  clients(): ClientInfo[];
  /** The send form's fields; undefined when the kind cannot send to clients (mock, MCP, DNS). */
  readonly sendForm: SendForm | undefined;
  /** Re-reads the server file and variables now, as an edit would. */
  reload(): Promise<void>;
  /** Stops listening, ends open connections and streams; resolves when all is closed. */
  stop(): Promise<void>;
}

/** Where and how the traffic panel's send goes. */
export interface PushOptions {
  /** One client's id (from `clients()`); absent = every open client. */
  to?: string;
  /** The event name, for kinds whose sendForm has `event` (SSE, Socket.IO). */
  name?: string;
  /**
   * Fills `{{variables}}` of the typed text as the application fills a request's (spec 8.2: text
   * typed in a traffic panel for WebSocket, TCP, UDP or relay clients). A kind calls it where the
   * spec says the application fills the text; the SSE server renders its own per client instead.
   */
  fill?: (text: string) => string;
  /**
   * Told of each client skipped because it does not read what it is sent: more than
   * MAX_PUSH_WAITING_BYTES wait unsent for it (kinds/messages/not-reading.ts).
   */
  notReading?: (client: string, waitingBytes: number) => void;
}

/** One open client, as the panel lists it. */
export interface ClientInfo {
  /** What `PushOptions.to` takes. */
  id: string;
  /** Shown to people: the peer address as the traffic records name it. */
  label: string;
}

/** The fields of the panel's send form for a kind. */
export interface SendForm {
  /** An event name goes with the data (SSE, Socket.IO). */
  event: boolean;
  /** The data is written as hex byte pairs (TCP and UDP servers with `encoding: hex`). */
  hex: boolean;
}
