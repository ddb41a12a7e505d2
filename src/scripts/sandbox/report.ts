/**
 * A script's report as JSON, written out for its fixed shape: QuickJS's `JSON.stringify` walks
 * every object of it generically and took twice as long (~7 µs against ~3 µs for three tests).
 * Only what has no fixed shape (the request, the scopes) and each string go through it. The host
 * checks the report's shape either way (host/output-check.ts).
 */
import { isArray, json } from './intrinsics.js';
import type { TestRecord } from './tests.js';
import type { Entry } from './console.js';

export interface ReportError {
  message: string;
  kind: 'error' | 'syntax' | 'memory' | 'stack';
}

/** The state part of a report: what the script changed, and the flow flags. */
export interface ReportState {
  scopes: object;
  request?: object;
  nextRequestSet: boolean;
  skipRequest: boolean;
  nextRequest?: string | null;
}

function quote(text: string): string {
  return json.stringify(text);
}

function testJson(test: TestRecord): string {
  let out = `{"name":${quote(test.name)},"passed":${test.passed ? 'true' : 'false'}`;
  if (test.skipped) out += ',"skipped":true';
  if (test.message !== undefined) out += `,"message":${quote(String(test.message))}`;
  return `${out}}`;
}

function stateJson(state: ReportState): string {
  let out = `{"scopes":${json.stringify(state.scopes)}`;
  if (state.request !== undefined) out += `,"request":${json.stringify(state.request)}`;
  out += `,"nextRequestSet":${state.nextRequestSet ? 'true' : 'false'},"skipRequest":${state.skipRequest ? 'true' : 'false'}`;
  if (state.nextRequestSet) out += `,"nextRequest":${state.nextRequest === null || state.nextRequest === undefined ? 'null' : quote(state.nextRequest)}`;
  return `${out}}`;
}

export function reportJson(tests: readonly TestRecord[], console: readonly Entry[], error: ReportError | undefined, state: ReportState): string {
  // A script that replaced a built-in its report is made with (Array.prototype.map…) gets the
  // report as it came out: the host refuses it and the next script gets a fresh sandbox.
  if (!isArray(tests) || !isArray(console)) return json.stringify({ tests, console, error, state });
  // Indexed loops: QuickJS runs for-of through the iterator protocol, several times slower.
  let out = '{"tests":[';
  for (let i = 0; i < tests.length; i++) out += (i === 0 ? '' : ',') + testJson(tests[i]!);
  out += '],"console":[';
  for (let i = 0; i < console.length; i++) out += `${i === 0 ? '' : ','}{"level":${quote(console[i]!.level)},"text":${quote(console[i]!.text)}}`;
  out += ']';
  if (error) out += `,"error":{"message":${quote(error.message)},"kind":${quote(error.kind)}}`;
  return `${out},"state":${stateJson(state)}}`;
}
