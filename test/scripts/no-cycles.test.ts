/**
 * A script leaves nothing behind in the sandbox: what its `pm` parts refer to is freed when it
 * ends. An object cycle would outlive the script until QuickJS's cycle collector, whose every pass
 * walks the whole sandbox (the prelude, chai…): that made scripts measurably slower (session 11).
 */
import { describe, expect, it } from 'vitest';
import type { QuickJSContext, QuickJSRuntime } from 'quickjs-emscripten';
import { SandboxHost, loadQuickJS, type PhaseData } from '../../src/scripts/host/runtime.js';

const request = { name: 'r', method: 'GET', url: 'http://127.0.0.1:1/x?a=1', headers: [{ key: 'Accept', value: 'application/json' }] };
function phase(event: 'prerequest' | 'test'): PhaseData {
  const scopes = { environment: { values: { e: 1 } }, collection: { values: {} }, globals: { values: {} }, local: { values: {} } };
  const response = event === 'test' ? { code: 200, status: 'OK', headers: [['content-type', 'application/json']], responseTime: 1, responseSize: 8 } : undefined;
  return {
    json: JSON.stringify({ state: { scopes, nextRequestSet: false, skipRequest: false }, event, info: { requestName: 'r', requestPath: 'F/r.yaml', iteration: 0 }, iterationData: { d: 1 }, response }),
    request: JSON.stringify(request),
    body: { size: 8, text: () => '{"id":1}', requestName: 'r' },
  };
}

// Every member of pm and the legacy globals a script may touch.
const script = `
  pm.variables.set('v', pm.variables.get('e')); pm.environment.set('x', 1); pm.collectionVariables.unset('c'); pm.globals.get('g');
  pm.iterationData.get('d'); pm.execution.setNextRequest(null); pm.info.requestName; void pm.execution.location;
  pm.request.headers.upsert({ key: 'X', value: '1' }); pm.request.url.query.add({ key: 'b', value: '2' }); pm.request.body;
  console.log('line', { a: 1 });
  pm.test('a test', () => pm.expect(1).to.equal(1));
  tests['legacy'] = responseCode === undefined || responseCode.code === 200;
  postman.setEnvironmentVariable('y', 2);
  if (pm.response) { pm.response.json(); pm.response.headers.get('content-type'); pm.response.to.have.status(200); }
`;

/** QuickJS's count of live objects in the sandbox (its private runtime and context, read for this test). */
function objectCount(sandbox: SandboxHost): number {
  const { runtime, vm } = sandbox as unknown as { runtime: QuickJSRuntime; vm: QuickJSContext };
  const usage = runtime.computeMemoryUsage();
  const count = (vm.dump(usage) as { obj_count: number }).obj_count;
  usage.dispose();
  return count;
}

describe('the sandbox after a script', () => {
  it('holds no more objects than before it, for scripts that touch every part of pm', async () => {
    const sandbox = new SandboxHost(await loadQuickJS(), 5000, 64 * 1024 * 1024);
    try {
      const run = (event: 'prerequest' | 'test') => {
        const out = sandbox.run(script, phase(event));
        expect(out.ok && !JSON.parse(out.json).error, JSON.stringify(out)).toBe(true);
      };
      // Warm-up: compiles the script, loads chai's fast path and the legacy globals' pieces once.
      for (let i = 0; i < 10; i++) run(i % 2 ? 'test' : 'prerequest');
      const before = objectCount(sandbox);
      for (let i = 0; i < 100; i++) run(i % 2 ? 'test' : 'prerequest');
      expect(objectCount(sandbox) - before).toBeLessThanOrEqual(2);
    } finally {
      sandbox.dispose();
    }
  });
});
