/**
 * Behaviour found to differ from Newman's (Postman's own runner) by running the same collections
 * through both, now the same: pm.test forms, jsonSchema, jsonBody(object), `to.be.ok`, the global
 * `_` with lodash 3's names, replaceIn's dynamic values, legacy `request.headers`, response
 * cookies, `query.add('k=v')`. Each case is a script and the result Newman gave for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine } from '../../src/scripts/index.js';
import { jsonResponse, postContext, preContext } from './helpers.js';

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await ScriptEngine.create();
});
afterAll(() => engine.dispose());

const user = jsonResponse({ id: 1, name: 'Ada', tags: ['a', 'b'] }, 200, [['Set-Cookie', 'sess=abc123; Path=/; HttpOnly'], ['Set-Cookie', 'theme=dark']]);

async function tests(code: string, response = user) {
  const result = await engine.runPostResponse(postContext([code], response));
  expect(result.errors).toEqual([]);
  return Object.fromEntries(result.tests.map((t) => [t.name, t.passed ? 'pass' : `fail: ${t.message}`]));
}

describe('as Newman runs them', () => {
  it('pm.test: a name alone passes; the done callback form passes, fails with done(error), and fails when done is never called', async () => {
    expect(await tests(`
      pm.test('name only');
      pm.test('done', function (done) { pm.expect(1).to.equal(1); done(); });
      pm.test('done error', function (done) { done(new Error('boom')); });
      pm.test('done never', function (done) {});
      pm.test('throws before done', function (done) { throw new Error('early'); });
    `)).toEqual({
      'name only': 'pass',
      done: 'pass',
      'done error': 'fail: boom',
      'done never': 'fail: the test never called done() (scripts have no timers or network, so call it before the script ends)',
      'throws before done': 'fail: early',
    });
  });

  it('jsonSchema on the response and on any value: pass, and fail naming each reason', async () => {
    const result = await tests(`
      const schema = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } };
      pm.test('response', () => pm.response.to.have.jsonSchema(schema));
      pm.test('value', () => pm.expect({ id: 2 }).to.have.jsonSchema(schema));
      pm.test('draft-04', () => pm.response.to.have.jsonSchema({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { id: { type: 'integer', minimum: 1 } } }));
      pm.test('with $ref', () => pm.response.to.have.jsonSchema({ definitions: { name: { type: 'string', minLength: 2 } }, properties: { name: { $ref: '#/definitions/name' } } }));
      pm.test('fails', () => pm.response.to.have.jsonSchema({ required: ['missing'], properties: { name: { type: 'number' } } }));
      pm.test('not', () => pm.response.to.not.have.jsonSchema({ required: ['missing'] }));
    `);
    expect(result).toMatchObject({ response: 'pass', value: 'pass', 'draft-04': 'pass', 'with $ref': 'pass', not: 'pass' });
    expect(result.fails).toBe('fail: expected data to satisfy schema but found following errors: \n#: Instance does not have required property "missing"., #/name: Instance type "string" is invalid. Expected "number".');
  });

  it('to.be.ok is status 200 (201 is not); jsonBody(object) compares the whole body', async () => {
    expect(await tests(`
      pm.test('ok', () => pm.response.to.be.ok);
      pm.test('jsonBody equal', () => pm.response.to.have.jsonBody({ id: 1, name: 'Ada', tags: ['a', 'b'] }));
      pm.test('jsonBody other', () => pm.response.to.have.jsonBody({ id: 2 }));
    `)).toEqual({ ok: 'pass', 'jsonBody equal': 'pass', 'jsonBody other': 'fail: expected response body json to equal the given object' });
    expect(await tests(`pm.test('ok', () => pm.response.to.be.ok); pm.test('success', () => pm.response.to.be.success);`, jsonResponse({}, 201)))
      .toEqual({ ok: "fail: expected response to have status reason 'OK' but got 'Created'", success: 'pass' });
  });

  it('the global _ answers to lodash 3 names; require("lodash") is lodash 4', async () => {
    expect(await tests(`
      pm.test('pluck', () => pm.expect(_.pluck([{ a: 1 }, { a: 2 }], 'a')).to.eql([1, 2]));
      pm.test('contains', () => pm.expect(_.contains([1, 2], 2)).to.equal(true));
      pm.test('where', () => pm.expect(_.where([{ a: 1, b: 1 }, { a: 2 }], { a: 1 })).to.have.lengthOf(1));
      pm.test('indexBy', () => pm.expect(_.indexBy([{ id: 'x' }], 'id')).to.have.property('x'));
      pm.test('lodash 4 too', () => pm.expect(_.keyBy([{ id: 'x' }], 'id')).to.have.property('x'));
      pm.test('require', () => pm.expect(require('lodash').pluck).to.equal(undefined));
    `)).toEqual({ pluck: 'pass', contains: 'pass', where: 'pass', indexBy: 'pass', 'lodash 4 too': 'pass', require: 'pass' });
  });

  it('replaceIn fills every dynamic value the templates know', async () => {
    const result = await engine.runPreRequest(preContext([`console.log(pm.variables.replaceIn('{{$randomEmail}} {{$randomBoolean}} {{$randomAlphaNumeric}} {{$uuid}} {{$timestampMs}} {{$nope}}'));`]));
    expect(result.console[0]!.text).toMatch(/^user\d{4}@example\.com (true|false) [a-z0-9] [0-9a-f-]{36} \d{13} \{\{\$nope\}\}$/);
  });

  it('legacy request.headers are keyed in lower case; response cookies are a list', async () => {
    const ctx = postContext([`
      tests['legacy header'] = request.headers['x-req'] === 'rv';
      pm.test('cookies', () => {
        pm.expect(pm.response.cookies.get('sess')).to.equal('abc123');
        pm.expect(pm.response.cookies.has('theme')).to.equal(true);
        pm.expect(pm.response.cookies.count()).to.equal(2);
        pm.expect(pm.response.cookies.toObject()).to.eql({ sess: 'abc123', theme: 'dark' });
        pm.expect(pm.response.cookies.one('sess').httponly).to.equal(true);
      });
    `], user);
    ctx.request.headers = [{ key: 'X-Req', value: 'rv' }];
    const result = await engine.runPostResponse(ctx);
    expect(result.errors).toEqual([]);
    expect(result.tests.map((t) => [t.name, t.passed, t.message])).toEqual([['cookies', true, undefined], ['legacy header', true, undefined]]);
  });

  it('failure messages read as Newman\'s: a legacy tests[...] value, a missing header', async () => {
    expect(await tests(`
      tests['false'] = false;
      tests['undefined'] = undefined;
      tests['empty'] = '';
      tests['zero'] = 0;
      tests['true'] = 1;
      pm.test('no header', () => pm.response.to.have.header('Location'));
      pm.test('has header', () => pm.response.to.not.have.header('Content-Type'));
      pm.test('header value', () => pm.response.to.have.header('Content-Type', 'text/plain'));
    `)).toEqual({
      false: 'fail: expected false to be truthy',
      undefined: 'fail: expected undefined to be truthy',
      empty: 'fail: expected  to be truthy',
      zero: 'fail: expected 0 to be truthy',
      true: 'pass',
      'no header': "fail: expected response to have header with key 'Location'",
      'has header': "fail: expected response to not have header with key 'Content-Type'",
      'header value': "fail: expected 'Content-Type' response header to be 'text/plain' but got 'application/json'",
    });
  });

  it("query.add('k=v') adds the pair k=v (a header list still reads 'Name: value')", async () => {
    const result = await engine.runPreRequest(preContext([`pm.request.url.query.add('added=3'); pm.request.headers.add('X-A: 1');`]));
    expect(result.errors).toEqual([]);
    expect(result.request?.url).toBe('http://127.0.0.1:1/users/1?a=1&added=3');
    expect(result.request?.headers).toContainEqual({ key: 'X-A', value: '1' });
  });
});
