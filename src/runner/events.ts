/**
 * The one shape every reporter reads (cli, json, junit, and the app): run events and the
 * result of each send. A reporter is one file that turns these into its output.
 */

import type { StreamMessage, StreamSummary } from '../protocols/index.js';
import type { CapturedResponse } from './response-capture.js';

export interface TestOutcome {
  name: string;
  passed: boolean;
  /** A skipped test (`pm.test.skip`) is neither passed nor failed. */
  skipped?: boolean;
  /** Why it failed. */
  message?: string;
}

export interface RequestResult {
  /** Request path relative to `requests/` (`Folder/Name.yaml`). */
  path: string;
  name: string;
  kind: string;
  /** Folder path relative to `requests/` (`''` for the collection root). */
  folder: string;
  /** The folder's display names from the root, for reports (`['Users', 'Admin']`). */
  folderNames: string[];
  method: string;
  /** The URL sent (after variables), or as written when it could not be prepared. */
  url: string;
  status?: number;
  statusText?: string;
  /** The status as reports show it, when the kind gives more than `status statusText` (gRPC's status message); protocols/kind.ts `outcome.label`. */
  statusLabel?: string;
  /** Whether the outcome passes a request without tests (the kind's rule: HTTP below 400, DNS NOERROR…). */
  statusOk?: boolean;
  /** That rule in words, when the kind has its own (HTTP's `fails at 400 and above` otherwise). */
  statusRule?: string;
  /** `status` is Ferry's number, not the protocol's (MCP); protocols/kind.ts `outcome.noCode`. */
  statusNoCode?: true;
  /** Wall-clock milliseconds of the send (request and response), 0 when nothing was sent. */
  durationMs: number;
  /** Response size in bytes (headers and body as received). */
  size?: number;
  /** Why the request failed without a usable response (network, preparation, scripts). */
  error?: string;
  /** 0-based iteration. */
  iteration: number;
  tests: TestOutcome[];
  /** The run's verdict on this request. */
  passed: boolean;
  /** Not sent: a script skipped it, or its kind cannot be run. */
  skipped?: string;
  /** Console lines of its scripts. */
  console: string[];
  startedAt: string;
  httpVersion?: string;
  remoteAddress?: string;
  timings?: { dnsMs: number; connectMs: number; tlsMs: number; firstByteMs: number; totalMs: number };
  /** How many times `settings.repeat` sent it. */
  attempts?: number;
  /** Streaming requests (SSE answered with an event stream, WebSocket, MQTT…): messages received, and why reading stopped. */
  stream?: StreamSummary;
  /** Streaming kinds: the messages sent and received (the first 1,000; SSE: the events read). */
  messages?: StreamMessage[];
  /** Kind-specific facts of the answer (DNS flags and records, gRPC trailers…). */
  detail?: Record<string, unknown>;
  /** Headers and the start of the body, when the run was asked to keep them (`--verbose`, `--report-bodies`). */
  response?: CapturedResponse;
}

export interface RunSummary {
  requests: number;
  failedRequests: number;
  skippedRequests: number;
  tests: number;
  failedTests: number;
  durationMs: number;
  /** The iterations begun: fewer than the run asked for when `--bail` or Ctrl-C ended it early. */
  iterations: number;
}

export type RunEvent =
  | { type: 'start'; workspace: string; environment?: string; requestCount: number; iterations: number; startedAt: string }
  | { type: 'iteration'; iteration: number; iterations: number }
  /** A request is about to run: `position` of `total` in this iteration (1-based). */
  | { type: 'sending'; path: string; name: string; position: number; total: number; iteration: number; iterations: number }
  | { type: 'request'; result: RequestResult }
  | { type: 'warning'; message: string }
  /** No results here: reporters keep what they need from the `request` events (a run may be millions long). */
  /**
   * `interrupted`: Ctrl-C (or the app's Stop) ended it; the requests after the one in flight were not run.
   * `stoppedBy` says what did, when interrupted: `Ctrl-C` (also a stop that gives no name), `SIGTERM`.
   */
  | { type: 'end'; summary: RunSummary; bailed: boolean; interrupted: boolean; stoppedBy?: string };

export interface Reporter {
  onEvent(event: RunEvent): void;
  /** Writes files or final output; called once after the `end` event. */
  finish?(): Promise<void>;
}
