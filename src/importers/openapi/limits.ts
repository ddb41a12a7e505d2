/** The OpenAPI importer's limits (spec 8.1), in one place. */

/** Import file or download size, and the kept document read on update. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
/** Most operations imported at once; a larger document is cut short with a note. */
export const MAX_OPERATIONS = 10_000;
/** YAML alias expansions allowed while parsing: a small file must not become gigabytes. */
export const MAX_YAML_ALIASES = 1000;
/** A `$ref` that points at a `$ref` … is followed this many times at most (a cycle otherwise). */
export const MAX_REF_HOPS = 64;
/** Example bodies from schemas: nesting depth, and values generated for one body. */
export const MAX_EXAMPLE_DEPTH = 8;
export const MAX_EXAMPLE_NODES = 2000;
/** Names are at most 200 characters (spec 2.1.5). */
export const MAX_NAME_CHARS = 200;
/** External references listed by name in the note; the rest are counted. */
export const MAX_LISTED_REFS = 10;
