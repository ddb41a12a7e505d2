/** How a collection run judges a request with and without a contract test (spec 7.1). */
import { describe, expect, it } from 'vitest';
import { requestPassed, type ContractTestResult } from '../../src/contract/index.js';

const passing: ContractTestResult = { name: 'Matches the API spec (GET /pets -> 404)', passed: true };
const failing: ContractTestResult = { name: 'Matches the API spec (GET /pets -> 200)', passed: false, message: '$ is missing the required field `id`' };

describe('requestPassed', () => {
  const table: Array<[contract: ContractTestResult | null, testsPassed: boolean, statusPassed: boolean, expected: boolean]> = [
    // A passing check: the tests decide, not the status (a documented 404 is fine).
    [passing, true, false, true],
    [passing, false, true, false],
    // A failing check fails the request whatever else.
    [failing, true, true, false],
    [failing, false, false, false],
    // No check: the run's usual rule, status and tests.
    [null, true, true, true],
    [null, true, false, false],
    [null, false, true, false],
  ];
  for (const [contract, testsPassed, statusPassed, expected] of table) {
    it(`${contract === null ? 'no check' : contract.passed ? 'passing check' : 'failing check'}, tests ${testsPassed ? 'pass' : 'fail'}, status ${statusPassed ? 'ok' : 'not ok'} → ${expected}`, () => {
      expect(requestPassed({ contract, testsPassed, statusPassed })).toBe(expected);
    });
  }
});
