/**
 * chai is evaluated in the sandbox only when an assertion needs it (src/scripts/sandbox/fast-expect.ts):
 * passing common assertions never load it; a failing one, a chain with no fast path, `pm.expect.fail`
 * or a script's `require('chai')` load it, and then behave exactly as chai. Whether chai was loaded is
 * read from the engine (`modulesLoaded`), not from timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine, type TestResult } from '../../src/scripts/index.js';
import { jsonResponse, postContext } from './helpers.js';
import { cases } from './expect-cases.js';

const response = jsonResponse({ id: 7, user: { name: 'Ada' } });

async function run(engine: ScriptEngine, code: string): Promise<TestResult[]> {
  const result = await engine.runPostResponse(postContext([code], response));
  expect(result.errors).toEqual([]);
  return result.tests;
}

async function withEngine<T>(body: (engine: ScriptEngine) => Promise<T>): Promise<T> {
  const engine = await ScriptEngine.create();
  try {
    return await body(engine);
  } finally {
    engine.dispose();
  }
}

const outcome = ({ name, passed, message }: TestResult) => ({ name, passed, message });

describe('chai loaded only when an assertion needs it', () => {
  let reference: ScriptEngine;
  beforeAll(async () => {
    reference = await ScriptEngine.create();
  });
  afterAll(() => reference.dispose());

  it('runs the common passing assertions without loading chai', async () => {
    const code = `
      const body = pm.response.json();
      pm.test('status', () => pm.response.to.have.status(200));
      pm.test('status text', () => { pm.response.to.have.status('OK'); pm.response.to.be.ok; pm.response.to.not.have.status(404); });
      pm.test('equal', () => { pm.expect(body.id).to.equal(7); pm.expect(body.id).to.not.equal(8); pm.expect(body.id).to.eql(7); });
      pm.test('deep', () => { pm.expect(body.user).to.eql({ name: 'Ada' }); pm.expect(body).to.deep.equal({ id: 7, user: { name: 'Ada' } }); });
      pm.test('property', () => { pm.expect(body).to.have.property('id', 7); pm.expect(body).to.have.property('user').that.has.property('name'); });
      pm.test('types', () => { pm.expect(body).to.be.an('object'); pm.expect(body.user.name).to.be.a('string'); pm.expect([1]).to.be.an('array'); });
      pm.test('include', () => { pm.expect(pm.response.text()).to.include('Ada'); pm.expect([1, 2]).to.include(2); pm.expect('abc').to.not.contain('x'); });
      pm.test('numbers', () => { pm.expect(pm.response.responseTime).to.be.below(5000); pm.expect(body.id).to.be.above(1).and.at.most(7); });
      pm.test('one of', () => pm.expect(pm.response.code).to.be.oneOf([200, 201]));
      pm.test('flags', () => { pm.expect(true).to.be.true; pm.expect(null).to.be.null; pm.expect(body.nope).to.be.undefined; pm.expect(body).to.exist; });
      pm.test('returned assertion', () => pm.expect(1).to.equal(1));
      pm.test('returned chainable', () => pm.expect([1]).to.include);
      pm.test('async', async () => { pm.expect(body.id).to.equal(7); });`;
    await withEngine(async (engine) => {
      const tests = await run(engine, code);
      expect(tests).toHaveLength(13);
      expect(tests.filter((t) => !t.passed)).toEqual([]);
      expect(engine.modulesLoaded()).toEqual([]);
      // A second script in the same sandbox: still no chai.
      expect(await run(engine, "pm.test('again', () => pm.expect({ a: [1] }).to.eql({ a: [1] }));")).toMatchObject([{ passed: true }]);
      expect(engine.modulesLoaded()).toEqual([]);
    });
  });

  it('loads chai for a failing assertion and gives chai\'s exact message', async () => {
    await withEngine(async (engine) => {
      const tests = await run(engine, `
        pm.test('fails', () => pm.expect(1).to.equal(2));
        pm.test('fails deep', () => pm.expect({ a: 1 }).to.eql({ a: 2 }, 'deep'));
        pm.test('fails type', () => pm.expect('x').to.be.a('number'));
        pm.test('fails include', () => pm.expect('abc').to.include('z'));
        pm.test('fails status', () => pm.response.to.have.status(201));`);
      expect(engine.modulesLoaded()).toEqual(['chai']);
      expect(tests.map(outcome)).toEqual([
        { name: 'fails', passed: false, message: 'expected 1 to equal 2' },
        { name: 'fails deep', passed: false, message: 'deep: expected { a: 1 } to deeply equal { a: 2 }' },
        { name: 'fails type', passed: false, message: "expected 'x' to be a number" },
        { name: 'fails include', passed: false, message: "expected 'abc' to include 'z'" },
        { name: 'fails status', passed: false, message: 'expected response to have status code 201 but got 200' },
      ]);
    });
  });

  it('gives every case chai\'s outcome when it is the first assertion of a sandbox', async () => {
    const setup = `void pm.expect; const chai = require('chai'); chai.util.addMethod({}, 'unused', () => {}); const E = chai.expect;
      const R = { get to() { return chai.expect(pm.response).to; }, get not() { return chai.expect(pm.response).not; } };`;
    const want = await run(reference, [setup, ...cases.map((c, i) => `pm.test(${JSON.stringify(`${i}`)}, () => { ${c}; });`)].join('\n'));
    expect(want).toHaveLength(cases.length);
    let withoutChai = 0;
    for (let i = 0; i < cases.length; i++) {
      // Each case in an engine of its own: chai is loaded (or not) by that case alone.
      const engine = await ScriptEngine.create();
      try {
        const got = await run(engine, `const E = pm.expect; const R = pm.response; pm.test(${JSON.stringify(`${i}`)}, () => { ${cases[i]}; });`);
        expect({ case: cases[i], ...outcome(got[0]!) }).toEqual({ case: cases[i], ...outcome(want[i]!) });
        if (engine.modulesLoaded().length === 0) {
          withoutChai++;
          expect({ case: cases[i], passed: got[0]!.passed }).toEqual({ case: cases[i], passed: true });
        }
      } finally {
        engine.dispose();
      }
    }
    // Not vacuous: many cases ran without chai, and the failing ones all loaded it.
    expect(withoutChai).toBeGreaterThan(50);
  }, 120_000);

  it('loads chai for chains with no fast path and for pm.expect.fail', async () => {
    await withEngine(async (engine) => {
      const tests = await run(engine, `
        pm.test('members', () => pm.expect([1, 2]).to.have.members([2, 1]));
        pm.test('match', () => pm.expect('abc').to.match(/b/));`);
      expect(tests.map(outcome)).toEqual([{ name: 'members', passed: true, message: undefined }, { name: 'match', passed: true, message: undefined }]);
      expect(engine.modulesLoaded()).toEqual(['chai']);
    });
    await withEngine(async (engine) => {
      const tests = await run(engine, "pm.test('fail', () => pm.expect.fail('boom'));");
      expect(tests.map(outcome)).toEqual([{ name: 'fail', passed: false, message: 'boom' }]);
      expect(engine.modulesLoaded()).toEqual(['chai']);
    });
  });

  it('runs a plugin added with chai.use before any assertion, and Postman\'s response assertions on require(\'chai\')', async () => {
    await withEngine(async (engine) => {
      const tests = await run(engine, `
        const chai = require('chai');
        chai.use(function (c, utils) {
          c.Assertion.addMethod('even', function () { this.assert(utils.flag(this, 'object') % 2 === 0, 'expected #{this} to be even', 'expected #{this} to be odd'); });
        });
        pm.test('plugin passes', () => pm.expect(4).to.be.even());
        pm.test('plugin fails', () => pm.expect(3).to.be.even());
        pm.test('chai\\'s own expect on the response', () => chai.expect(pm.response).to.have.status(200));
        pm.test('instanceof', () => pm.expect(pm.expect(1).to).to.be.instanceOf(chai.Assertion));`);
      expect(tests.map(outcome)).toEqual([
        { name: 'plugin passes', passed: true, message: undefined },
        { name: 'plugin fails', passed: false, message: 'expected 3 to be even' },
        { name: "chai's own expect on the response", passed: true, message: undefined },
        { name: 'instanceof', passed: true, message: undefined },
      ]);
      expect(engine.modulesLoaded()).toEqual(['chai']);
    });
  });
});
