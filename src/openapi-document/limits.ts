/** OpenAPI limits (spec 8.1), in one place for the contract check and the importer alike. */

// ---- Reading a document -------------------------------------------------------------------

/** Import file or download size, and a kept document read on update or for the contract check. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

/** YAML aliases allowed in a document: guards against alias-expansion ("billion laughs") bombs. */
export const MAX_YAML_ALIASES = 1000;

/** A `$ref` that points at a `$ref` … is followed this many times at most (a cycle, or a hostile document). */
export const MAX_REF_HOPS = 64;

// ---- The contract check -------------------------------------------------------------------

/** Only the first this-many items of each array are checked. */
export const MAX_ITEMS_CHECKED = 1000;

/** Problems listed in a failure message; the rest are only counted. */
export const MAX_PROBLEMS_LISTED = 20;

/** Levels of schema nesting followed; deeper parts of the body are not checked. */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * Work bounds for one body (the spec is silent). A schema reached by many allOf/anyOf/oneOf
 * routes is checked once per body location, but options that loop back through a schema
 * already being tried for the same value cannot be reused that way and can still branch
 * exponentially. Past either bound the rest is not checked, as past the depth limit.
 * Plain walks of a real body (one schema per value) stay far below both.
 */
export const MAX_COMPOSITION_STEPS = 250_000;
/**
 * Composition members tried in one check before their results are remembered per body place.
 * A 1 MB body with an allOf and a oneOf per object tries about 6,000; remembering costs a map
 * entry per member, so it starts only where shared schemas could make the work explode.
 */
export const MEMO_AFTER_COMPOSITION_STEPS = 20_000;
/** Schema steps of any kind for one body (a 50 MB body of small objects is a few million). */
export const MAX_CHECK_STEPS = 50_000_000;

/** Values quoted in messages are cut to this many characters. */
export const MAX_QUOTED_VALUE_CHARS = 80;

// ---- Import -------------------------------------------------------------------------------

/** Most operations imported at once; a larger document is cut short with a note. */
export const MAX_OPERATIONS = 10_000;
/** Example bodies from schemas: nesting depth, and values generated for one body. */
export const MAX_EXAMPLE_DEPTH = 8;
export const MAX_EXAMPLE_NODES = 2000;
/** Values walked in one example while inlining its local `$ref`s; past this the rest stays as written. */
export const MAX_INLINED_EXAMPLE_NODES = 200_000;
/** A generated array repeats its item up to `minItems`, at most this many times (the check reads 1,000). */
export const MAX_EXAMPLE_ITEMS = 1000;
/** A generated string is stretched to `minLength`, at most to this many characters. */
export const MAX_EXAMPLE_STRING = 10_000;
/** External references listed by name in the note; the rest are counted. */
export const MAX_LISTED_REFS = 10;
