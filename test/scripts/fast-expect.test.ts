/**
 * pm.expect's fast paths (src/scripts/sandbox/fast-expect.ts) against chai itself: each case runs
 * once through `pm.expect` / `pm.response.to` and once through `require('chai').expect` in a
 * sandbox where the fast paths are off, and both must pass or fail alike, with the same message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine, type TestResult } from '../../src/scripts/index.js';
import { jsonResponse, postContext } from './helpers.js';
import { cases } from './expect-cases.js';

function script(useChai: boolean): string {
  // The reference reads pm.expect once, so Postman's response assertions are added to chai, then
  // calls one of chai's plugin utilities (on a throwaway object), which turns the fast paths off.
  const setup = useChai
    ? `void pm.expect; const chai = require('chai'); chai.util.addMethod({}, 'unused', () => {}); const E = chai.expect;
       const R = { get to() { return chai.expect(pm.response).to; }, get not() { return chai.expect(pm.response).not; } };`
    : 'const E = pm.expect; const R = pm.response;';
  return [setup, ...cases.map((c, i) => `pm.test(${JSON.stringify(`${i}: ${c}`)}, () => { ${c}; });`)].join('\n');
}

const response = jsonResponse({ id: 7, user: { name: 'Ada' } });
let fast: ScriptEngine;
let reference: ScriptEngine;
beforeAll(async () => {
  fast = await ScriptEngine.create();
  reference = await ScriptEngine.create();
});
afterAll(() => {
  fast.dispose();
  reference.dispose();
});

async function tests(engine: ScriptEngine, code: string): Promise<TestResult[]> {
  const result = await engine.runPostResponse(postContext([code], response));
  expect(result.errors).toEqual([]);
  return result.tests;
}

describe('pm.expect fast paths', () => {
  it('pass and fail as chai does, with chai\'s messages', async () => {
    const [got, want] = [await tests(fast, script(false)), await tests(reference, script(true))];
    expect(got).toHaveLength(cases.length);
    expect(got.map(({ name, passed, message }) => ({ name, passed, message }))).toEqual(want.map(({ name, passed, message }) => ({ name, passed, message })));
    // Not vacuous: both kinds of outcome, and chai's wording.
    const byCase = new Map(got.map((t) => [t.name.replace(/^\d+: /, ''), t]));
    expect(byCase.get('E(1).to.equal(2)')).toMatchObject({ passed: false, message: 'expected 1 to equal 2' });
    expect(byCase.get("E(1, 'custom').to.equal(2)")).toMatchObject({ passed: false, message: 'custom: expected 1 to equal 2' });
    expect(byCase.get("E({ id: 1 }).to.have.property('id', 2)")).toMatchObject({ passed: false, message: "expected { id: 1 } to have property 'id' of 2, but got 1" });
    expect(byCase.get('R.to.have.status(404)')).toMatchObject({ passed: false, message: 'expected response to have status code 404 but got 200' });
    expect(byCase.get('E(1).to.be.tru')).toMatchObject({ passed: false, message: 'Invalid Chai property: tru. Did you mean "true"?' });
    expect(byCase.get('E(1).to.equal.foo')?.message).toMatch(/^Invalid Chai property: equal\.foo/);
    expect(byCase.get('const a = E(1).to; a.not; a.equal(1)')).toMatchObject({ passed: false, message: 'expected 1 to not equal 1' });
    expect(byCase.get('E(5).to.be.below(10)')).toMatchObject({ passed: true });
    expect(got.filter((t) => t.passed).length).toBeGreaterThan(40);
    expect(got.filter((t) => !t.passed).length).toBeGreaterThan(40);
  });

  it('runs a plugin\'s assertions once a script extends chai', async () => {
    const code = `
      const chai = require('chai');
      pm.test('before', () => pm.expect(2).to.equal(2));
      chai.use(function (c, utils) {
        c.Assertion.overwriteMethod('equal', (original) => function (value) {
          if (value === 'anything') return;
          return original.apply(this, arguments);
        });
        c.Assertion.addProperty('even', function () { this.assert(utils.flag(this, 'object') % 2 === 0, 'expected #{this} to be even', 'expected #{this} to be odd'); });
      });
      pm.test('overwritten', () => pm.expect(1).to.equal('anything'));
      pm.test('added', () => pm.expect(3).to.be.even);
      pm.test('still chai', () => pm.expect(1).to.equal(2));`;
    const engine = await ScriptEngine.create();
    try {
      const got = await tests(engine, code);
      expect(got.map(({ name, passed, message }) => ({ name, passed, message }))).toEqual([
        { name: 'before', passed: true, message: undefined },
        { name: 'overwritten', passed: true, message: undefined },
        { name: 'added', passed: false, message: 'expected 3 to be even' },
        { name: 'still chai', passed: false, message: 'expected 1 to equal 2' },
      ]);
    } finally {
      engine.dispose();
    }
  });
});
