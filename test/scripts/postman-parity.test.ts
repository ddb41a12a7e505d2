/**
 * Behaviour found to differ from Newman's (Postman's own runner) by running the same collections
 * through both, now the same: pm.test forms, jsonSchema, jsonBody(object), `to.be.ok`, the global
 * `_` with lodash 3's names, replaceIn's dynamic values, legacy `request.headers`, response
 * cookies, `query.add('k=v')`. Each case is a script and the result Newman gave for it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine, type ScriptRequest } from '../../src/scripts/index.js';
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
    `)).toEqual({ ok: 'pass', 'jsonBody equal': 'pass', 'jsonBody other': "fail: expected response body json to equal { id: 2 } but got { id: 1, name: 'Ada', …(1) }" });
    expect(await tests(`pm.test('ok', () => pm.response.to.be.ok); pm.test('success', () => pm.response.to.be.success);`, jsonResponse({}, 201)))
      .toEqual({ ok: "fail: expected response to have status reason 'OK' but got 'CREATED'", success: 'pass' });
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

  it('replaceIn gives back what is not text as it is, and fills the text inside objects and lists', async () => {
    const result = await engine.runPreRequest(preContext([`
      pm.environment.set('x', 'X');
      const show = (v) => (v === undefined ? 'undefined' : JSON.stringify(v)) + ':' + typeof v;
      console.log([pm.variables.replaceIn(5), pm.variables.replaceIn(undefined), pm.variables.replaceIn(null), pm.variables.replaceIn(true),
        pm.environment.replaceIn(5), pm.iterationData.replaceIn(7), pm.variables.replaceIn({ a: '{{x}}', n: [1, '{{x}}'] }), pm.variables.replaceIn('{{x}}')].map(show).join(' '));
    `]));
    expect(result.errors).toEqual([]);
    // Newman's results.
    expect(result.console[0]!.text).toBe('5:number undefined:undefined null:object true:boolean 5:number 7:number {"a":"X","n":[1,"X"]}:object "X":string');
  });

  it('legacy request: in Postman\'s key order; data is {} for no body, the text of a raw one, a form\'s fields with a repeated key as a list', async () => {
    const line = async (body?: { type: string; [field: string]: unknown }) => {
      const result = await engine.runPreRequest(preContext(['console.log(JSON.stringify(request))'], body ? { request: { ...preContext([]).request, method: 'POST', body } } : {}));
      expect(result.errors).toEqual([]);
      return JSON.parse(result.console[0]!.text) as Record<string, unknown>;
    };
    const none = await line();
    // No notes: no description in the line, as Newman's for a request without a description.
    expect(Object.keys(none)).toEqual(['id', 'name', 'headers', 'method', 'url', 'data']);
    // The id is pm.info.requestId's (Newman: the item's id for both).
    expect(none).toMatchObject({ id: 'Users/Get user.yaml', name: 'Get user' });
    expect(none.data).toEqual({});
    expect((await line({ type: 'text', text: 'RAW' })).data).toBe('RAW');
    expect((await line({ type: 'formUrlencoded', form: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }, { key: 'b', value: '3' }] })).data).toEqual({ a: ['1', '2'], b: '3' });
  });

  it('the request\'s notes: pm.request.description is Postman\'s Description ({content, type: text/plain}) or undefined, the legacy request.description its text', async () => {
    const code = `console.log(typeof pm.request.description, String(pm.request.description), JSON.stringify(pm.request.description), Object.keys(pm.request.description || {}).join(','),
      'description' in request, typeof request.description, JSON.stringify(request))`;
    const noted = await engine.runPostResponse(postContext([code], user, { request: { ...preContext([]).request, description: 'Some *notes*' } }));
    const none = await engine.runPostResponse(postContext([code], user));
    expect([...noted.errors, ...none.errors]).toEqual([]);
    // What Newman 6.2 logs for a request with "description": "Some *notes*" and one without the field (ids aside).
    expect(noted.console[0]!.text).toBe('object Some *notes* {"content":"Some *notes*","type":"text/plain"} content,type true string ' +
      '{"id":"Users/Get user.yaml","name":"Get user","description":"Some *notes*","headers":{"accept":"application/json"},"method":"GET","url":"http://127.0.0.1:1/users/1?a=1","data":{}}');
    expect(none.console[0]!.text).toBe('undefined undefined undefined  true undefined ' +
      '{"id":"Users/Get user.yaml","name":"Get user","headers":{"accept":"application/json"},"method":"GET","url":"http://127.0.0.1:1/users/1?a=1","data":{}}');
  });

  it('the request\'s id: pm.request.id, the legacy request.id and pm.info.requestId are all the request\'s path, in both phases; a request with no path goes by its name', async () => {
    const code = 'console.log(pm.request.id, request.id, pm.info.requestId)';
    const pre = await engine.runPreRequest(preContext([code]));
    const post = await engine.runPostResponse(postContext([code], user));
    const unsaved = await engine.runPreRequest(preContext([code], { info: { requestName: 'Scratch', iteration: 0 } }));
    expect([...pre.errors, ...post.errors, ...unsaved.errors]).toEqual([]);
    expect([pre.console[0]!.text, post.console[0]!.text]).toEqual(['Users/Get user.yaml Users/Get user.yaml Users/Get user.yaml', 'Users/Get user.yaml Users/Get user.yaml Users/Get user.yaml']);
    expect(unsaved.console[0]!.text).toBe('Scratch Scratch Scratch');
  });

  it('legacy responseCode: the reason given, Postman\'s description of the code and its standard name, in Postman\'s order (none for a code its table lacks)', async () => {
    // The lines Newman 6.2 logged for the same answers (a server giving these reasons).
    const line = async (code: number, status: string) => {
      const result = await engine.runPostResponse(postContext(['console.log(JSON.stringify(responseCode))'], { ...jsonResponse({}, code), status }));
      expect(result.errors).toEqual([]);
      return result.console[0]!.text;
    };
    expect(await line(404, 'Nope')).toBe('{"name":"Nope","detail":"The requested resource could not be found but may be available again in the future. Subsequent requests by the client are permissible.","code":404,"standardName":"Not Found"}');
    expect(await line(200, 'OK')).toBe('{"name":"OK","detail":"Standard response for successful HTTP requests. The actual response will depend on the request method used. In a GET request, the response will contain an entity corresponding to the requested resource. In a POST request the response will contain an entity describing or containing the result of the action.","code":200,"standardName":"OK"}');
    expect(await line(299, 'Odd one')).toBe('{"name":"Odd one","code":299}');
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
  it("chai-postman's response and request assertions, with Newman's messages", async () => {
    const long = jsonResponse({ method: 'GET', path: '/resp', query: {}, nested: { a: { b: 'c' } }, arr: [1, 2, 3], n: 1 }, 200, [['X-Num', '42']]);
    const ctx = postContext([`
      pm.test('statusCode', () => pm.response.to.have.statusCode(200));
      pm.test('statusCode text', () => pm.response.to.have.statusCode('200'));
      pm.test('F statusCode', () => pm.response.to.have.statusCode(201));
      pm.test('F not statusCode', () => pm.response.to.not.have.statusCode(200));
      pm.test('statusReason', () => pm.response.to.have.statusReason('OK'));
      pm.test('F statusReason', () => pm.response.to.have.statusReason('Created'));
      pm.test('statusCodeClass', () => pm.response.to.have.statusCodeClass(2));
      pm.test('F statusCodeClass', () => pm.response.to.have.statusCodeClass(4));
      pm.test('F not statusCodeClass', () => pm.response.to.not.have.statusCodeClass(2));
      pm.test('responseTime below', () => pm.response.to.have.responseTime.below(10000));
      pm.test('F responseTime above', () => pm.response.to.have.responseTime.above(100000));
      pm.test('responseTime method', () => pm.response.to.have.responseTime());
      pm.test('responseTime equal', () => pm.response.to.have.responseTime(12));
      pm.test('responseSize above', () => pm.response.to.have.responseSize.above(10));
      pm.test('F clientError', () => pm.response.to.be.clientError);
      pm.test('F not success', () => pm.response.to.not.be.success);
      pm.test('F error', () => pm.response.to.be.error);
      pm.test('F accepted', () => pm.response.to.be.accepted);
      pm.test('F not ok', () => pm.response.to.not.be.ok);
      pm.test('F body', () => pm.response.to.have.body('nope'));
      pm.test('F not body', () => pm.response.to.not.have.body(pm.response.text()));
      pm.test('F body regexp', () => pm.response.to.have.body(/nope/));
      pm.test('F not body regexp', () => pm.response.to.not.have.body(/GET/));
      pm.test('F body object', () => pm.response.to.have.body({ a: 1 }));
      pm.test('F jsonBody path', () => pm.response.to.have.jsonBody('nested.a.b', 'x'));
      pm.test('F jsonBody path obj', () => pm.response.to.have.jsonBody('nested.a', { b: 'x' }));
      pm.test('F jsonBody missing', () => pm.response.to.have.jsonBody('nope'));
      pm.test('F not jsonBody has', () => pm.response.to.not.have.jsonBody('n'));
      pm.test('jsonBody array index', () => pm.response.to.have.jsonBody('arr[1]', 2));
      pm.test('F not withBody', () => pm.response.to.not.be.withBody);
      pm.test('F not json', () => pm.response.to.not.be.json);
      pm.test('F header value', () => pm.response.to.have.header('X-Num', 42));
      pm.test('request header', () => pm.request.to.have.header('X-Item'));
      pm.test('request header value', () => pm.request.to.have.header('X-Item', 'r'));
      pm.test('F request header', () => pm.request.to.have.header('X-Nope'));
      pm.test('F request header value', () => pm.request.to.have.header('X-Item', 'q'));
      pm.test('F request not header', () => pm.request.to.not.have.header('X-Item'));
      pm.test('expect request', () => pm.expect(pm.request).to.have.header('x-item'));
      pm.test('unauthorised', () => pm.response.to.not.be.unauthorised);
      pm.test('F unauthorized', () => pm.response.to.be.unauthorized);
    `], long);
    ctx.request.headers = [{ key: 'X-Item', value: 'r' }];
    const result = await engine.runPostResponse(ctx);
    expect(result.errors).toEqual([]);
    const body = `'{"method":"GET","path":"/resp","query…'`;
    expect(Object.fromEntries(result.tests.map((t) => [t.name, t.passed ? 'pass' : `fail: ${t.message}`]))).toEqual({
      statusCode: 'pass',
      'statusCode text': 'pass',
      'F statusCode': 'fail: expected response to have status code 201 but got 200',
      'F not statusCode': 'fail: expected response to not have status code 200',
      statusReason: 'pass',
      'F statusReason': "fail: expected response to have status reason 'Created' but got 'OK'",
      statusCodeClass: 'pass',
      'F statusCodeClass': 'fail: expected response code to be 4XX but found 200',
      'F not statusCodeClass': 'fail: expected response code to not be 2XX',
      'responseTime below': 'pass',
      'F responseTime above': 'fail: expected 12 to be above 100000',
      'responseTime method': 'pass',
      'responseTime equal': 'pass',
      'responseSize above': 'pass',
      'F clientError': 'fail: expected response code to be 4XX but found 200',
      'F not success': 'fail: expected response code to not be 2XX',
      'F error': 'fail: expected response code to be 4XX or 5XX but found 200',
      'F accepted': "fail: expected response to have status reason 'ACCEPTED' but got 'OK'",
      'F not ok': "fail: expected response to not have status reason 'OK'",
      'F body': `fail: expected response body to equal 'nope' but got ${body}`,
      'F not body': `fail: expected response body to not equal ${body}`,
      'F body regexp': `fail: expected response body text to match /nope/ but got ${body}`,
      'F not body regexp': `fail: expected response body text ${body} to not match /GET/`,
      'F body object': "fail: expected response body json to equal { a: 1 } but got { method: 'GET', path: '/resp', …(4) }",
      'F jsonBody path': `fail: expected response body json at "nested.a.b" to contain 'x' but got 'c'`,
      'F jsonBody path obj': `fail: expected response body json at "nested.a" to contain { b: 'x' } but got { b: 'c' }`,
      'F jsonBody missing': "fail: expected { method: 'GET', path: '/resp', …(4) } in response to contain property 'nope'",
      'F not jsonBody has': "fail: expected { method: 'GET', path: '/resp', …(4) } in response to not contain property 'n'",
      'jsonBody array index': 'pass',
      'F not withBody': 'fail: expected response to not have content in body',
      'F not json': 'fail: expected response body not to be a valid json',
      'F header value': "fail: expected 'X-Num' response header to be 42 but got '42'",
      'request header': 'pass',
      'request header value': 'pass',
      'F request header': "fail: expected request to have header with key 'X-Nope'",
      'F request header value': "fail: expected 'X-Item' request header to be 'q' but got 'r'",
      'F request not header': "fail: expected request to not have header with key 'X-Item'",
      'expect request': 'pass',
      unauthorised: 'pass',
      'F unauthorized': "fail: expected response to have status reason 'UNAUTHORIZED' but got 'OK'",
    });
  });

  it('to.be.json on a body that is not JSON says why (the parser\'s reason), as Newman does', async () => {
    const text = { code: 200, headers: [['Content-Type', 'text/plain']] as [string, string][], body: 'plain text body', responseTime: 3, responseSize: 15 };
    expect(await tests(`
      pm.test('json', () => pm.response.to.be.json);
      pm.test('jsonBody', () => pm.response.to.have.jsonBody());
    `, text)).toEqual({
      json: 'fail: expected response body to be a valid json but got error unexpected token: \'plain\'',
      jsonBody: 'fail: expected response body to be a valid json but got error unexpected token: \'plain\'',
    });
  });
  it('tv4 (global and require) validates draft-04 schemas as in Newman: errors, messages, missing $refs, no format checks', async () => {
    const result = await engine.runPostResponse(postContext([`
      const schema = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string', format: 'email' }, tags: { type: 'array', items: { type: 'string' } } } };
      tests['valid'] = tv4.validate({ id: 1, name: 'not-an-email', tags: ['a'] }, schema);
      tests['invalid type'] = tv4.validate({ id: 'x', name: 'n' }, schema);
      pm.test('error after invalid type: ' + JSON.stringify([tv4.error.message, tv4.error.code, tv4.error.dataPath, tv4.error.schemaPath]), () => {});
      tests['missing'] = tv4.validate({ id: 1 }, schema);
      pm.test('error after missing: ' + JSON.stringify([tv4.error.message, tv4.error.code, tv4.error.dataPath]), () => {});
      const multi = tv4.validateMultiple({ id: 'x', tags: [1] }, schema);
      pm.test('multiple: ' + JSON.stringify([multi.valid, multi.errors.map(e => [e.message, e.dataPath]).sort()]), () => {});
      const res = tv4.validateResult({ id: 2, name: 'n' }, schema);
      pm.test('result: ' + JSON.stringify([res.valid, res.error, res.missing]), () => {});
      pm.test('require', () => pm.expect(require('tv4').validate(1, { type: 'string' })).to.equal(false));
      pm.test('unknown ref: ' + JSON.stringify([tv4.validate({ a: 1 }, { properties: { a: { $ref: 'http://example.com/s.json' } } }), tv4.missing]), () => {});
      tv4.addSchema('http://example.com/n.json', { type: 'number' });
      pm.test('added ref: ' + JSON.stringify(tv4.validate({ a: 'x' }, { properties: { a: { $ref: 'http://example.com/n.json' } } })), () => {});
      pm.test('enum: ' + JSON.stringify((tv4.validate('c', { enum: ['a', 'b'] }), tv4.error.message)), () => {});
      pm.test('minimum: ' + JSON.stringify((tv4.validate(1, { minimum: 2 }), tv4.error.message)), () => {});
    `], user));
    expect(result.errors).toEqual([]);
    // Newman's results for the same script.
    expect(result.tests.map((t) => [t.name, t.passed ? 'pass' : `fail: ${t.message}`])).toEqual([
      ['error after invalid type: ["Invalid type: string (expected integer)",0,"/id","/properties/id/type"]', 'pass'],
      ['error after missing: ["Missing required property: name",302,""]', 'pass'],
      ['multiple: [false,[["Invalid type: number (expected string)","/tags/0"],["Invalid type: string (expected integer)","/id"],["Missing required property: name",""]]]', 'pass'],
      ['result: [true,null,[]]', 'pass'],
      ['require', 'pass'],
      ['unknown ref: [true,["http://example.com/s.json"]]', 'pass'],
      ['added ref: false', 'pass'],
      ['enum: "No enum match for: \\"c\\""', 'pass'],
      ['minimum: "Value 1 is less than minimum 2"', 'pass'],
      ['valid', 'pass'],
      ['invalid type', 'fail: expected false to be truthy'],
      ['missing', 'fail: expected false to be truthy'],
    ]);
  });
});

/**
 * pm.request.url.toJSON() and pm.request.toJSON() against postman-collection's own Url and Request
 * (the library Newman's sandbox builds pm.request with), for URLs of every part and each body mode
 * and auth type; the id aside (Ferry's is the request's path, Newman's pm.request has none).
 */
describe('pm.request as JSON, as postman-collection writes it', () => {
  const collection = createRequire(import.meta.url)(createRequire(import.meta.url).resolve('postman-collection', { paths: [path.dirname(createRequire(import.meta.url).resolve('newman/package.json'))] })) as {
    Url: new (raw: string) => { toJSON(): unknown };
    Request: new (definition: unknown) => { toJSON(): unknown };
  };
  async function logged(request: ScriptRequest): Promise<[Record<string, unknown>, unknown]> {
    const result = await engine.runPreRequest(preContext(['console.log(JSON.stringify(pm.request)); console.log(JSON.stringify(pm.request.url));'], { request }));
    expect(result.errors).toEqual([]);
    return [JSON.parse(result.console[0]!.text) as Record<string, unknown>, JSON.parse(result.console[1]!.text)];
  }

  it('URLs: protocol, credentials, host labels, port, path, :parameters, query, hash, {{variables}}', async () => {
    const urls = [
      'http://u:p@a.b.c:80/x/:id/y?a&b=&c=1#frag', 'a.com', 'http://a.com/', 'https://h/x/:a/:a/:b.json', 'http://u@h/', 'http://h/a//b/',
      'http://[::1]:8080/x', '{{base}}/x?q={{v}}', 'http://{{host.name}}/{{a/b}}/c', '{{scheme}}://h:{{port}}/p?k={{x?y}}', 'http://h:/x',
    ];
    for (const url of urls) {
      const [, ferryUrl] = await logged({ method: 'GET', url, headers: [] });
      expect(ferryUrl, url).toEqual(new collection.Url(url).toJSON());
    }
  });

  it('each body mode and auth type, headers on and off, a path parameter with its value, notes', async () => {
    const cases: [ScriptRequest, Record<string, unknown>][] = [
      [{ method: 'POST', url: 'http://h/p/:id', description: 'notes', pathParams: [{ key: 'id', value: '7' }], headers: [{ key: 'A', value: '1' }, { key: 'B', value: '2', enabled: false }], body: { type: 'json', text: '{"a":1}' } },
        { description: 'notes', url: { protocol: 'http', host: ['h'], path: ['p', ':id'], variable: [{ key: 'id', value: '7' }] }, header: [{ key: 'A', value: '1' }, { key: 'B', value: '2', disabled: true }], method: 'POST', body: { mode: 'raw', raw: '{"a":1}', options: { raw: { language: 'json' } } } }],
      [{ method: 'POST', url: 'http://h/', headers: [], body: { type: 'formUrlencoded', form: [{ key: 'a', value: '1' }, { key: 'b', value: '2', enabled: false }] } },
        { url: 'http://h/', method: 'POST', body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: '1' }, { key: 'b', value: '2', disabled: true }] } }],
      [{ method: 'POST', url: 'http://h/', headers: [], body: { type: 'multipart', multipart: [{ key: 't', value: 'v' }, { key: 'f', value: 'a.txt', file: true }, { key: 'off', value: 'x', enabled: false }] } },
        { url: 'http://h/', method: 'POST', body: { mode: 'formdata', formdata: [{ key: 't', value: 'v', type: 'text' }, { key: 'f', src: 'a.txt', type: 'file' }, { key: 'off', value: 'x', type: 'text', disabled: true }] } }],
      [{ method: 'PUT', url: 'http://h/', headers: [], body: { type: 'binary', file: 'a.bin' } }, { url: 'http://h/', method: 'PUT', body: { mode: 'file', file: { src: 'a.bin' } } }],
      [{ method: 'GET', url: 'http://h/', headers: [], auth: { type: 'bearer', token: '{{tok}}', prefix: 'Bearer' } }, { url: 'http://h/', method: 'GET', auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{tok}}', type: 'string' }] } }],
      [{ method: 'GET', url: 'http://h/', headers: [], auth: { type: 'basic', username: 'u', password: 'p' } }, { url: 'http://h/', method: 'GET', auth: { type: 'basic', basic: [{ key: 'username', value: 'u', type: 'string' }, { key: 'password', value: 'p', type: 'string' }] } }],
      [{ method: 'GET', url: 'http://h/', headers: [], auth: { type: 'apiKey', key: 'X-Key', value: 'k', location: 'header' } }, { url: 'http://h/', method: 'GET', auth: { type: 'apikey', apikey: [{ key: 'key', value: 'X-Key', type: 'string' }, { key: 'value', value: 'k', type: 'string' }, { key: 'in', value: 'header', type: 'string' }] } }],
      [{ method: 'GET', url: 'http://h/', headers: [], auth: { type: 'none' } }, { url: 'http://h/', method: 'GET', auth: { type: 'noauth' } }],
      [{ method: 'GET', url: 'http://h/', headers: [], auth: { type: 'inherit' } }, { url: 'http://h/', method: 'GET' }],
    ];
    for (const [request, postman] of cases) {
      const [ferryRequest] = await logged(request);
      expect(ferryRequest.id).toBe('Users/Get user.yaml');
      delete ferryRequest.id;
      // As text: the keys' order is what a script hashing the line sees.
      expect(JSON.stringify(ferryRequest), JSON.stringify(postman)).toBe(JSON.stringify(new collection.Request(postman).toJSON()));
    }
  });
});
