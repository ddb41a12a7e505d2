/**
 * What a request's target offers, for the app's picker (issue 26): a gRPC server's methods (from
 * the proto files or reflection), an MCP server's tools, resources and prompts. A kind that has
 * such a list gives `describe` on its module; the app lists the entries and applies the one
 * picked to the request without knowing the kind: `apply` is a patch of the request file, and
 * `form` (where present) is a JSON Schema whose filled-in value is written into the request.
 */

/** A patch of the request file (the model's field names): what picking an entry changes. */
export interface CatalogApply {
  method?: string;
  /** The body's text (a gRPC message skeleton). */
  bodyText?: string;
  /** Fields of the kind's option section (`mcp.call`, `mcp.name`…). */
  options?: Record<string, unknown>;
}

/** A form from a JSON Schema; its value, as JSON text, goes into the option field `option`. */
export interface CatalogForm {
  schema: Record<string, unknown>;
  option: string;
}

export interface CatalogEntry {
  /** Heading it is listed under: the gRPC service, `Tools`, `Resources`, `Prompts`. */
  group: string;
  name: string;
  /** A short note: the call type (`unary`, `server streaming`…), the resource's MIME type. */
  note?: string;
  description?: string;
  apply: CatalogApply;
  form?: CatalogForm;
}

export interface KindCatalog {
  /** Where it came from, in words: `reflection`, `proto files`, `the MCP server "echo" 1.0`. */
  source: string;
  entries: CatalogEntry[];
}
