/**
 * How a byte stream is cut into messages and how text messages end (spec 2.8, 2.11): shared by
 * TCP/UDP requests (`socket`) and by WebSocket, TCP and UDP servers, so both read the same lists.
 */
import { z } from 'zod';
import { oneOf } from './declare.js';

export const FRAMINGS = ['raw', 'line', 'lengthPrefixed'] as const;
export type Framing = (typeof FRAMINGS)[number];

export const LINE_ENDINGS = ['none', 'lf', 'crLf'] as const;
export type LineEnding = (typeof LINE_ENDINGS)[number];

/** Sizes of a big-endian length prefix. */
export const LENGTH_PREFIX_BYTES = [1, 2, 4] as const;

/** The framing fields, in the order both sections write them. */
export const framingFields = () => ({
  framing: oneOf(FRAMINGS).default('raw'),
  lengthBytes: z.union(LENGTH_PREFIX_BYTES.map((n) => z.literal(n)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<4>], { error: 'expected 1, 2 or 4' }).default(2),
  lineEnding: oneOf(LINE_ENDINGS).default('none'),
});
