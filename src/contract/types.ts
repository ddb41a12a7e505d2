/**
 * The minimal shapes the contract check reads. They are structural, so the runner can pass
 * the workspace model's request and folder objects (and its response) as they are.
 */

/** The request's `openapi` block (spec 2.3), set by an OpenAPI import. */
export interface ContractRequestLink {
  /** `METHOD /path/{param}` */
  operation?: string;
  /** `true` when the operation is no longer in the document. */
  removed?: boolean;
}

export interface ContractRequest {
  /** The request kind; missing means `http`. */
  kind?: string;
  openapi?: ContractRequestLink;
}

/** A folder's `openapi` block (spec 2.9). */
export interface ContractFolderLink {
  /** Path of the kept document, relative to the workspace folder (e.g. `specs/petstore.yaml`). */
  spec?: string;
  source?: string;
  /** Default `true`. `false` switches the check off for requests inside. */
  validate?: boolean;
}

export interface ContractFolder {
  openapi?: ContractFolderLink;
}

export type ContractHeaders = ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface ContractResponse {
  status: number;
  headers: ContractHeaders;
  /** The body as received, after content decoding (gzip, br, ...). */
  body: Uint8Array;
}

/** The test result the runner adds next to the request's own tests. */
export interface ContractTestResult {
  /** `Matches the API spec (METHOD /path -> status)` */
  name: string;
  passed: boolean;
  /** On failure: the problems, one per line. */
  message?: string;
}
