/**
 * The dynamic values of spec 8.2, exactly those: a new value at every occurrence. One table for
 * the template engine (Node's crypto) and the script sandbox's `replaceIn` (the host's random
 * bytes): no Node API here, the sandbox bundle imports it.
 */

/** Where the values get their randomness. */
export interface RandomSource {
  uuid(): string;
  /** A whole number from `min` up to `maxExclusive`, less one. */
  int(min: number, maxExclusive: number): number;
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Each name (with its `$`) and how it makes a value. */
export function dynamicValueTable(random: RandomSource): ReadonlyMap<string, () => string> {
  return new Map<string, () => string>([
    ['$uuid', () => random.uuid()],
    ['$guid', () => random.uuid()],
    ['$randomUUID', () => random.uuid()],
    ['$timestamp', () => String(Math.floor(Date.now() / 1000))],
    ['$timestampMs', () => String(Date.now())],
    ['$isoTimestamp', () => new Date().toISOString()],
    ['$randomInt', () => String(random.int(0, 1001))],
    ['$randomBoolean', () => (random.int(0, 2) === 1 ? 'true' : 'false')],
    ['$randomAlphaNumeric', () => ALPHANUMERIC[random.int(0, ALPHANUMERIC.length)]!],
    ['$randomEmail', () => `user${String(random.int(0, 10_000)).padStart(4, '0')}@example.com`],
  ]);
}
