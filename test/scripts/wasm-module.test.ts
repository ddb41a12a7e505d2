/**
 * QuickJS's WebAssembly is compiled once per process (src/scripts/host/wasm-module.ts): `ferry run`
 * starts the compile (every function, on V8's background threads) as soon as it knows a script will
 * run, and every sandbox, a fresh one after a limit included, is an instance of that one module.
 */
import { describe, expect, it } from 'vitest';
import { ScriptEngine } from '../../src/scripts/index.js';
import { quickJSWasmModule, startCompilingQuickJS } from '../../src/scripts/host/wasm-module.js';
import { jsonResponse, postContext, preContext } from './helpers.js';

describe('the compiled QuickJS module', () => {
  it('is compiled once, ahead of the first sandbox, and serves every sandbox of the process', async () => {
    startCompilingQuickJS();
    const compiled = quickJSWasmModule();
    expect(quickJSWasmModule()).toBe(compiled);
    const module = await compiled;
    expect(module).toBeInstanceOf(WebAssembly.Module);
    expect(WebAssembly.Module.exports(module).length).toBeGreaterThan(0);

    const engine = await ScriptEngine.create({ timeoutMs: 1000 });
    try {
      const pre = await engine.runPreRequest(preContext(['pm.variables.set("stamp", "f1");']));
      expect(pre.errors).toEqual([]);
      expect(pre.variables.local).toEqual({ stamp: 'f1' });

      // A script stopped by its limit leaves a broken sandbox: the next phase gets a new instance of the same module.
      const stopped = await engine.runPostResponse(postContext(['while (true) {}'], jsonResponse({ ok: true })));
      expect(stopped.errors.map((e) => e.kind)).toEqual(['timeout']);
      const post = await engine.runPostResponse(postContext(['pm.test("ok", () => pm.response.to.have.status(200));'], jsonResponse({ ok: true })));
      expect(post.errors).toEqual([]);
      expect(post.tests.map((t) => [t.name, t.passed])).toEqual([['ok', true]]);
    } finally {
      engine.dispose();
    }
    expect(quickJSWasmModule()).toBe(compiled);
  });
});
