/**
 * Built-ins the sandbox's own code relies on, captured before any script runs, so a script that
 * replaces `JSON.stringify` or `Object.keys` breaks only itself, not how its results are reported.
 */
export const json = { stringify: JSON.stringify, parse: JSON.parse };
export const objectKeys = Object.keys;
export const hasOwnProperty = Object.prototype.hasOwnProperty;
export const defineProperty = Object.defineProperty;
export const defineProperties = Object.defineProperties;
export const arrayJoin = Array.prototype.join;
export const isArray = Array.isArray;

export function hasOwn(object: object, key: string): boolean {
  return hasOwnProperty.call(object, key);
}

/** The type of thing a value is, for error messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
