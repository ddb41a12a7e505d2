/**
 * The one interface every request kind implements (DESIGN "Kinds plug in"): its preparation rules
 * (request layer's `KindRules`), how `ferry ls` tags it, whether it exports as code, and `send`,
 * which turns a prepared request into a kind-neutral result. The runner, `ferry ls`, code export,
 * reports and the app ask the table in registry.ts; nothing else branches on a kind.
 */
import type { KindRules, PreparedRequest } from '../request/prepared.js';
import type { Face } from '../request/url.js';
import type { CookieStore } from './http/cookie-jar.js';
import type { HttpAgents } from './http/http-agents.js';
import type { ProgramPolicy } from './programs.js';
import type { KindCatalog } from './catalog.js';
import type { ComposerSpec, ConnectHandlers, LiveConnection } from './live/types.js';
import type { StreamMessage, StreamSummary } from './stream/messages.js';

/** What every send of a run or session shares, whatever the kind. */
export interface SendContext {
  /** HTTP connection pools (HTTP, SSE, DNS over HTTPS). */
  agents: HttpAgents;
  /** The cookie jar; without one no cookies are sent or kept. */
  cookies?: CookieStore;
  /** Most megabytes (MiB) of response body read; 0 = no limit (application setting `maxResponseMb`). */
  maxResponseMb: number;
  /** The workspace folder: relative files (proto files, program folders) resolve against it. */
  workspaceRoot: string;
  /** Files outside the workspace folder may be read (`--allow-files-outside` or the setting). */
  allowFilesOutside: boolean;
  /** Which programs a request may start on this computer (MCP over stdio); without one, none start. */
  programs?: ProgramPolicy;
  /** Each stream message as it is read (the app shows SSE events as they arrive); kinds that stream call it. */
  onMessage?: (message: StreamMessage) => void;
  /** Who shows a refusal (the app's page, or the command line when absent): a refused program names that face's way to allow it. */
  face?: Face;
}

export interface ProtocolTimings {
  /** 0 when the connection was reused, the host is an IP address, or the kind has no such step. */
  dnsMs: number;
  connectMs: number;
  tlsMs: number;
  /** From the start of the send to the first byte (HTTP) or first message of the answer. */
  firstByteMs: number;
  totalMs: number;
}

/** One send's answer, for any kind; one adapter (runner/response.ts) maps it into the run result and `pm.response`. */
export interface ProtocolResult {
  /**
   * The outcome: an HTTP status, a gRPC status code, a DNS rcode… with its text (`OK`, `NXDOMAIN`).
   * `ok` is the verdict when the request has no tests of its own.
   */
  outcome: {
    status: number;
    text: string;
    ok: boolean;
    /** The verdict rule in words, for reports of a request that failed on its outcome alone; HTTP's (`fails at 400 and above`) when absent. */
    rule?: string;
    /**
     * The outcome as reports show it, where `status text` is not all of it: gRPC's code and name
     * with the server's status message (`5 NOT_FOUND: no such user`). Reports print it wherever they
     * show the status (the terminal's request and `--verbose` lines, the app's status, the JSON
     * report's `statusLabel`, JUnit's failure message); names (JUnit test cases) keep `status text`.
     * Absent: `status text`, and `--verbose` writes the status line of an answer carried over HTTP
     * (`httpVersion` set) as HTTP's, `HTTP/1.1 200 OK`.
     */
    label?: string;
    /** The server's own words on the outcome, where the kind has them apart from the body: gRPC's status message. Scripts read it (`pm.response.statusMessage`). */
    message?: string;
    /**
     * The protocol has no status code: `status` is Ferry's (MCP's 0 and 1, for `pm.response.code`),
     * so reports leave it out where they name the status (JUnit's `Add - status isError`), as `label` does.
     */
    noCode?: true;
  };
  /** In wire order, where the kind has headers (HTTP, SSE, upgrade answers, gRPC metadata); else empty. */
  headers: [string, string][];
  /** HTTP: the request headers as sent, those the client added included and marked `true` (post-response scripts see them, as in Postman, as `system` headers). */
  sentHeaders?: [name: string, value: string, system?: true][];
  /** Metadata sent after the answer, where the kind has it (gRPC's trailers), in wire order; scripts read it (`pm.response.trailers`). */
  trailers?: [string, string][];
  /** The answer's bytes as scripts read them (`pm.response.text()`). */
  body: Uint8Array;
  /**
   * The media type of `body` when it is not the headers' Content-Type: gRPC's body is the message
   * as JSON while its metadata says `application/grpc`, which would make reports call it binary.
   */
  bodyType?: string;
  /** Bytes of the answer as received. */
  bodySize: number;
  /** Headers and body as received. */
  size: number;
  /** The URL that answered (after redirects), or the target as sent. */
  url: string;
  /** HTTP: the redirects followed to `url`, in order (each the URL that answered with a redirect, and its status); absent when none. */
  redirects?: Array<{ url: string; status: number }>;
  timings: ProtocolTimings;
  /** Streaming kinds: messages kept (the first 1,000) and how reading stopped. */
  messages?: StreamMessage[];
  stream?: StreamSummary;
  /** `1.1`, `2`… for kinds carried over HTTP. */
  httpVersion?: string;
  remoteAddress?: string;
  /** Kind-specific facts for reports (DNS flags and records, gRPC trailers…); JSON-safe. */
  detail?: Record<string, unknown>;
}

export interface RequestKindModule extends KindRules {
  /** `ferry ls` column: HTTP's method, `grpc pkg.Svc/Method`, `dns MX`, or the kind alone. */
  tag(method: string): string;
  /** Code export (spec 4.7) takes HTTP requests only. */
  exportsAsCode: boolean;
  /** Adds what this kind always sends unless the request sets it (SSE: `Accept: text/event-stream`). */
  shape?(prepared: PreparedRequest): PreparedRequest;
  /**
   * Sends and reads the answer. Fails with a `SendError` (one line: what, where, what to do) when
   * there is no usable answer; `signal` cancels and closes the connection. Absent for a kind not
   * built yet: runs report its requests as skipped (registry.ts `notRunYet`). A client with a
   * library of its own is imported inside `send`, so commands that never send the kind (every
   * `ferry ls`, `--help`) do not load it.
   */
  send?(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult>;
  /**
   * Loads the library `send` imports, ahead of the first send: a run that starts the script
   * sandbox meanwhile (its WebAssembly compiling on background threads) loads it on the main
   * thread during that compile instead of after the scripts. Sends nothing; optional.
   */
  loadClient?(): Promise<void>;
  /**
   * Opens a live connection (the app keeps it open while the user works; live/types.ts), prepared
   * exactly as `send` prepares the request and opened with the same connection code as `send`.
   * Resolves once the handshake is done; fails with a `SendError` as `send` would (`signal`
   * cancels connecting). It does not send the request's message: that is the composer's draft.
   * Absent for kinds that have no live connection.
   */
  connect?(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection>;
  /** With `connect`: what the app's composer offers for this kind (formats, fields, operations). */
  composer?: ComposerSpec;
  /**
   * What the request's target offers (catalog.ts): gRPC methods, MCP tools… for the app's picker.
   * Prepared and refused as `send` is (a program not allowed is a `ProgramRefusedError`).
   */
  describe?(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<KindCatalog>;
}
