/**
 * A wire-ready HTTP request: what `request/prepare` produces from a saved request and what
 * `protocols/http` sends. Code export (`codegen/`) reads the same shape, so a snippet sends
 * exactly what Ferry sends.
 */
import type { RequestLevelSettings } from '../model/index.js';

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
    }
  | { kind: 'multipart'; parts: PreparedMultipartPart[] };

/** Auth types that only imports bring, or whose signature depends on the moment of sending. */
export type SigningAuthType = 'digest' | 'ntlm' | 'awsv4' | 'oauth1' | 'jwt' | 'hawk' | 'edgegrid' | 'asap';

export interface PreparedRequest {
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
  /**
   * Headers besides Authorization that carry the request's credentials (an API key's header): the
   * HTTP client drops them, with Authorization, on a redirect to another origin.
   */
  credentialHeaders?: string[];
  /** The request's effective settings (request `settings` over the application settings). */
  settings?: PreparedSettings;
}

/** Settings the HTTP client applies to one send (spec 2.7): the request-level application settings. */
export type PreparedSettings = RequestLevelSettings;
