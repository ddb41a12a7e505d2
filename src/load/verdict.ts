/** Threshold rules and verdicts: shared by the result (which carries verdicts) and the judge (thresholds.ts). */
import type { z } from 'zod';
import type { thresholdSchema } from '../model/index.js';

/** A threshold of the load test file (spec 2.12), as the model declares it. */
export type ThresholdRule = z.output<typeof thresholdSchema>;

export interface ThresholdVerdict {
  rule: string;
  metric: ThresholdRule['metric'];
  op: ThresholdRule['op'];
  limit: number;
  target?: string;
  /** Null when there was nothing to measure. */
  measured: number | null;
  passed: boolean;
  reason?: string;
}

