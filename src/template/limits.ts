/** The template limits of spec 8.1, in one place. Sizes are UTF-8 bytes; 1 MB = 1,048,576 bytes. */

export const MB = 1024 * 1024;

export const TEMPLATE_LIMITS = {
  /** A variable's value may hold placeholders of other variables this many levels deep. */
  maxNestingLevels: 10,
  /** One variable placeholder's expansion; a larger one stays as written. */
  maxExpansionBytes: 16 * MB,
  /** One rendered text (server answer, event, greeting; also a request field); placeholders past it stay as written. */
  maxRenderedBytes: 32 * MB,
  /**
   * Safety valve against runaway definitions (fan-out over dynamic values or cycles, which can't be
   * cached): the placeholders one rendering may visit inside variable values. Ordinary workspaces use
   * a tiny fraction of it; past it, remaining nested placeholders stay as written.
   */
  maxNestedVisits: 1_000_000,
} as const;
