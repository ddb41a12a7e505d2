/**
 * The legacy globals (`request`, `responseBody`, `environment`…) are built only for scripts that
 * mention one outside a property access: `pm.request` or `pm.response.responseTime` do not count.
 * Every way a script can reach a legacy global as a variable must still find it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine } from '../../src/scripts/index.js';
import { jsonResponse, postContext, preContext } from './helpers.js';

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await ScriptEngine.create();
});
afterAll(() => engine.dispose());

async function post(code: string): Promise<string[]> {
  const out = await engine.runPostResponse(postContext([code], jsonResponse({ id: 7 }, 201, [['X-A', 'b']])));
  expect(out.errors).toEqual([]);
  return out.console.map((c) => c.text);
}

describe('legacy globals are found however a script names them', () => {
  const cases: [string, string][] = [
    ['at the very start', `responseCode.code === 201 && console.log('ok')`],
    ['after a newline', `const a = 1;\nconsole.log(responseCode.code === 201 ? 'ok' : 'no')`],
    ['in a spread', `const h = { ...responseHeaders }; console.log(h['X-A'] === 'b' ? 'ok' : 'no')`],
    ['in an array spread', `console.log([...responseCookies].length === 0 ? 'ok' : 'no')`],
    ['after typeof', `console.log(typeof responseBody === 'string' ? 'ok' : 'no')`],
    ['inside a template literal', 'console.log(`${responseCode.code}` === "201" ? "ok" : "no")'],
    ['as a call argument', `console.log(JSON.parse(responseBody).id === 7 ? 'ok' : 'no')`],
    ['in a nested function', `pm.test('t', function () { pm.expect(responseTime).to.equal(12); }); console.log('ok')`],
    ['after pm.* mentions of the same names', `pm.response.responseTime; pm.environment.get('base'); console.log(environment.base === 'http://127.0.0.1:1' && request.method === 'GET' ? 'ok' : 'no')`],
    ['postman and data', `console.log(typeof postman.setNextRequest === 'function' && typeof data === 'object' && iteration === 0 ? 'ok' : 'no')`],
  ];
  for (const [where, code] of cases) {
    it(where, async () => {
      expect(await post(code)).toEqual(['ok']);
    });
  }

  it('pm.* members with legacy names work without the legacy globals', async () => {
    const out = await engine.runPreRequest(preContext([
      `pm.request.headers.upsert({ key: 'X-B', value: pm.environment.get('base') }); pm.globals.set('g2', pm.collectionVariables.get('c')); console.log(typeof pm.iterationData.get('x'))`,
    ]));
    expect(out.errors).toEqual([]);
    expect(out.console.map((c) => c.text)).toEqual(['undefined']);
    expect(out.request.headers).toContainEqual({ key: 'X-B', value: 'http://127.0.0.1:1' });
    expect(out.changes.globals.set).toEqual({ g2: 'coll' });
    expect(await post(`console.log(pm.response.responseTime === 12 ? 'ok' : 'no')`)).toEqual(['ok']);
  });
});
