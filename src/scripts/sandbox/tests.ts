/** pm.test (sync and async), pm.test.skip, and the legacy `tests["name"] = bool` object. */
export interface TestRecord {
  name: string;
  passed: boolean;
  skipped?: boolean;
  message?: string;
  /** Still waiting for the promise the test function returned. */
  pending?: boolean;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'AssertionError' && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}

export class TestCollector {
  readonly records: TestRecord[] = [];
  /** The legacy object: every key assigned becomes a test, passed when the value is truthy. */
  readonly legacy: Record<string, unknown> = {};

  makeTest(): ((name: unknown, fn?: unknown) => void) & { skip(name: unknown, fn?: unknown): void; index(): number } {
    const test = (name: unknown, fn?: unknown): void => {
      const record: TestRecord = { name: String(name), passed: true };
      this.records.push(record);
      if (typeof fn !== 'function') {
        record.passed = false;
        record.message = 'pm.test needs a function as its second argument';
        return;
      }
      try {
        const returned: unknown = fn();
        if (returned && typeof (returned as PromiseLike<unknown>).then === 'function') {
          record.pending = true;
          (returned as PromiseLike<unknown>).then(
            () => {
              record.pending = false;
            },
            (error: unknown) => {
              record.pending = false;
              record.passed = false;
              record.message = messageOf(error);
            },
          );
        }
      } catch (error) {
        record.passed = false;
        record.message = messageOf(error);
      }
    };
    const withMembers = test as typeof test & { skip(name: unknown, fn?: unknown): void; index(): number };
    withMembers.skip = (name: unknown) => {
      this.records.push({ name: String(name), passed: false, skipped: true });
    };
    withMembers.index = () => this.records.length;
    return withMembers;
  }

  /** Every result, the legacy object's keys last; unsettled async tests fail. */
  results(): TestRecord[] {
    // The records themselves, not copies: the report is written out at once, before any can change.
    const out = this.records.map((r) =>
      r.pending ? { name: r.name, passed: false, message: 'the test returned a promise that never settled (scripts have no timers or network, so nothing can resolve it)' } : r,
    );
    for (const key of Object.keys(this.legacy)) out.push({ name: key, passed: Boolean(this.legacy[key]) });
    return out;
  }
}
