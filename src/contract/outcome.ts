/**
 * How a collection run judges a request once the contract test is known (spec 7.1): a failing
 * check fails the request; a passing check means the request is judged by its tests, not by
 * its status (so a documented 404 is fine). Without a check the run's usual rule applies.
 */
import type { ContractTestResult } from './types.js';

export function requestPassed(input: {
  contract: ContractTestResult | null;
  /** Whether every test of the request's own scripts passed. */
  testsPassed: boolean;
  /** The run's usual verdict on the status (e.g. not 4xx/5xx), used when there is no check. */
  statusPassed: boolean;
}): boolean {
  if (input.contract === null) return input.statusPassed && input.testsPassed;
  return input.contract.passed && input.testsPassed;
}
