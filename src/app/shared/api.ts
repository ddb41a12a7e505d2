/**
 * The shapes the app's server and its web UI exchange: JSON over HTTP and the live channel.
 * Types only (the UI must not bundle Node code); the core's own types are reused, never copied.
 */
import type { HistoryEntry } from '../../appdata/index.js';
import type { FolderFile, FormField, RequestFile, ServerFile } from '../../model/index.js';
import type { CatalogEntry, ComposerField, ComposerSpec, ConnectionEnd, CookieInfo, KindCatalog, OutgoingMessage, StreamMessage } from '../../protocols/index.js';
import type { OpenConnection } from '../../session/index.js';
import type { RequestResult, RunEvent, RunSummary } from '../../runner/index.js';
import type { ClientInfo, SendForm, TrafficRecord } from '../../servers/index.js';
import type { RequestChange, RequestRef, UpdatePlan } from '../../importers/openapi/update/index.js';
import type { Warning } from '../../workspace/types.js';
import type { LoadEvent } from './load-api.js';

export type { CatalogEntry, ClientInfo, ComposerField, ComposerSpec, ConnectionEnd, CookieInfo, KindCatalog, OpenConnection, OutgoingMessage, RequestChange, RequestFile, RequestRef, RequestResult, RunEvent, RunSummary, SendForm, ServerFile, StreamMessage };
export type * from './load-api.js';

/** A live connection as the page lists it: open, or ended (the last few ended are kept with their messages). */
export interface ConnectionView extends OpenConnection {
  /** Messages both ways so far (the server keeps the last `CONNECTION_MESSAGES_KEPT`). */
  messageCount: number;
  ended?: ConnectionEnd;
}

/** A kind that connects, as the composer draws it: its composer, and the request file's option section for its fields (`mqtt`, `socketio`, `socket`). */
export type LiveKindView = ComposerSpec & { options?: string };

/**
 * `GET /api/kinds`: a request kind as the editor draws it: the kind table's rules (how `url` and
 * `method` are read, the method box's own choices) and the fields of its option section (spec 2.8).
 */
export interface KindView {
  /** `a gRPC request`. */
  noun: string;
  url: 'url' | 'text';
  schemes: readonly string[];
  /** `http`: HTTP methods; `text`: typed (or `methodChoices`); `none`: no method box. */
  method: 'http' | 'text' | 'none';
  methodChoices?: readonly string[];
  /** The request file's option section (`mqtt`, `socket`…) and its fields in written order. */
  options?: string;
  fields?: FormField[];
  /** Which auth the kind sends when not every type (KindRules.sendsAuth): `basic` only, or `none`. */
  sendsAuth?: 'basic' | 'none';
  /** False when the kind sends no headers (KindRules.sendsHeaders). */
  sendsHeaders?: false;
}
export type { FormField };

/** Messages the app keeps per live connection (the newest); older ones are counted only. */
export const CONNECTION_MESSAGES_KEPT = 1000;

/** One row of the sidebar tree. */
export type TreeItem =
  /** `openapi`: imported from an OpenAPI document, so it can be updated from a new version (4.5). */
  | { type: 'folder'; path: string; name: string; children: TreeItem[]; openapi?: boolean }
  | { type: 'request'; path: string; name: string; kind: string; method: string; tag: string; removed: boolean }
  /** `code`: why the file was not read, where it says one (its warning's, as `ferry ls --json` gives it). */
  | { type: 'broken'; path: string; message: string; code?: Warning['code'] };

/**
 * The tree as `GET /api/workspace?tree=compact` sends it: each item's own file name (`f`) instead
 * of its full path, and defaults left out (kind `http`, a tag equal to the method, not removed).
 * A 10,000-request tree is about a third of the size of `TreeItem`s, so the page opens sooner;
 * `expandTree` (web/tree.ts) turns it back into `TreeItem`s.
 */
export interface CompactFolder { f: string; n: string; c: CompactItem[]; o?: 1 }
export type CompactItem =
  | CompactFolder
  | { f: string; n: string; m: string; k?: string; t?: string; x?: 1 }
  /** A file that did not read: its message (`e`) and its warning's code (`w`). */
  | { f: string; e: string; w?: NonNullable<Warning['code']> };

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
  /** The file problems as `ferry ls --json` gives them (`formatWarning` prints one as the terminal does). */
  warnings: Warning[];
  /** How many `changed` events the live channel had sent when this was read (see the `joined` event). */
  changes: number;
}

/** `GET /api/workspace?tree=compact`: the same, with the tree compact (about a third of the bytes). */
export type CompactWorkspaceInfo = Omit<WorkspaceInfo, 'tree'> & { compactTree: CompactFolder };

/** `POST /api/oauth2/token` ("get token"): the token a send would use, never its value in full. */
export interface TokenResponse {
  /** A cached, unexpired token was there; nothing was fetched. */
  cached: boolean;
  expiresAt?: number;
  /** Seconds left when the server answered; absent when the provider gave no expiry. */
  expiresInSeconds?: number;
  /** First characters and the length only. */
  masked: string;
  /** `request`, `folder:<path>` or `workspace`: whose auth it is. */
  source: string;
}

/** The answer shown in the response viewer: the run result plus the response itself. */
export interface SendResponse {
  result: RequestResult;
  /** The send's id: its whole body is at `GET /api/send/body?id=` while the app keeps it. */
  sendId?: string;
  response?: {
    headers: [string, string][];
    /** The body as base64 (at most `BODY_LIMIT` bytes of it). */
    bodyBase64: string;
    bodySize: number;
    /** True when the body was longer than what is sent to the page. */
    truncated: boolean;
    contentType: string;
    /** HTTP: the redirects followed, in order (the URL that answered with each, and its status), and the URL that answered last; absent when none. */
    redirects?: Array<{ url: string; status: number }>;
    finalUrl?: string;
  };
}

export interface CodeTarget {
  id: string;
  lang: string;
  lib: string;
  language: string;
  library: string;
  /** Where the code runs (`Android, JVM`, `iOS, macOS`): the search matches it too. */
  platform: string;
  default: boolean;
}

/**
 * One application setting of this computer (`GET /api/app-settings`): `ferry config list`'s row,
 * with what the dialog needs to edit it. `text` is the value as `ferry config` writes it.
 */
export interface AppSettingView {
  key: string;
  type: 'wholeNumber' | 'flag' | 'choice' | 'text' | 'list' | 'certificates';
  text: string;
  defaultText: string;
  /** What the setting takes, in words (`a whole number from 0 to 1000`). */
  takes: string;
  /** A choice's values. */
  choices?: string[];
  /** A request's `settings` may override it for one send. */
  perRequest: boolean;
}

export interface AppSettingsView {
  settings: AppSettingView[];
  /** Where they are kept: this computer's settings.json. */
  file: string;
}

/** What an import will create, shown before anything is written. */
/** `POST /api/import/curl`: a pasted cURL command as a request not written yet (an unsaved tab). */
export interface UnsavedImport {
  request: RequestFile;
  /** The folder under `requests/` it is saved into (`''`: the top). */
  folder: string;
  /** The path it is sent as before it is saved (its folder's auth and headers apply). */
  path: string;
  notes: string[];
}

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

/**
 * The notice of an app write that waits (up to 5 s) for another Ferry process's write lock
 * (`holder`: `ferry import (process 4242, since 05:40:01 UTC)`); the page takes it away once its save is done.
 */
export function lockWaitNotice(holder: string): string {
  return `${LOCK_WAIT_NOTICE_START}${holder} to finish writing to this workspace before saving…`;
}
export const LOCK_WAIT_NOTICE_START = 'Waiting for ';

/**
 * The header by which a page (browser tab) names itself on every call, as on joining the live
 * channel (`/api/live?page=…`): what concerns one call only (its lock wait) is said to that page.
 */
export const PAGE_HEADER = 'x-ferry-page';

/** Events of the one live channel. */
export type LiveEvent =
  /** Files of the workspace changed (on disk, by anyone); `paths` relative to the workspace folder. */
  | { type: 'changed'; paths: string[] }
  | { type: 'run'; runId: string; event: RunEvent }
  /** New records of the traffic log of the servers the app started. */
  | { type: 'traffic'; records: TrafficView[] }
  /** A stream message of a send in flight (SSE events as they arrive); `sendId` is the send's id. */
  | { type: 'message'; sendId: string; message: StreamMessage }
  /** A load test run's progress: its start, one point per second, its end (load-api.ts). */
  | { type: 'load'; runId: string; event: LoadEvent }
  /**
   * Messages of a live connection (both ways), batched; `skipped` counts messages of this batch
   * left out to keep the page responsive (they stay counted in `messageCount`).
   */
  | {
      type: 'connectionMessages';
      connectionId: string;
      messages: StreamMessage[];
      skipped: number;
      /**
       * The place of the batch's last message in the connection (1 = the first; every message
       * counted): the page tells a batch's messages from those it already has from
       * `GET /api/connections/messages` (`{ messages, upTo }`), which may answer before or after it.
       */
      upTo: number;
    }
  /** A live connection ended (closed by the page, by the peer, or an error). */
  | { type: 'connectionEnded'; connectionId: string; end: ConnectionEnd }
  /** Something the user must know that no call answered with: a damaged data file set aside (appdata/set-aside.ts). */
  | { type: 'notice'; message: string }
  /** A write of the app whose wait for another process's lock a `notice` said (`lockWaitNotice`) has the lock now, or gave up. */
  | { type: 'lockWaitOver' }
  /**
   * OAuth 2.0 authorization code: the provider's sign-in page for the call `id` (a Get token or a
   * send) that waits for the browser to come back to the loopback redirect. The page opens it.
   */
  | { type: 'authorize'; id: string; url: string }
  /** A server started, or failed to, on its own (its file saved after a failed start): the servers panel reads the list again. */
  | { type: 'servers' }
  /**
   * This computer's application settings file changed (`ferry config set` in a terminal, an
   * editor, a save of the app's own): an open Application settings dialog reads them again.
   */
  | { type: 'appSettings' }
  /**
   * The first event on joining (and rejoining) the channel: how many `changed` events it has sent
   * so far. A page whose tree says fewer (`WorkspaceInfo.changes`) missed one between its read and
   * its joining, and reads again as on a `changed`.
   */
  | { type: 'joined'; changes: number };

/**
 * The page's look on this computer, the same for every workspace (GET and PUT /api/view; docs/app.md,
 * "Layout"): kept in the data folder, since the page's own storage is per port and `ferry app`
 * takes a free port each time.
 */
export interface AppView {
  /** The sidebar's width in CSS pixels, within SIDEBAR_WIDTH's bounds. */
  sidebarWidth?: number;
  theme?: 'light' | 'dark';
  /** The request editor's share of the work area, in percent within EDITOR_SHARE's bounds (the answer has the rest). */
  editorShare?: number;
  /** The answer beside the request editor (the default) or below it. */
  splitLayout?: SplitLayout;
}

export const SPLIT_LAYOUTS = ['side-by-side', 'stacked'] as const;
export type SplitLayout = (typeof SPLIT_LAYOUTS)[number];

/** The sidebar's width (CSS pixels): dragged, or moved by `step` with the arrow keys, between `min` and `max`. */
export const SIDEBAR_WIDTH = { min: 200, max: 640, initial: 280, step: 16 } as const;

/** The request editor's share of the work area (percent; the answer has the rest): dragged, or moved by `step` with the arrow keys. */
export const EDITOR_SHARE = { min: 20, max: 80, initial: 50, step: 2 } as const;

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

/**
 * What the settings view edits of a folder's `_folder.yaml` (2.9) or of the workspace file (2.2):
 * the settings requests inside inherit. The other fields of the file (name, seq, variables,
 * openapi, fields the format does not have) are kept as the file holds them.
 */
export type EditedSettings = Pick<FolderFile, 'auth' | 'headers' | 'scripts' | 'docs'>;

/** `GET /api/folder/settings`, `GET /api/workspace/settings`: the file's settings, and what the view shows beside them. */
export interface SettingsView {
  /** The file, relative to the workspace folder: `requests/Users/_folder.yaml`, `ferry.yaml`. */
  file: string;
  /** The folder's or the workspace's display name. */
  name: string;
  settings: EditedSettings;
  /** A folder imported from an OpenAPI document: its `openapi` section, shown and kept; only `validate` is edited here (the tab API spec, 7.1), the import owns the rest. */
  openapi?: FolderFile['openapi'];
  /** Fields of the file the format does not have (a typo), in the line `ferry run` prints. */
  notices: string[];
}

/**
 * `GET /api/request/inherited-auth`: the auth a request set to `inherit` gets now (spec 5.1):
 * its type and whose it is, never its values. `folder`: the folder's path under requests/
 * (`source` folder) or absent (`source` workspace); `name`: that folder's or workspace's name.
 */
export interface InheritedAuthView {
  type: string;
  source: 'folder' | 'workspace';
  folder?: string;
  name: string;
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
  /** Why the file was not read, where its warning says (`ferry ls --json`'s code: a pipe, a subfolder…). */
  errorCode?: Warning['code'];
  /** `autoStart: true` in the file. */
  autoStart?: boolean;
  /** Set when autoStart did not start it (a configuration this computer has not started or saved before, 2.11): why. */
  waiting?: string;
  /** Why it could not start by itself (autoStart of a known configuration that failed). */
  startError?: string;
  /** Running and able to send to its clients (the traffic panel's send): the form's fields. */
  sendForm?: SendForm;
}

/**
 * `GET /api/server-kinds`: the server kinds this version runs, as the servers panel draws them
 * (the kinds' own table, `SERVER_KIND_INFO`): the page names no server kind.
 */
export interface ServerKindView {
  kind: string;
  /** The new-server picker's name: `TCP relay`. */
  label: string;
  /** In running text: `relay`. */
  noun: string;
  /** A traffic record's `in` and `out`, in words. */
  directions: { in: string; out: string };
  /** Present when its servers send to clients from the traffic panel. */
  send?: { eventPlaceholder?: string };
  /** The fields of its section, above the editor's YAML. */
  sectionHint: string;
  /** Clients may talk TLS to it (spec 2.11); the editor offers TLS only then. */
  tls?: true;
}

export interface ServerKindsView {
  /** Every kind, in the format's order. */
  kinds: ServerKindView[];
  /** The kinds a new server can be, in the order the picker offers them, and the one picked at first. */
  newServer: { kinds: string[]; picked: string };
}

/** One traffic record as the panel lists it, with the kind's own detail (a DNS answer's records, an MCP call). */
export type TrafficView = TrafficRecord;

/** A server file in the editor: the common fields, and the kind's section as YAML. */
export interface ServerEditorView {
  id: string;
  /** `servers/<id>.yaml`. */
  file: string;
  server: ServerFile;
  /** The section the kind reads (`socket` for TCP and UDP, `proxy` for the relay). */
  section: string;
  /** That section as YAML (fields at their default left out); empty when the file has none. */
  sectionYaml: string;
  /** The section of every kind, so switching kinds in the form knows which one to edit. */
  sections: Record<string, string>;
}

/** Beside `error` when a server edit is refused: where. `line`/`column` are in the section's YAML; `field` a common field. */
export interface ServerEditProblem {
  error: string;
  field?: string;
  line?: number;
  column?: number;
}

/** A send from the traffic panel: how many clients it reached. */
export interface ServerSendDone {
  sent: number;
  /** Clients skipped: they do not read what they are sent (more than 1 MB waits unsent for each). */
  notReading?: Array<{ client: string; waitingBytes: number }>;
  /** Those clients in words, for the panel. */
  note?: string;
}

/** One send of this computer's history (the app's and `ferry run`'s), newest first; `kept`: its whole answer can be shown again. */
export interface HistoryView extends HistoryEntry {
  key: string;
  kept: boolean;
}

/**
 * Update from API spec (4.5): the plan the dialog shows before anything is written — the core's
 * plan without its files (`planId` applies it), `name` for the folder's display name.
 */
export type UpdatePreview = Omit<UpdatePlan, 'folderName' | 'writes' | 'deletes'> & { planId: string; name: string; written: boolean };
