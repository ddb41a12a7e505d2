/**
 * The metrics and comparisons a load test's threshold may name (spec 2.12), declared once: the
 * format's schema (loadtest.ts) checks them and the app's load editor offers them. No imports:
 * the app's page bundles this file, so it stays free of Node-only code.
 */
export const THRESHOLD_METRICS = ['p50', 'p90', 'p95', 'p99', 'p999', 'avg', 'max', 'errorRate', 'rps'] as const;
export const THRESHOLD_OPS = ['<', '<=', '>', '>='] as const;
