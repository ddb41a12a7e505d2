/** The dynamic values of spec 8.2, exactly those: a new value at every occurrence. */
import { randomInt, randomUUID } from 'node:crypto';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

const DYNAMIC_VALUES: ReadonlyMap<string, () => string> = new Map<string, () => string>([
  ['$uuid', () => randomUUID()],
  ['$guid', () => randomUUID()],
  ['$randomUUID', () => randomUUID()],
  ['$timestamp', () => String(Math.floor(Date.now() / 1000))],
  ['$timestampMs', () => String(Date.now())],
  ['$isoTimestamp', () => new Date().toISOString()],
  ['$randomInt', () => String(randomInt(0, 1001))],
  ['$randomBoolean', () => (randomInt(0, 2) === 1 ? 'true' : 'false')],
  ['$randomAlphaNumeric', () => ALPHANUMERIC[randomInt(0, ALPHANUMERIC.length)]!],
  ['$randomEmail', () => `user${String(randomInt(0, 10_000)).padStart(4, '0')}@example.com`],
]);

export const DYNAMIC_VALUE_NAMES: readonly string[] = [...DYNAMIC_VALUES.keys()];

/** A fresh value for a dynamic value's name (with its `$`), or undefined for any other name. */
export function dynamicValue(name: string): string | undefined {
  const make = DYNAMIC_VALUES.get(name);
  return make === undefined ? undefined : make();
}

/** True for the names `dynamicValue` knows. */
export function isDynamicValueName(name: string): boolean {
  return DYNAMIC_VALUES.has(name);
}
