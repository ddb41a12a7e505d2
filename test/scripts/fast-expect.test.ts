/**
 * pm.expect's fast paths (src/scripts/sandbox/fast-expect.ts) against chai itself: each case runs
 * once through `pm.expect` / `pm.response.to` and once through `require('chai').expect` in a
 * sandbox where the fast paths are off, and both must pass or fail alike, with the same message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine, type TestResult } from '../../src/scripts/index.js';
import { jsonResponse, postContext } from './helpers.js';

/** `E` is the expect function, `R` the response's assertion root (`pm.response`). */
const cases = [
  'E(1).to.equal(1)', 'E(1).to.equal(2)', 'E(1).to.not.equal(1)', 'E(1).not.to.equal(2)', "E(1, 'custom').to.equal(2)",
  "E(1).to.equal(2, 'as argument')", 'E(1).equals(1)', 'E(1).to.eq(3)', "E('a').to.equal('a')", 'E({}).to.equal({})',
  'E({ a: 1 }).to.eql({ a: 1 })', 'E({ a: 1 }).to.eql({ a: 2 })', 'E([1, [2]]).to.eql([1, [2]])', 'E(-0).to.eql(0)', 'E(NaN).to.eql(NaN)',
  'E({ a: 1 }).to.not.eql({ a: 1 })', 'E({ a: 1 }).to.deep.equal({ a: 1 })', 'E({ a: 1 }).to.deep.equal({ a: 2 })', 'E([1]).eqls([1])',
  "E({ a: 1 }).to.eql({ a: 2 }, 'eql message')",
  'E(5).to.be.below(10)', 'E(5).to.be.below(1)', 'E(5).to.be.above(1)', 'E(5).to.be.above(10)', 'E(5).to.be.at.least(5)',
  'E(5).to.be.at.most(4)', 'E(5).to.be.lt(6)', 'E(5).to.be.gte(6)', 'E(5).to.not.be.below(10)', 'E(5).to.be.lessThan(5)',
  'E(5).to.be.greaterThan(4)', 'E(5).to.be.lte(5)', "E('5').to.be.below(10)", "E(5).to.be.below('10')", 'E(NaN).to.be.below(1)',
  'E(NaN).to.not.be.below(1)', 'E(new Date(1)).to.be.below(new Date(2))', 'E(new Date(1)).to.be.below(2)', 'E(new Number(1)).to.be.below(2)',
  'E([1, 2]).to.have.length.below(3)', 'E([1, 2]).to.have.lengthOf.above(3)', "E(5).to.be.below(1, 'below message')",
  "E({ id: 1 }).to.have.property('id')", "E({ id: 1 }).to.have.property('id', 1)", "E({ id: 1 }).to.have.property('id', 2)",
  "E({ id: 1 }).to.have.property('x')", "E({ id: 1 }).to.not.have.property('id')", "E({ id: 1 }).to.not.have.property('x')",
  "E({ id: 1 }).to.have.property('id').that.equals(1)", "E({ id: 1 }).to.have.property('id').that.equals(2)",
  "E({ a: { b: 1 } }).to.have.nested.property('a.b')", "E({ a: 1 }).to.have.own.property('a')", "E(null).to.have.property('a')",
  "E('abc').to.have.property('length', 3)", "E({ id: { x: 1 } }).to.have.deep.property('id', { x: 1 })", "E({ id: 1 }).to.have.property('id', undefined)",
  "E({ id: 1 }).to.have.property('id', 1, 'property message')", 'E([5]).to.have.property(0, 5)', "E({ id: 1 }).to.have.property({})",
  "E({}).to.have.property('toString')", "E({ id: 1 }).to.have.property('id').that.is.a('string')",
  'R.to.have.status(200)', 'R.to.have.status(404)', 'R.to.not.have.status(200)', 'R.not.to.have.status(404)', "R.to.have.status('OK')",
  "R.to.have.status('Nope')", 'R.to.be.ok', 'R.not.to.be.ok', 'R.to.be.success', 'R.to.be.notFound', "R.to.have.header('Content-Type')",
  'R.to.be.json', "R.to.have.jsonBody('id', 7)", 'R.to.be.withBody', 'E(pm.response).to.have.status(200)', 'E({ code: 200 }).to.have.status(200)',
  'E(true).to.be.true', 'E(1).to.be.true', 'E(true).to.not.be.true', 'E(false).to.be.false', 'E(0).to.be.false', 'E(null).to.be.null',
  'E(0).to.be.null', 'E(undefined).to.be.undefined', 'E(null).to.be.undefined', 'E(0).to.exist', 'E(null).to.exist', 'E(null).to.not.exist',
  'E(1).to.exists', "E('x').to.be.ok", "E('').to.be.ok", "E('').to.not.be.ok", 'E(undefined).to.not.be.undefined',
  "E(1).to.be.a('number')", "E(1).to.be.an('string')", 'E([1, 2]).to.include(2)', 'E([1]).to.include(3)', "E('abc').to.include('b')",
  'E(1).to.be.oneOf([1, 2])', 'E(3).to.be.oneOf([1, 2])', 'E(1).to.be.closeTo(1.05, 0.1)', 'E(1).to.satisfy((x) => x > 0)',
  'E([1]).to.have.lengthOf(1)', 'E(1).to.be.instanceOf(Number)', 'E(NaN).to.be.NaN', 'E({}).to.be.empty', "E({ a: 1 }).to.have.keys('a')",
  'E([1, 2]).to.have.members([2, 1])', "E('abc').to.match(/b/)", "E('abc').to.match(/x/)", 'E(() => { throw new Error("x"); }).to.throw()',
  'E(1).and.to.have.been.with.that.which.at.of.same.but.does.still.also.equal(1)', 'E(1).to.is.equal(2)',
  'E(1).to.be.tru', 'E(1).to.bee', 'E(1).to.equal.foo', 'E(1).to.equal.length', 'E(1).to.be.a.foo', 'E(1).nope',
  "if (typeof E(1).then !== 'undefined') throw new Error('then is defined')", "if (typeof E(1).to.catch !== 'undefined') throw new Error('catch')",
  "E.fail('boom')", 'E.fail(1, 2)',
  'const a = E(1).to; a.not; a.equal(1)', 'const a = E(1); const b = a.to; a.not; b.equal(1)', 'const a = E({ id: 2 }); a.to.have.property("id"); a.to.equal(2)',
  "E(E(1).to.equal(1)).to.be.an('object')", 'E(E(1).to).to.be.instanceOf(require("chai").Assertion)',
  "E(Object.keys(E(1).to.equal(1).__flags)).to.eql(Object.keys(require('chai').expect(1).to.equal(1).__flags))",
];

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
