/**
 * The shapes the app's server and its web UI exchange: JSON over HTTP and the live channel.
 * Types only (the UI must not bundle Node code); the core's own types are reused, never copied.
 */
import type { RequestFile } from '../../model/index.js';
import type { ComposerField, ComposerSpec, ConnectionEnd, CookieInfo, OutgoingMessage, StreamMessage } from '../../protocols/index.js';
import type { OpenConnection } from '../../session/index.js';
import type { RequestResult, RunEvent, RunSummary } from '../../runner/index.js';
import type { TrafficRecord } from '../../servers/index.js';

export type { ComposerField, ComposerSpec, ConnectionEnd, CookieInfo, OpenConnection, OutgoingMessage, RequestFile, RequestResult, RunEvent, RunSummary, StreamMessage };

/** A live connection as the page lists it: open, or ended (the last few ended are kept with their messages). */
export interface ConnectionView extends OpenConnection {
  /** Messages both ways so far (the server keeps the last `CONNECTION_MESSAGES_KEPT`). */
  messageCount: number;
  ended?: ConnectionEnd;
}

/** A kind that connects, as the composer draws it: its composer, and the request file's option section for its fields (`mqtt`, `socketio`, `socket`). */
export type LiveKindView = ComposerSpec & { options?: string };

/** Messages the app keeps per live connection (the newest); older ones are counted only. */
export const CONNECTION_MESSAGES_KEPT = 1000;

/** One row of the sidebar tree. */
export type TreeItem =
  | { type: 'folder'; path: string; name: string; children: TreeItem[] }
  | { type: 'request'; path: string; name: string; kind: string; method: string; tag: string; removed: boolean }
  | { type: 'broken'; path: string; message: string };

export interface EnvironmentInfo {
  id: string;
  name: string;
}

export interface WorkspaceInfo {
  name: string;
  root: string;
  tree: TreeItem & { type: 'folder' };
  environments: EnvironmentInfo[];
  activeEnvironment: string | null;
  warnings: string[];
}

/** The answer shown in the response viewer: the run result plus the response itself. */
export interface SendResponse {
  result: RequestResult;
  response?: {
    headers: [string, string][];
    /** The body as base64 (at most `BODY_LIMIT` bytes of it). */
    bodyBase64: string;
    bodySize: number;
    /** True when the body was longer than what is sent to the page. */
    truncated: boolean;
    contentType: string;
  };
}

export interface CodeTarget {
  id: string;
  lang: string;
  lib: string;
  language: string;
  library: string;
  default: boolean;
}

/** What an import will create, shown before anything is written. */
export interface ImportPreview {
  kind: string;
  name: string;
  requests: number;
  folders: number;
  environments: number;
  variables: number;
  items: string[];
  notes: string[];
}

export interface ImportDone {
  name: string;
  requests: number;
  folders: number;
  environments: number;
  variables: number;
  notes: string[];
  written: string[];
}

/** Events of the one live channel. */
export type LiveEvent =
  /** Files of the workspace changed (on disk, by anyone); `paths` relative to the workspace folder. */
  | { type: 'changed'; paths: string[] }
  | { type: 'run'; runId: string; event: RunEvent }
  /** New records of the traffic log of the servers the app started. */
  | { type: 'traffic'; records: TrafficView[] }
  /** A stream message of a send in flight (SSE events as they arrive); `sendId` is the send's id. */
  | { type: 'message'; sendId: string; message: StreamMessage }
  /**
   * Messages of a live connection (both ways), batched; `skipped` counts messages of this batch
   * left out to keep the page responsive (they stay counted in `messageCount`).
   */
  | { type: 'connectionMessages'; connectionId: string; messages: StreamMessage[]; skipped: number }
  /** A live connection ended (closed by the page, by the peer, or an error). */
  | { type: 'connectionEnded'; connectionId: string; end: ConnectionEnd };

/** Bodies larger than this reach the page in part (spec: large bodies must not freeze it). */
export const BODY_LIMIT = 2 * 1024 * 1024;

/** One variable in the environment editor; a secret one never carries its value to the page. */
export interface EnvironmentVariableView {
  key: string;
  value: string;
  enabled: boolean;
  secret: boolean;
  stored: boolean;
}

/** One row of the servers panel: a server file of the workspace and, when the app started it, where it listens. */
export interface ServerView {
  id: string;
  name: string;
  kind: string;
  host: string;
  /** The port in the file (0 = a free one when started). */
  port: number;
  running: boolean;
  url?: string;
  connections?: number;
  /** The file does not parse: why. */
  error?: string;
}

/** One traffic record as the panel lists it (the kind's own detail left out). */
export type TrafficView = Omit<TrafficRecord, 'detail'>;
