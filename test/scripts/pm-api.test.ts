import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine } from '../../src/scripts/index.js';
import { jsonResponse, postContext, preContext } from './helpers.js';

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await ScriptEngine.create();
});
afterAll(() => engine.dispose());

describe('variables', () => {
  it('reads, sets and unsets every scope and reports net changes', async () => {
    const result = await engine.runPreRequest(preContext([
      `pm.environment.set('token', 'abc'); pm.environment.unset('base');
       pm.collectionVariables.set('n', 3); pm.globals.set('obj', {a: [1]}); pm.globals.unset('g');
       pm.variables.set('local', 'L');`,
      `console.log(pm.environment.get('token'), pm.environment.has('base'), pm.collectionVariables.get('c'),
         JSON.stringify(pm.globals.toObject()), pm.variables.get('local'), pm.environment.name);`,
    ]));
    expect(result.errors).toEqual([]);
    expect(result.console.map((c) => c.text)).toEqual(['abc false coll {"obj":{"a":[1]}} L Local']);
    expect(result.changes.environment).toEqual({ cleared: false, set: { token: 'abc' }, unset: ['base'] });
    expect(result.changes.collection.set).toEqual({ n: 3 });
    expect(result.changes.globals).toEqual({ cleared: false, set: { obj: { a: [1] } }, unset: ['g'] });
    expect(result.changes.local.set).toEqual({ local: 'L' });
    expect(result.variables.environment).toEqual({ token: 'abc' });
  });

  it('a script that changes nothing keeps what the scripts before it changed, and the values as they came', async () => {
    const ctx = preContext([
      `pm.environment.set('token', 'abc'); pm.variables.set('local', 'L');`,
      `console.log(pm.environment.get('token'), pm.variables.get('local'), pm.globals.get('g'));`,
      `pm.collectionVariables.unset('c');`,
    ]);
    ctx.variables.globals = { g: 'kept', n: 2.5, nested: { a: [1, null] } };
    const result = await engine.runPreRequest(ctx);
    expect(result.errors).toEqual([]);
    expect(result.console.map((c) => c.text)).toEqual(['abc L kept']);
    expect(result.changes.environment).toEqual({ cleared: false, set: { token: 'abc' }, unset: [] });
    expect(result.changes.local).toEqual({ cleared: false, set: { local: 'L' }, unset: [] });
    expect(result.changes.collection).toEqual({ cleared: false, set: {}, unset: ['c'] });
    expect(result.changes.globals).toEqual({ cleared: false, set: {}, unset: [] });
    expect(result.variables.globals).toEqual({ g: 'kept', n: 2.5, nested: { a: [1, null] } });
    expect(result.variables.collection).toEqual({});
    expect(result.variables.local).toEqual({ local: 'L' });
  });

  it('pm.variables follows Postman precedence: local, data, environment, collection, globals', async () => {
    const ctx = preContext([
      `console.log(pm.variables.get('x'), pm.variables.get('y'), pm.variables.get('z'), pm.variables.get('w'));
       pm.variables.set('x', 'local');
       console.log(pm.variables.get('x'), pm.variables.replaceIn('{{y}}/{{z}}/{{missing}}'), pm.iterationData.get('x'));`,
    ]);
    ctx.variables = {
      environment: { x: 'env', y: 'env' }, collection: { x: 'coll', y: 'coll', z: 'coll' }, globals: { w: 'glob', z: 'glob' },
      iterationData: { x: 'data' },
    };
    const result = await engine.runPreRequest(ctx);
    expect(result.console.map((c) => c.text)).toEqual(['data env coll glob', 'local env/coll/{{missing}} data']);
  });

  it('replaceIn fills nested placeholders and leaves unknown ones as written', async () => {
    const ctx = preContext([`console.log(pm.environment.replaceIn('{{host.{{one}}}}:{{nope}}'))`]);
    ctx.variables.environment = { one: '1', 'host.1': 'example.test' };
    const result = await engine.runPreRequest(ctx);
    expect(result.console[0]!.text).toBe('example.test:{{nope}}');
  });

  it('replaceIn reads placeholders as requests do: spaces around the name, one line, a variable before a dynamic value of its name', async () => {
    const ctx = preContext([`console.log(pm.variables.replaceIn('{{ host }}|{{\\thost }}|{{$uuid}}|{{$mine}}|{{ho\\nst}}|{{}}|{{ {{one}} }}'))`]);
    ctx.variables.environment = { host: 'h', $uuid: 'fixed', $mine: 'M', one: 'host' };
    const result = await engine.runPreRequest(ctx);
    expect(result.errors).toEqual([]);
    expect(result.console[0]!.text).toBe('h|h|fixed|M|{{ho\nst}}|{{}}|h');
  });

  it('legacy setEnvironmentVariable keeps falsy values and turns others into text, as Postman does', async () => {
    const result = await engine.runPreRequest(preContext([
      `postman.setEnvironmentVariable('zero', 0); postman.setEnvironmentVariable('one', 1); postman.setGlobalVariable('t', true);
       console.log(typeof postman.getEnvironmentVariable('zero'), typeof postman.getEnvironmentVariable('one'), environment.one, globals.t);`,
    ]));
    expect(result.console[0]!.text).toBe('number string 1 true');
    expect(result.changes.environment.set).toEqual({ zero: 0, one: '1' });
  });

  it('clear() is reported so the runner can drop stored values', async () => {
    const result = await engine.runPreRequest(preContext([`pm.environment.clear(); pm.environment.set('k', 'v')`]));
    expect(result.changes.environment).toEqual({ cleared: true, set: { k: 'v' }, unset: [] });
  });

  it('refuses a non-string variable name with a message naming the method', async () => {
    const result = await engine.runPreRequest(preContext([`pm.environment.set({a: 1}, 2)`]));
    expect(result.errors[0]!.message).toMatch(/pm\.environment\.set: the variable name must be a string, not an object/);
  });
});

describe('pm.request', () => {
  it('changes url, method, headers and body, and the runner gets them back', async () => {
    const ctx = preContext([
      `pm.request.url.query.add({key: 'b', value: '{{x}}'});
       pm.request.headers.add({key: 'X-Trace', value: '1'});
       pm.request.headers.upsert({key: 'accept', value: 'text/plain'});
       pm.request.method = 'post';
       pm.request.body.update({mode: 'raw', raw: JSON.stringify({a: 1}), options: {raw: {language: 'json'}}});`,
      `pm.request.headers.remove('X-Trace'); pm.request.addHeader('X-Other: yes');
       console.log(pm.request.url.toString(), pm.request.url.getHost(), pm.request.url.getPath(), pm.request.headers.get('ACCEPT'));`,
    ]);
    const result = await engine.runPreRequest(ctx);
    expect(result.errors).toEqual([]);
    expect(result.request.method).toBe('POST');
    expect(result.request.url).toBe('http://127.0.0.1:1/users/1?a=1&b={{x}}');
    expect(result.request.headers).toEqual([{ key: 'Accept', value: 'text/plain' }, { key: 'X-Other', value: 'yes' }]);
    expect(result.request.body).toEqual({ type: 'json', text: '{"a":1}' });
    expect(result.console[0]!.text).toBe('http://127.0.0.1:1/users/1?a=1&b={{x}} 127.0.0.1 /users/1 text/plain');
  });

  it('leaves an untouched request exactly as given, placeholders and unknown fields included', async () => {
    const request = {
      name: 'R', method: 'PUT', url: '{{base}}/a b/{{id}}?q={{q}}&&x#frag',
      headers: [{ key: 'A', value: '{{v}}', enabled: false, description: 'kept' }],
      body: { type: 'formUrlencoded', form: [{ key: 'f', value: '1' }], text: 'kept too' },
      auth: { type: 'bearer', token: '{{t}}' },
    };
    const result = await engine.runPreRequest(preContext([`pm.request.url.getQueryString(); pm.request.headers.count();`], { request }));
    expect(result.request).toEqual(request);
  });

  it('assigning a string to pm.request.url replaces the URL', async () => {
    const result = await engine.runPreRequest(preContext([`pm.request.url = 'https://example.test/new?x=1'; pm.request.url.addQueryParams('y=2')`]));
    expect(result.request.url).toBe('https://example.test/new?x=1&y=2');
  });

  it('form bodies map to urlencoded PropertyLists and back', async () => {
    const request = { method: 'POST', url: 'http://h/', headers: [], body: { type: 'formUrlencoded', form: [{ key: 'a', value: '1' }, { key: 'b', value: '2', enabled: false }] } };
    const result = await engine.runPreRequest(preContext([
      `console.log(pm.request.body.mode, pm.request.body.toString()); pm.request.body.urlencoded.add({key: 'c', value: 'x y'});`,
    ], { request }));
    expect(result.console[0]!.text).toBe('urlencoded a=1');
    expect(result.request.body).toEqual({ type: 'formUrlencoded', form: [{ key: 'a', value: '1' }, { key: 'b', value: '2', enabled: false }, { key: 'c', value: 'x y' }] });
  });
});

describe('pm.response and tests', () => {
  const response = jsonResponse({ id: 7, user: { name: 'Ada' } }, 200, [['Set-Cookie', 'sid=42; Path=/; HttpOnly']]);

  it('runs sync and async tests with chai, and reports each with its message', async () => {
    const result = await engine.runPostResponse(postContext([
      `pm.test('status 200', () => pm.response.to.have.status(200));
       pm.test('ok', function () { pm.response.to.be.ok; pm.response.to.be.json; pm.response.to.have.header('content-type'); });
       pm.test('json body', () => { pm.expect(pm.response.json().user.name).to.eql('Ada'); pm.response.to.have.jsonBody('user.name', 'Ada'); });
       pm.test('fails', () => pm.expect(pm.response.code).to.equal(201));
       pm.test('async passes', async () => { await Promise.resolve(); pm.expect(1).to.be.below(2); });
       pm.test('async fails', () => Promise.reject(new Error('nope')));
       pm.test('never settles', () => new Promise(() => {}));
       pm.test.skip('skipped', () => { throw new Error('not run'); });
       pm.test('status text', () => pm.response.to.have.status('OK'));`,
    ], response));
    expect(result.errors).toEqual([]);
    const summary = result.tests.map((t) => [t.name, t.skipped ? 'skip' : t.passed]);
    expect(summary).toEqual([
      ['status 200', true], ['ok', true], ['json body', true], ['fails', false], ['async passes', true],
      ['async fails', false], ['never settles', false], ['skipped', 'skip'], ['status text', true],
    ]);
    expect(result.tests[3]!.message).toBe('expected 200 to equal 201');
    expect(result.tests[5]!.message).toBe('nope');
    expect(result.tests[6]!.message).toMatch(/never settled/);
    expect(result.tests[0]!.script).toBe('script 1');
  });

  it("gRPC's status code, status message, metadata and trailers, as Postman's gRPC scripts name them; an HTTP response has no status message and no trailers", async () => {
    // A repeated trailer name: `get` gives the last, as for headers.
    const grpc = { ...jsonResponse({ text: 'hi' }, 5, [['x-id', '7']]), status: 'NOT_FOUND', statusMessage: 'no such user', trailers: [['x-why', 'gone'], ['x-why', 'twice']] as [string, string][] };
    const result = await engine.runPostResponse(postContext([
      `pm.test('code', () => { pm.response.to.have.statusCode(5); pm.expect(pm.response.statusCode).to.equal(5); });
       pm.test('message', () => pm.expect(pm.response.statusMessage).to.equal('no such user'));
       pm.test('trailers', () => { pm.expect(pm.response.trailers.get('X-Why')).to.equal('twice'); pm.expect(pm.response.trailers.count()).to.equal(2); pm.response.to.have.trailer('x-why'); });
       pm.test('metadata', () => { pm.expect(pm.response.metadata.get('x-id')).to.equal('7'); pm.response.to.have.metadata('x-id', '7'); });
       pm.test('wrong trailer', () => pm.response.to.have.trailer('x-why', 'here'));
       pm.test('missing metadata', () => pm.response.to.have.metadata('x-none'));`,
    ], grpc));
    expect(result.errors).toEqual([]);
    expect(result.tests.map((t) => [t.name, t.passed])).toEqual([['code', true], ['message', true], ['trailers', true], ['metadata', true], ['wrong trailer', false], ['missing metadata', false]]);
    expect(result.tests[4]!.message).toBe("expected 'x-why' response trailer to be 'here' but got 'twice'");
    expect(result.tests[5]!.message).toBe("expected response to have metadata with key 'x-none'");
    const http = await engine.runPostResponse(postContext([
      `console.log(pm.response.statusCode, pm.response.statusMessage, pm.response.trailers.count(), pm.response.metadata.count());`,
    ], response));
    expect(http.console.map((c) => c.text)).toEqual(['200 undefined 0 2']);
  });

  it('a script with no await still has its promise jobs run, with the globals it made, before its report', async () => {
    const result = await engine.runPostResponse(postContext([
      `made = 'by the script'; Promise.resolve().then(() => console.log('job sees', made));
       pm.test('async without await', () => Promise.resolve().then(() => { throw new Error('late'); }));`,
      `Promise.resolve().then(() => console.log('queued before the throw')); throw new Error('thrown')`,
      `console.log('next script sees', typeof made)`,
    ], response));
    expect(result.console.map((c) => c.text)).toEqual(['job sees by the script', 'queued before the throw', 'next script sees undefined']);
    expect(result.tests.map((t) => [t.name, t.passed, t.message])).toEqual([['async without await', false, 'late']]);
    expect(result.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^script 2: Error: thrown \(line 1/)]);
  });

  it('reads code, status, headers, time, size and cookies', async () => {
    const result = await engine.runPostResponse(postContext([
      `console.log(pm.response.code, pm.response.status, pm.response.headers.get('CONTENT-TYPE'), pm.response.responseTime,
         pm.response.responseSize, pm.response.text().length, postman.getResponseCookie('sid').value, responseCookies[0].httponly);`,
    ], response));
    expect(result.console[0]!.text).toBe(`200 OK application/json 12 ${response.responseSize} ${response.responseSize} 42 true`);
  });

  it('supports the legacy test globals', async () => {
    const result = await engine.runPostResponse(postContext([
      `tests['code'] = responseCode.code === 200; tests['body'] = responseBody.has('Ada');
       tests['headers'] = responseHeaders['Content-Type'] === 'application/json'; tests['time'] = responseTime === 12;
       tests['falsy'] = 0; tests['iteration'] = iteration === 0; tests['request'] = request.method === 'GET';`,
    ], response));
    expect(result.tests.map((t) => [t.name, t.passed])).toEqual([
      ['code', true], ['body', true], ['headers', true], ['time', true], ['falsy', false], ['iteration', true], ['request', true],
    ]);
  });

  it('a failed pm.response.json() names the problem', async () => {
    const result = await engine.runPostResponse(postContext([`pm.test('j', () => pm.response.json())`], { ...response, body: '<html>' }));
    expect(result.tests[0]!.message).toMatch(/JSONError: the response body is not valid JSON/);
  });

  it('decodes bodyBytes as UTF-8 when no text is given', async () => {
    const bytes = new TextEncoder().encode('{"name":"Zoë"}');
    const result = await engine.runPostResponse(postContext([`console.log(pm.response.json().name)`], { code: 200, headers: [], bodyBytes: bytes, responseTime: 1, responseSize: bytes.length }));
    expect(result.console[0]!.text).toBe('Zoë');
  });
});

describe('execution control and info', () => {
  it('skipRequest, setNextRequest and info', async () => {
    const pre = await engine.runPreRequest(preContext([
      `console.log(pm.info.requestName, pm.info.eventName, pm.info.iteration, pm.info.requestId); pm.execution.skipRequest(); postman.setNextRequest('Other')`,
    ]));
    expect(pre.console[0]!.text).toBe('Get user prerequest 0 Users/Get user.yaml');
    expect(pre.skipRequest).toBe(true);
    expect(pre.nextRequest).toBe('Other');
    const post = await engine.runPostResponse(postContext([`pm.execution.setNextRequest(null); pm.execution.skipRequest()`], jsonResponse({})));
    expect(post.nextRequest).toBeNull();
    expect(post.errors[0]!.message).toMatch(/skipRequest\(\) works only in pre-request scripts/);
    const none = await engine.runPreRequest(preContext([`1`]));
    expect(none.nextRequest).toBeUndefined();
    expect(none.skipRequest).toBe(false);
  });
});

describe('scripts in order, each in a fresh scope', () => {
  it('runs in the given order; declarations and sloppy globals do not leak; an error does not stop later scripts', async () => {
    const result = await engine.runPreRequest(preContext([
      `const x = 1; leaked = 'yes'; console.log('first')`,
      `const x = 2; console.log('second', typeof leaked); null.boom`,
      `console.log('third', typeof x)`,
    ]));
    expect(result.console.map((c) => c.text)).toEqual(['first', 'second undefined', 'third undefined']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ script: 'script 2', kind: 'error' });
    expect(result.errors[0]!.message).toMatch(/^script 2: TypeError: cannot read property 'boom' of null \(line 1, column \d+\)$/);
  });

  it('removes every kind of global a script leaves, and gives the next script the lazy globals back', async () => {
    const result = await engine.runPreRequest(preContext([
      `globalThis.viaGlobalThis = 1; this.viaThis = 2; (0, eval)('var viaEval = 3'); Object.defineProperty(globalThis, 'hidden', { value: 4, configurable: true }); _ = 'mine'; CryptoJS = 5`,
      `console.log([typeof viaGlobalThis, typeof viaThis, typeof viaEval, typeof hidden, typeof _.map, typeof CryptoJS.SHA256].join(' '))`,
      `delete globalThis.Buffer; delete globalThis._; leftBehind = true`,
      `console.log([typeof Buffer.from, typeof _.map, typeof leftBehind].join(' '))`,
    ]));
    expect(result.errors).toEqual([]);
    expect(result.console.map((c) => c.text)).toEqual([
      'undefined undefined undefined undefined function function',
      'function function undefined',
    ]);
  });

  it('reports syntax errors with the script label and line', async () => {
    const result = await engine.runPreRequest(preContext([`let a = 1;\nlet b = ;`]));
    expect(result.errors[0]).toMatchObject({ kind: 'syntax' });
    expect(result.errors[0]!.message).toMatch(/^script 1: SyntaxError: .*\(line 2/);
  });

  it('supports top-level await', async () => {
    const result = await engine.runPreRequest(preContext([`const v = await Promise.resolve(5); pm.variables.set('v', v)`]));
    expect(result.variables.local).toEqual({ v: 5 });
  });

  it('skips empty scripts without starting anything', async () => {
    const result = await engine.runPreRequest(preContext(['', '   \n']));
    expect(result.errors).toEqual([]);
    expect(result.console).toEqual([]);
  });

  it('runs concurrent calls one phase at a time', async () => {
    const runs = await Promise.all([1, 2, 3].map((n) => engine.runPreRequest(preContext([`pm.variables.set('n', ${n})`, `console.log(pm.variables.get('n'))`]))));
    expect(runs.map((r) => r.console[0]!.text)).toEqual(['1', '2', '3']);
  });
});

describe('console', () => {
  it('captures every level, formats objects and %-placeholders, and caps the volume', async () => {
    const result = await engine.runPreRequest(preContext([
      `console.log('a', 1, {b: [2]}, null, undefined); console.info('%s is %d', 'x', 42); console.warn(new Error('w')); console.error(function f() {});
       const c = {}; c.self = c; console.log(c);
       for (let i = 0; i < 1500; i++) console.log(i);`,
    ]));
    expect(result.console.slice(0, 5).map((c) => [c.level, c.text])).toEqual([
      ['log', 'a 1 {"b":[2]} null undefined'], ['info', 'x is 42'], ['warn', 'Error: w'], ['error', '[Function: f]'], ['log', '{"self":"[Circular]"}'],
    ]);
    expect(result.console).toHaveLength(1001);
    expect(result.console.at(-1)!.text).toMatch(/505 more console lines were dropped/);
  });
});

describe('require and bundled modules', () => {
  it('offers lodash, crypto-js, moment, uuid, chai, atob, btoa, xml2js and the legacy globals', async () => {
    const result = await engine.runPreRequest(preContext([
      `const out = [];
       out.push(require('lodash').chunk([1, 2, 3], 2).length, _.get({a: {b: 1}}, 'a.b'));
       out.push(require('crypto-js').SHA256('x').toString().slice(0, 8), CryptoJS.enc.Base64.stringify(CryptoJS.enc.Utf8.parse('hi')));
       out.push(require('moment').utc('2024-01-02').add(1, 'day').format('YYYY-MM-DD'));
       out.push(/^[0-9a-f-]{36}$/.test(require('uuid').v4()));
       out.push(typeof require('chai').expect);
       out.push(require('btoa')('hi'), require('atob')('aGk='), btoa('a:b'), atob(btoa('\\u00ff')) === '\\u00ff');
       let parsed; require('xml2js').parseString('<r a="1"><c>x</c></r>', (e, r) => { parsed = r; });
       out.push(JSON.stringify(parsed), JSON.stringify(xml2Json('<r><c>x</c></r>')));
       out.push(Buffer.from('us@r:p').toString('base64'));
       console.log(out.join('|'));`,
    ]));
    expect(result.errors).toEqual([]);
    expect(result.console[0]!.text).toBe(
      '2|1|2d711642|aGk=|2024-01-03|true|function|aGk=|hi|YTpi|true|{"r":{"$":{"a":"1"},"c":["x"]}}|{"r":{"c":"x"}}|dXNAcjpw',
    );
  });

  it('refuses node modules and unknown names with the list of what is available', async () => {
    const result = await engine.runPreRequest(preContext([`require('fs')`, `require('child_process')`, `require('left-pad')`]));
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/script 1: Error: require\('fs'\) is not available in Ferry's script sandbox\. Modules you can require: atob, btoa, buffer, chai, crypto-js, lodash, moment, tv4, uuid, xml2js/),
      expect.stringMatching(/require\('child_process'\) is not available/),
      expect.stringMatching(/require\('left-pad'\) is not available/),
    ]);
  });
});

describe('members Ferry does not offer', () => {
  it.each([
    ['pm.sendRequest', `pm.sendRequest('http://x', () => {})`],
    ['pm.cookies', `pm.cookies.get('a')`],
    ['pm.visualizer', `pm.visualizer.set('<b>')`],
    ['setTimeout', `setTimeout(() => {}, 10)`],
    ['setInterval', `setInterval(() => {}, 10)`],
    ['pm.require', `pm.require('@team/lib')`],
    ['pm.execution.runRequest', `await pm.execution.runRequest('id')`],
  ])('%s throws an error naming it', async (member, code) => {
    const result = await engine.runPreRequest(preContext([code]));
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message).toContain(`${member} is not available in Ferry`);
  });
});
