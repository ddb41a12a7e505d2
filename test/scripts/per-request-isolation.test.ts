/**
 * One ScriptEngine runs every script of a run in one sandbox. These tests pin down what one
 * request's scripts may and may not see of the request before: nothing of its request, response,
 * `pm` object or tests; only the variable values the host passes on. Any change that keeps
 * per-request data in the sandbox between phases (e.g. a `pm` built once per sandbox) must keep them green.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine } from '../../src/scripts/index.js';
import { jsonResponse, postContext, preContext } from './helpers.js';

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await ScriptEngine.create();
});
afterAll(() => engine.dispose());

const info = (n: number) => ({ requestName: `r${n}`, requestPath: `F/r${n}.yaml`, iteration: 0 });
const request = (n: number) => ({ name: `r${n}`, method: 'GET', url: `http://127.0.0.1:1/item/${n}`, headers: [{ key: 'Accept', value: 'application/json' }] });

describe('consecutive requests in one sandbox', () => {
  it("a post-response script sees its own request's response, never the one before", async () => {
    const show = `console.log(pm.response.code, pm.response.text(), pm.response.json().id, pm.response.headers.get('X-N'), String(pm.response.headers.has('X-Only-1')), pm.response.responseTime)`;
    const first = await engine.runPostResponse(postContext([show], { ...jsonResponse({ id: 1 }, 201, [['X-N', '1'], ['X-Only-1', 'yes']]), responseTime: 5 }, { info: info(1), request: request(1) }));
    const second = await engine.runPostResponse(postContext([show], { ...jsonResponse({ id: 2 }, 404, [['X-N', '2']]), responseTime: 7 }, { info: info(2), request: request(2) }));
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    expect(first.console.map((c) => c.text)).toEqual(['201 {"id":1} 1 1 true 5']);
    expect(second.console.map((c) => c.text)).toEqual(['404 {"id":2} 2 2 false 7']);
  });

  it("a pre-request script sees its own request; headers and url changed by the request before are gone", async () => {
    const change = `pm.request.headers.add({ key: 'X-Added', value: pm.info.requestName }); pm.request.url = pm.request.url.toString() + '?changed=1'; pm.request.method = 'POST'`;
    const show = `console.log(pm.info.requestName, pm.request.method, pm.request.url.toString(), pm.request.headers.has('X-Added'))`;
    const first = await engine.runPreRequest(preContext([change, show], { info: info(1), request: request(1) }));
    const second = await engine.runPreRequest(preContext([show], { info: info(2), request: request(2) }));
    expect(first.console.map((c) => c.text)).toEqual(['r1 POST http://127.0.0.1:1/item/1?changed=1 true']);
    expect(first.request.headers).toContainEqual({ key: 'X-Added', value: 'r1' });
    expect(second.console.map((c) => c.text)).toEqual(['r2 GET http://127.0.0.1:1/item/2 false']);
    expect(second.request).toEqual(request(2));
  });

  it('pm.variables (local) reach the same request\'s post-response script only through the host, and never the next request', async () => {
    const pre = await engine.runPreRequest(preContext([`pm.variables.set('mine', pm.info.requestName)`], { info: info(1), request: request(1) }));
    expect(pre.variables.local).toEqual({ mine: 'r1' });
    const show = `console.log(String(pm.variables.get('mine')), String(pm.variables.has('mine')))`;
    // The runner passes the pre-request result's local values into the same request's post-response call…
    const post1 = await engine.runPostResponse(postContext([show], jsonResponse({ id: 1 }), { info: info(1), request: request(1), variables: { ...preContext([]).variables, local: pre.variables.local } }));
    // …and starts the next request with none.
    const post2 = await engine.runPostResponse(postContext([show], jsonResponse({ id: 2 }), { info: info(2), request: request(2) }));
    const pre2 = await engine.runPreRequest(preContext([show], { info: info(2), request: request(2) }));
    expect(post1.console.map((c) => c.text)).toEqual(['r1 true']);
    expect(post2.console.map((c) => c.text)).toEqual(['undefined false']);
    expect(pre2.console.map((c) => c.text)).toEqual(['undefined false']);
  });

  it('environment, collection and global values come from what the host passes, not from what a script set before', async () => {
    const set = `pm.environment.set('e', 'set'); pm.collectionVariables.set('c', 'set'); pm.globals.set('g', 'set'); pm.environment.unset('base')`;
    const first = await engine.runPreRequest(preContext([set], { info: info(1), request: request(1) }));
    expect(first.changes.environment).toEqual({ cleared: false, set: { e: 'set' }, unset: ['base'] });
    expect(first.changes.collection.set).toEqual({ c: 'set' });
    expect(first.changes.globals.set).toEqual({ g: 'set' });
    const show = `console.log(String(pm.environment.get('e')), String(pm.environment.get('base')), pm.collectionVariables.get('c'), pm.globals.get('g'))`;
    // The host did not apply the changes: the next request sees the values it is given.
    const second = await engine.runPreRequest(preContext([show], { info: info(2), request: request(2) }));
    expect(second.console.map((c) => c.text)).toEqual(['undefined http://127.0.0.1:1 coll glob']);
    expect(second.changes.environment).toEqual({ cleared: false, set: {}, unset: [] });
    // Given the values after the changes (as the runner does), it sees them.
    const applied = { environment: { e: 'set' }, environmentName: 'Local', collection: { c: 'set' }, globals: { g: 'set' } };
    const third = await engine.runPreRequest(preContext([show], { info: info(3), request: request(3), variables: applied }));
    expect(third.console.map((c) => c.text)).toEqual(['set undefined set set']);
  });

  it('tests, console lines and properties a script adds to pm belong to its own request only', async () => {
    const first = await engine.runPostResponse(postContext(
      [`pm.test('one', () => pm.expect(1).to.equal(1)); tests['legacy one'] = true; pm.extra = 'r1'; pm.response.extra = 'r1'; console.log('from r1')`],
      jsonResponse({ id: 1 }),
      { info: info(1), request: request(1) },
    ));
    const second = await engine.runPostResponse(postContext(
      [`pm.test('two', () => pm.expect(pm.extra).to.equal(undefined)); pm.test('three', () => pm.expect(pm.response.extra).to.equal(undefined)); console.log(String(pm.test.index()))`],
      jsonResponse({ id: 2 }),
      { info: info(2), request: request(2) },
    ));
    expect(first.tests.map((t) => [t.name, t.passed])).toEqual([['one', true], ['legacy one', true]]);
    expect(first.console.map((c) => c.text)).toEqual(['from r1']);
    expect(second.tests.map((t) => [t.name, t.passed])).toEqual([['two', true], ['three', true]]);
    expect(second.console.map((c) => c.text)).toEqual(['2']);
  });

  it('setNextRequest and skipRequest of one request do not carry over to the next', async () => {
    const first = await engine.runPreRequest(preContext([`pm.execution.setNextRequest('r9'); pm.execution.skipRequest()`], { info: info(1), request: request(1) }));
    expect(first.nextRequest).toBe('r9');
    expect(first.skipRequest).toBe(true);
    const second = await engine.runPreRequest(preContext([`console.log('r2')`], { info: info(2), request: request(2) }));
    expect(second.nextRequest).toBeUndefined();
    expect(second.skipRequest).toBe(false);
  });
});

/** The QuickJS instance an engine runs in (private: read for these tests). */
function instanceOf(engine: ScriptEngine): unknown {
  return (engine as unknown as { quickjs: unknown }).quickjs;
}

describe('engines one after another', () => {
  it("take over the last engine's QuickJS instance, with nothing of its scripts left (globals, changed built-ins, loaded modules)", async () => {
    const first = await ScriptEngine.create();
    const dirty = await first.runPreRequest(preContext([
      `left = 1; Array.prototype.evil = () => 'evil'; JSON.parse = () => 'hijacked'; _.VERSION; pm.variables.set('secret', 's3cret')`,
    ]));
    expect(dirty.errors).toEqual([]);
    const instance = instanceOf(first);
    first.dispose();
    const second = await ScriptEngine.create();
    try {
      // Reused: a new instance would cost the next run its start-up and a fresh memory.
      expect(instanceOf(second)).toBe(instance);
      const clean = await second.runPreRequest(preContext([
        `console.log(typeof left, typeof [].evil, JSON.parse('1'), String(pm.variables.get('secret')))`,
      ]));
      expect(clean.errors).toEqual([]);
      expect(clean.console.map((c) => c.text)).toEqual(['undefined undefined 1 undefined']);
      expect(second.modulesLoaded()).toEqual([]);
    } finally {
      second.dispose();
    }
  });

  it('do not take over an instance whose sandbox a limit stopped, nor one with another memory limit', async () => {
    const stopped = await ScriptEngine.create({ timeoutMs: 50 });
    await stopped.runPreRequest(preContext(['for (;;) {}']));
    const stoppedInstance = instanceOf(stopped);
    stopped.dispose();
    const next = await ScriptEngine.create();
    expect(instanceOf(next)).not.toBe(stoppedInstance);
    const nextInstance = instanceOf(next);
    next.dispose();
    const other = await ScriptEngine.create({ memoryBytes: 8 * 1024 * 1024 });
    expect(instanceOf(other)).not.toBe(nextInstance);
    other.dispose();
  });
});
