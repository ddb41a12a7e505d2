/**
 * The sandbox's report written out by hand (src/scripts/sandbox/report.ts) says what
 * `JSON.stringify` of the same report says, for any test names, messages, console text, errors
 * and state; a script that broke the arrays it is made of gets the generic form, which the host refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportJson, type ReportState } from '../../src/scripts/sandbox/report.js';
import type { TestRecord } from '../../src/scripts/sandbox/tests.js';
import type { Entry } from '../../src/scripts/sandbox/console.js';

const text = fc.string({ unit: 'binary', maxLength: 40 });
const test = fc.record(
  { name: text, passed: fc.boolean(), skipped: fc.constant(true), message: text, pending: fc.boolean() },
  { requiredKeys: ['name', 'passed'] },
) as fc.Arbitrary<TestRecord>;
const entry = fc.record({ level: fc.constantFrom('log', 'info', 'warn', 'error', 'debug'), text }) as fc.Arbitrary<Entry>;
const error = fc.option(fc.record({ message: text, kind: fc.constantFrom('error', 'syntax', 'memory', 'stack') }), { nil: undefined });
const state = fc.record(
  {
    scopes: fc.dictionary(fc.constantFrom('environment', 'local'), fc.record({ values: fc.dictionary(text, fc.jsonValue()), changes: fc.record({ cleared: fc.boolean(), set: fc.dictionary(text, fc.jsonValue()), unset: fc.array(text) }) })),
    request: fc.record({ method: text, url: text, headers: fc.array(fc.record({ key: text, value: text, enabled: fc.boolean() })) }),
    nextRequestSet: fc.boolean(),
    skipRequest: fc.boolean(),
    nextRequest: fc.option(text, { nil: null }),
  },
  { requiredKeys: ['scopes', 'nextRequestSet', 'skipRequest'] },
) as fc.Arbitrary<ReportState>;

/** What the report said before it was written by hand, less what the host ignores (a settled test's `pending`, nextRequest when not set). */
function generic(tests: TestRecord[], console: Entry[], err: { message: string; kind: string } | undefined, s: ReportState): unknown {
  const out = JSON.parse(JSON.stringify({ tests, console, ...(err ? { error: err } : {}), state: s })) as { tests: Record<string, unknown>[]; state: Record<string, unknown> };
  for (const t of out.tests) {
    delete t.pending;
    if (t.skipped !== true) delete t.skipped;
  }
  if (!s.nextRequestSet) delete out.state.nextRequest;
  else out.state.nextRequest ??= null;
  return out;
}

describe('the sandbox report', () => {
  it('parses to what JSON.stringify of the same report gives', () => {
    fc.assert(
      fc.property(fc.array(test, { maxLength: 5 }), fc.array(entry, { maxLength: 5 }), error, state, (tests, console, err, s) => {
        expect(JSON.parse(reportJson(tests, console, err as never, s))).toEqual(generic(tests, console, err, s));
      }),
    );
  });

  it('keeps a report whose tests are not an array (a script replaced Array.prototype.map) as it is, for the host to refuse', () => {
    const report = JSON.parse(reportJson(7 as never, [], undefined, { scopes: {}, nextRequestSet: false, skipRequest: false })) as { tests: unknown };
    expect(report.tests).toBe(7);
  });
});
