/** The contract check's limits (spec 8.1). */

/** A kept OpenAPI document larger than this is not read (the check is left out). */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

/** Only the first this-many items of each array are checked. */
export const MAX_ITEMS_CHECKED = 1000;

/** Problems listed in a failure message; the rest are only counted. */
export const MAX_PROBLEMS_LISTED = 20;

/** Levels of schema nesting followed; deeper parts of the body are not checked. */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * Schema steps taken for one body, at most (the spec is silent). Nested allOf/anyOf/oneOf can
 * branch exponentially (three options, each with three options, 64 levels deep); past this
 * budget the rest of the body is not checked, as past the depth limit. A million steps take
 * well under a second and are far more than any real document needs.
 */
export const MAX_CHECK_STEPS = 1_000_000;

/** YAML aliases allowed in a document: guards against alias-expansion ("billion laughs") bombs. */
export const MAX_YAML_ALIASES = 1000;

/** Values quoted in messages are cut to this many characters. */
export const MAX_QUOTED_VALUE_CHARS = 80;
