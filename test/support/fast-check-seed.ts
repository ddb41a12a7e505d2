/**
 * Property tests explore new inputs on every local run, but CI replays one fixed seed so that
 * its verdict is reproducible: a red CI must mean the same thing on every machine. A failure
 * prints its seed and path either way (rerun with `FC_SEED=<seed>` to replay it).
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED ?? (process.env.CI ? '20261126' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
