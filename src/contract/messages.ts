/**
 * Every text the contract check shows, in the shapes of spec 7.1, and the body paths they name
 * (`$`, `$.owner.name`, `$[0].id`). Kept in one place so the wording is easy to review.
 */
import { MAX_QUOTED_VALUE_CHARS } from '../openapi-document/index.js';

export const CONTRACT_TEST_NAME = 'Matches the API spec';

export function contractTestName(method: string, path: string, status: number): string {
  return `${CONTRACT_TEST_NAME} (${method} ${path} -> ${status})`;
}

/** A location in the body, built lazily: the text is only made when a problem is reported. */
export interface BodyPath {
  readonly parent: BodyPath | null;
  readonly key: string | number;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatPath(location: BodyPath | null): string {
  const segments: string[] = [];
  for (let node = location; node !== null; node = node.parent) {
    const key = node.key;
    if (typeof key === 'number') segments.push(`[${key}]`);
    else if (IDENTIFIER.test(key)) segments.push(`.${key}`);
    else segments.push(`[${JSON.stringify(key)}]`);
  }
  return '$' + segments.reverse().join('');
}

/** A value as it appears in a message: JSON, cut short when long. */
export function quoteValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Too deeply nested to write out: name its kind instead.
    text = Array.isArray(value) ? '[…]' : typeof value === 'object' && value !== null ? '{…}' : String(value);
  }
  return text.length > MAX_QUOTED_VALUE_CHARS ? `${text.slice(0, MAX_QUOTED_VALUE_CHARS - 1)}…` : text;
}

export const messages = {
  bodyEmpty: () => 'The body is empty, but the spec documents one',
  bodyNotJson: (detail: string) => `The body is not valid JSON (${detail})`,
  statusNotDocumented: (status: number, documented: readonly string[]) =>
    `The status ${status} is not documented in the spec; documented: ${documented.join(', ')}`,
  wrongType: (path: string, expected: string, actual: string) => `${path}: expected ${expected}, got ${actual}`,
  missingRequired: (path: string, name: string) => `${path} is missing the required field \`${name}\``,
  notInEnum: (path: string, value: unknown) => `${path}: ${quoteValue(value)} is not one of the documented values`,
  // Spec 7.1 gives no shape for `const`; this follows the enum message.
  notConst: (path: string, value: unknown, expected: unknown) =>
    `${path}: ${quoteValue(value)} is not the documented value ${quoteValue(expected)}`,
  notInSpec: (path: string) => `${path} is not in the spec`,
  nullNotAllowed: (path: string) => `${path} is null, but the spec does not allow null`,
  noOneOfMatch: (path: string) => `${path} matches none of one of the oneOf schemas`,
  noAnyOfMatch: (path: string) => `${path} matches none of any of the anyOf schemas`,
  tooManyItems: (path: string, count: number, max: number) => `${path} has ${count} items, more than the ${max} allowed`,
  tooFewItems: (path: string, count: number, min: number) => `${path} has ${count} items, fewer than the ${min} required`,
  tooLong: (path: string) => `${path} is longer than the documented maximum length`,
  tooShort: (path: string) => `${path} is shorter than the documented minimum length`,
  belowMinimum: (path: string, value: number, min: number) => `${path}: ${value} is below the documented minimum ${min}`,
  aboveMaximum: (path: string, value: number, max: number) => `${path}: ${value} is above the documented maximum ${max}`,
  notAbove: (path: string, value: number, bound: number) => `${path}: ${value} must be above ${bound}`,
  notBelow: (path: string, value: number, bound: number) => `${path}: ${value} must be below ${bound}`,
  // Requests (the mock API's validation, Ferry's addition): the same shapes, naming the part.
  parameterMissing: (where: string) => `${where} is missing, but the spec requires it`,
  requestBodyMissing: () => 'The body is empty, but the spec requires one',
  contentTypeNotDocumented: (type: string, documented: readonly string[]) =>
    `The Content-Type ${type} is not one the spec documents for this operation; documented: ${documented.join(', ')}`,
  moreProblems: (count: number) => `…and ${count} more ${count === 1 ? 'problem' : 'problems'}`,
};
