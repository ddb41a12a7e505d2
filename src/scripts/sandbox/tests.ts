/** pm.test (sync, async, and with a `done` callback), pm.test.skip, and the legacy `tests["name"] = bool` object. */
export interface TestRecord {
  name: string;
  passed: boolean;
  skipped?: boolean;
  message?: string;
  /** Still waiting for the promise the test function returned, or for its `done` call. */
  pending?: 'promise' | 'done';
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'AssertionError' && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}

export class TestCollector {
  readonly records: TestRecord[] = [];
  /** The legacy object: every key assigned becomes a test, passed when the value is truthy. */
  readonly legacy: Record<string, unknown> = {};

  /** Makes this collector the one `pm.test` records into: the running script's (see `test`). */
  activate(): void {
    active = this;
  }

  run(name: unknown, fn?: unknown): void {
    const record: TestRecord = { name: String(name), passed: true };
    this.records.push(record);
    // A test with a name only asserts nothing: it passes, as in Postman.
    if (fn === undefined) return;
    if (typeof fn !== 'function') {
      record.passed = false;
      record.message = 'pm.test needs a function as its second argument';
      return;
    }
    try {
      // `pm.test(name, function (done) { … done(); })`: Postman's asynchronous form; done(error) fails it.
      if (fn.length > 0) {
        record.pending = 'done';
        const done = (error?: unknown) => {
          if (record.pending !== 'done') return;
          record.pending = undefined;
          if (error !== undefined && error !== null) {
            record.passed = false;
            record.message = messageOf(error);
          }
        };
        (fn as (done: (error?: unknown) => void) => unknown)(done);
        return;
      }
      const returned: unknown = fn();
      if (returned && typeof (returned as PromiseLike<unknown>).then === 'function') {
        record.pending = 'promise';
        (returned as PromiseLike<unknown>).then(
          () => {
            record.pending = undefined;
          },
          (error: unknown) => {
            record.pending = undefined;
            record.passed = false;
            record.message = messageOf(error);
          },
        );
      }
    } catch (error) {
      record.pending = undefined;
      record.passed = false;
      record.message = messageOf(error);
    }
  }

  skip(name: unknown): void {
    this.records.push({ name: String(name), passed: false, skipped: true });
  }

  /** Every result, the legacy object's keys last; unsettled async tests fail. */
  results(): TestRecord[] {
    // The records themselves, not copies: the report is written out at once, before any can change.
    const out = this.records.map((r) =>
      r.pending === 'promise' ? { name: r.name, passed: false, message: 'the test returned a promise that never settled (scripts have no timers or network, so nothing can resolve it)' }
        : r.pending === 'done' ? { name: r.name, passed: false, message: 'the test never called done() (scripts have no timers or network, so call it before the script ends)' }
          : r,
    );
    // A failed one says why in Postman's words (postman-sandbox's legacy interface).
    for (const key of Object.keys(this.legacy)) {
      const value = this.legacy[key];
      out.push(value ? { name: key, passed: true } : { name: key, passed: false, message: `expected ${String(value)} to be truthy` });
    }
    return out;
  }
}

let active: TestCollector | undefined;

function activeTests(): TestCollector {
  if (!active) throw new Error('pm.test: no script is running');
  return active;
}

/**
 * `pm.test`, one function shared by every script (frozen, so no script can change it for the
 * next): it records into the collector of the script running now. Scripts run one at a time, and
 * their promise jobs before the next one starts; three closures per script cost more than a short
 * script's test.
 */
export const test = Object.freeze(
  Object.assign(function test(name: unknown, fn?: unknown): void {
    activeTests().run(name, fn);
  }, {
    skip: (name: unknown): void => activeTests().skip(name),
    index: (): number => activeTests().records.length,
  }),
);
