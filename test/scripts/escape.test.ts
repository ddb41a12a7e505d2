/**
 * Classic ways out of JavaScript sandboxes. Each attempt runs as a script and reports
 * 'ESCAPED' only if it reached something of the host; every one must fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine } from '../../src/scripts/index.js';
import { jsonResponse, postContext, preContext } from './helpers.js';

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await ScriptEngine.create({ timeoutMs: 500 });
});
afterAll(() => engine.dispose());

/** Wraps an attempt: `attempt()` returns something; node-ish results mean escape. */
function probe(body: string): string {
  return `
let outcome;
try {
  const got = (() => { ${body} })();
  const isHost = (v) => v && (typeof v.exit === 'function' || typeof v.readFileSync === 'function' || typeof v.execSync === 'function' || typeof v.pid === 'number' || typeof v.spawn === 'function');
  outcome = isHost(got) ? 'ESCAPED' : 'no: ' + typeof got;
} catch (e) {
  outcome = 'threw: ' + (e && e.message);
}
pm.variables.set('outcome', outcome);`;
}

const attempts: [string, string][] = [
  ['constructor chain to Function', `return this.constructor.constructor('return process')()`],
  ['constructor chain from pm', `return pm.constructor.constructor('return process')()`],
  ['constructor chain from a host-made function', `return pm.test.constructor('return process')()`],
  ['Function returning the global', `return Function('return this')().process`],
  ['indirect eval', `return (0, eval)('typeof process === "object" ? process : undefined')`],
  ['globalThis lookups', `return globalThis.process || globalThis.global || globalThis.require || globalThis.module`],
  ['require of fs', `return require('fs')`],
  ['require of child_process', `return require('child_process')`],
  ['require with a path', `return require('../../../../node_modules/quickjs-emscripten/package.json')`],
  ['dynamic import', `return import('fs')`],
  ['QuickJS std/os modules', `return globalThis.std || globalThis.os || globalThis.scriptArgs || globalThis.print`],
  ['Error.prepareStackTrace', `Error.prepareStackTrace = (e, frames) => frames; const s = new Error('x').stack; return Array.isArray(s) ? s[0].getThis() : undefined`],
  ['stack of a host error', `try { require('fs') } catch (e) { return e.constructor.constructor('return process')() }`],
  ['the host bridge', `return globalThis.__ferryHost || globalThis.__ferry`],
  ['caller chain', `function f() { return f.caller && f.caller.constructor('return process')() } return f()`],
  ['arguments.callee.caller', `return (function () { const c = arguments.callee.caller; return c && c.constructor('return process')() })()`],
  ['WebAssembly', `return typeof WebAssembly === 'undefined' ? undefined : WebAssembly`],
  ['Proxy on the pm object', `const p = new Proxy(pm, { get: (t, k) => t[k] }); return p.constructor.constructor('return process')()`],
  ['Symbol.species on a returned array', `class A extends Array { static get [Symbol.species]() { return function () { return process } } } return new A(1).map(x => x)`],
  ['getter smuggled into a variable', `pm.environment.set('trap', { get x() { return globalThis.process } }); return undefined`],
];

describe('sandbox escapes all fail', () => {
  it.each(attempts)('%s', async (_name, body) => {
    const result = await engine.runPreRequest(preContext([probe(body)]));
    const outcome = result.variables.local?.outcome;
    expect(typeof outcome).toBe('string');
    expect(outcome).not.toBe('ESCAPED');
    expect(result.errors).toEqual([]);
  });

  it('require of every Node built-in is refused', async () => {
    const names = ['fs', 'fs/promises', 'child_process', 'net', 'http', 'os', 'path', 'vm', 'worker_threads', 'process', 'module', 'node:fs'];
    const result = await engine.runPreRequest(preContext(names.map((n) => `require(${JSON.stringify(n)})`)));
    expect(result.errors).toHaveLength(names.length);
    for (const e of result.errors) expect(e.message).toMatch(/is not available in Ferry's script sandbox/);
  });

  it('prototype pollution inside the sandbox does not reach the host', async () => {
    const result = await engine.runPreRequest(preContext([
      `Object.prototype.polluted = 'yes'; Array.prototype.polluted = 'yes';
       pm.environment.set('__proto__', { polluted: 'yes' }); pm.environment.set('constructor', { prototype: { polluted: 'yes' } });
       pm.request.headers.add({ key: '__proto__', value: 'x' });`,
    ]));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result.changes.environment.set)).toBe(Object.prototype);
    expect(Object.keys(result.changes.environment.set)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(result.variables.environment)).toBe(Object.prototype);
  });

  it('returned values are plain data: getters and toJSON run inside the sandbox only', async () => {
    const result = await engine.runPreRequest(preContext([
      `pm.environment.set('g', { get x() { return typeof process } });
       pm.environment.set('j', { toJSON() { return 'from toJSON' } });
       pm.environment.set('f', function () {});`,
    ]));
    const env = result.variables.environment;
    expect(Object.getOwnPropertyDescriptor(env.g as object, 'x')).toMatchObject({ value: 'undefined' });
    expect(env.j).toBe('from toJSON');
    // A function is not data: it leaves the sandbox as null, as Newman's sandbox hands it out.
    expect(env.f).toBeNull();
  });

  it('a hostile toJSON cannot hang the host: the time limit stops it', async () => {
    const result = await engine.runPreRequest(preContext([`pm.environment.set('loop', { toJSON() { for (;;) {} } })`]));
    expect(result.errors[0]!.kind).toBe('timeout');
  });

  it('replacing JSON.stringify or the report path cannot forge results', async () => {
    const forged = JSON.stringify({ tests: [{ name: 'forged', passed: true }], console: [], state: {} });
    const result = await engine.runPostResponse(postContext([
      `JSON.stringify = () => ${JSON.stringify(forged)}; JSON.parse = () => ({});
       pm.test('real', () => pm.expect(1).to.equal(1));`,
    ], jsonResponse({ a: 1 })));
    expect(result.tests.map((t) => t.name)).toEqual(['real']);
  });

  it('a script cannot read or change the state of a later request through globals', async () => {
    await engine.runPreRequest(preContext([`globalThis.secretStash = pm.environment.get('base'); var topLevel = 1;`]));
    const result = await engine.runPreRequest(preContext([`pm.variables.set('seen', typeof secretStash + '/' + typeof topLevel)`]));
    expect(result.variables.local).toEqual({ seen: 'undefined/undefined' });
  });

  it('the host process is untouched', () => {
    expect(typeof process.exit).toBe('function');
    expect((globalThis as Record<string, unknown>).polluted).toBeUndefined();
  });
});
