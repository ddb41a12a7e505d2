/**
 * A wire-ready HTTP request: what `request/prepare` produces from a saved request and what
 * `protocols/http` sends. Code export (`codegen/`) reads the same shape, so a snippet sends
 * exactly what Ferry sends.
 */
import type { Auth, RequestKind, RequestLevelSettings, RequestSettings } from '../model/index.js';

export interface PreparedHeader {
  name: string;
  value: string;
}

export interface PreparedMultipartPart {
  name: string;
  /** Text value, for text parts. */
  value?: string;
  /** For file parts: the path as written in the request, and where it resolves on this computer. */
  file?: { path: string; absolutePath: string };
  contentType?: string;
}

export type PreparedBody =
  | { kind: 'none' }
  /**
   * Bytes ready to send: json, text, xml, formUrlencoded, graphql (as JSON) and binary files.
   * `source` tells which body type made them; `isText` is true when the bytes are UTF-8 text.
   */
  | {
      kind: 'bytes';
      source: 'json' | 'text' | 'xml' | 'formUrlencoded' | 'graphql' | 'binary';
      bytes: Uint8Array;
      isText: boolean;
      /** For binary bodies: the file as written and where it resolves. */
      file?: { path: string; absolutePath: string };
      /** For GraphQL bodies: how a subscription is sent (spec 2.5), filled; used only when the operation is a subscription. */
      subscription?: PreparedSubscription;
    }
  | { kind: 'multipart'; parts: PreparedMultipartPart[] };

/** A GraphQL body's subscription fields with `{{variables}}` filled (empty text when not set). */
export interface PreparedSubscription {
  transport?: 'websocket' | 'websocketLegacy' | 'sse';
  subscriptionUrl: string;
  connectionParams: string;
}

/** Auth types that only imports bring, or whose signature depends on the moment of sending. */
export type SigningAuthType = 'digest' | 'ntlm' | 'awsv4' | 'oauth1' | 'jwt' | 'hawk' | 'edgegrid' | 'asap';

export interface NtlmCredentials {
  username: string;
  password: string;
  domain: string;
  workstation: string;
}

export interface PreparedRequest {
  /** The request kind; absent means `http`. */
  kind?: RequestKind;
  method: string;
  /** Absolute URL with variables filled and enabled query parameters included. */
  url: string;
  /**
   * Headers in sending order: workspace, folders (outer to inner), request, then auth and
   * Content-Type. Repeated names are kept as separate entries.
   */
  headers: PreparedHeader[];
  body: PreparedBody;
  /** The resolved auth type after inheritance (`none` when nothing applies). */
  authType: string;
  /**
   * OAuth 2.0 only: whether a cached token was used. When false, the Authorization header
   * carries the placeholder `<access-token>`.
   */
  oauth2TokenCached?: boolean;
  /** Relative request path (`Folder/Name.yaml`) this came from, when it came from a file. */
  path?: string;
  /**
   * Digest auth: the credentials the HTTP client uses to answer the server's challenge when it
   * sends (the first attempt carries no Authorization header).
   */
  digest?: { username: string; password: string };
  /** Signing auth types (AWS, OAuth 1.0, JWT, ASAP, Hawk, EdgeGrid): whether the signature was made (code export may go without). */
  signed?: boolean;
  /** Code export of a signing auth type Ferry could not sign: why (the send's error, without the request's path). */
  signProblem?: string;
  /**
   * Prepared with `signEachSend` (load tests) and a signing auth type: the request as it was before
   * signing (what each send starts from) and the signing to do again at each send.
   */
  signEachSend?: { url: string; headers: PreparedHeader[]; body: PreparedBody; signing: RepeatSigning };
  /**
   * A signing auth type: the names (lower case) of the headers signing added, and the signing done
   * again, for its own method, URL and body, on each further HTTP request the send makes (a "hop"):
   * a redirect within the origin (the HTTP client, a WebSocket upgrade), a gRPC call to another path
   * than the one signed (server reflection's), each request of an MCP session or a Socket.IO
   * connection, a GraphQL subscription's WebSocket upgrade. Worked out with the first such request: a
   * send without one never reads a key file twice. `bodyEncodedBy`: the kind encodes its messages
   * when sending (KindRules.encodesBody), so their bytes are not signed.
   */
  signEachHop?: { added: string[]; signing: () => Promise<RepeatSigning>; bodyEncodedBy?: string };
  /** NTLM auth: the HTTP client runs the three-message handshake on one connection with these. */
  ntlm?: NtlmCredentials;
  /**
   * Credential values the auth put on the wire though no secret variable holds them: passwords of
   * the auth settings, Bearer tokens and API key values, the OAuth 2.0 client secret and access
   * token, the Basic credential as sent.
   * A run masks them in what it prints and reports, like secret values.
   */
  credentials?: string[];
  /**
   * Headers besides Authorization that carry the request's credentials (an API key's header, AWS's
   * X-Amz-Security-Token): the HTTP client drops them, with Authorization, on a redirect to another
   * origin.
   */
  credentialHeaders?: string[];
  /** The request's effective settings (request `settings` over the application settings). */
  settings?: PreparedSettings;
  /** Streaming kinds: when reading stops (`settings.stream`; the format's defaults when absent). */
  stream?: NonNullable<RequestSettings['stream']>;
  /** The kind's option section (spec 2.8) with defaults and `{{variables}}` filled. */
  options?: Record<string, unknown>;
  /** Basic auth's user name and password, filled (MQTT sends them in CONNECT, not as a header). */
  basic?: { username: string; password: string };
}

/** Settings the HTTP client applies to one send (spec 2.7): the request-level application settings. */
/** `proxy: false`: the request goes direct, past the application's proxy (spec 2.7, issue 20). */
export type PreparedSettings = RequestLevelSettings & { proxy?: false };

/**
 * How a request kind is prepared (the request layer's part of a protocol module, spec 2.3, 2.8):
 * which URL schemes it takes, how `method` is read, and which kind-specific option section it
 * carries (its text values are filled with `{{variables}}`).
 */
export interface KindRules {
  kind: RequestKind;
  /** The request as a sentence names it, with its article: `an SSE request`. */
  noun: string;
  /**
   * `url`: an absolute URL of one of `schemes` (the first is added when none is typed); `text`: a
   * name or command, filled only — unless the kind lists `schemes` and a `scheme://` is typed, which
   * is then prepared as a URL of those schemes (MCP: a server URL or the command that starts it).
   */
  url: 'url' | 'text';
  schemes: readonly string[];
  /** `http`: an HTTP method token, upper-cased (GET when empty); `text`: filled as typed (gRPC's Service/Method, a DNS type); `none`: not used. */
  method: 'http' | 'text' | 'none';
  /**
   * `text` kinds whose `method` names what to send (DNS's record type, gRPC's call): what it holds,
   * as a sentence ends (`the record type to ask for`). A request that has HTTP's GET there (the
   * format's default, which a request without `method` gets) is refused saying so, listing
   * `methodChoices` and giving `methodExample`, not with the kind's message for a name it does not
   * know. Required to send, not to describe: prepared for the kind's `describe` (the app's method
   * picker, where the method is chosen), the request is not refused for it.
   */
  methodIs?: string;
  /** The `method` that refusal gives as an example (gRPC: helloworld.Greeter/SayHello); else the first of `methodChoices`. */
  methodExample?: string;
  /**
   * What an empty `method` asks for, for a kind with `methodIs` (DNS: A): the prepared request
   * carries it as its method. Without it an empty method (the app's new gRPC request has
   * `method: ""`) is refused to send as GET is, saying so.
   */
  methodWhenEmpty?: string;
  /** What the app's method box offers (DNS record types); absent: HTTP's methods. Any other text may still be typed in the file. */
  methodChoices?: readonly string[];
  /** The request's kind-specific option section (spec 2.8), when it has one. */
  options?: KindOptionsKey;
  /**
   * Sent by the HTTP client (HTTP, SSE): it answers Digest and NTLM challenges, and signs each
   * redirect within the origin again. Other kinds refuse those two auth types before connecting.
   */
  httpClient?: true;
  /**
   * Which auth the kind puts on the wire, when not every type (as headers, gRPC metadata or the
   * query): `basic`, Basic's user name and password only (MQTT's CONNECT); `none`, no auth at all
   * (TCP, UDP, DNS). An auth of another type set on the request itself is refused before
   * connecting; one inherited from a folder or the workspace (meant for the HTTP requests beside
   * it) is left out unapplied: no OAuth 2.0 token fetched, no Digest refusal.
   */
  sendsAuth?: 'basic' | 'none';
  /**
   * False for a kind whose wire has no place for headers (TCP, UDP, DNS, MQTT): the request's
   * header rows are kept in its file but not sent, and the app's Headers tab says so.
   */
  sendsHeaders?: false;
  /**
   * The HTTP method the server sees, which auth signs, when it is not the request's `method`:
   * `POST` for gRPC calls and MCP's first request. Absent: the request's method for `method: 'http'`
   * kinds, else `GET` (the WebSocket and Socket.IO upgrades).
   */
  wireMethod?: 'POST';
  /**
   * The URL the server sees, which auth signs, when it is not the request's `url`: a gRPC call's
   * `:authority` as grpc-js sends it (host and port, the scheme's port when none is typed) and its
   * `/package.Service/Method` (the HTTP/2 `:path`) from the request's filled `method` (the URL's
   * path when `method` names no call, which the send then refuses). Asked only when the request is
   * signed, so it may load its module then; what a signer adds to its query stays on the URL sent.
   */
  wireUrl?: (url: URL, method: string) => Promise<URL>;
  /**
   * The body is a message the kind encodes when sending (gRPC: the JSON as protobuf frames, sent
   * with its own Content-Type): no body Content-Type header is added, and auth cannot hash the
   * bytes sent (AWS signs UNSIGNED-PAYLOAD; a payload hash asked for is refused, saying why).
   */
  encodesBody?: true;
}

export type KindOptionsKey = 'socket' | 'dns' | 'mqtt' | 'grpc' | 'socketio' | 'mcp';

/**
 * A signing to do again at every send (load tests): each request gets its own nonce, time and
 * signature, as a server that refuses a repeated nonce or an old timestamp wants. The auth's fields
 * are filled now (values that change per send stay as the caller's markers, filled at each send);
 * a private key file is read now, so no send reads a file. Plain data: it goes to worker threads.
 */
export interface RepeatSigning {
  auth: Auth;
  root: string;
  allowFilesOutside: boolean;
  where: string;
}
