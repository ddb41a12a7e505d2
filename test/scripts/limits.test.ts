import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine } from '../../src/scripts/index.js';
import { preContext } from './helpers.js';
import { armScriptWatchdog } from '../../src/scripts/host/watchdog-setting.js';

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await ScriptEngine.create({ timeoutMs: 300, memoryBytes: 16 * 1024 * 1024 });
});
afterAll(() => engine.dispose());

// No pm.expect here: loading chai inside the 300 ms limit can itself time out on a loaded machine.
const after = `pm.test('after', () => { if (pm.environment.get('before') !== 'kept') throw new Error('lost') })`;

describe('limits per script', () => {
  it.each([
    ['an endless loop', 'while (true) {}', 'timeout', /stopped after 300 ms: the script ran over its CPU time limit/],
    ['an endless loop that catches', 'for (;;) { try { while (true) {} } catch (e) {} }', 'timeout', /CPU time limit/],
    // QuickJS's interrupt met inside a built-in that walks an iterator reached the script as a plain 'InternalError: interrupted'.
    ['a time limit met inside new Set of a long sparse array', 'const a = []; a.length = 2 ** 24; new Set(a)', 'timeout', /stopped after 300 ms: the script ran over its CPU time limit/],
    // Each turn of the chain keeps a promise: with a real memory ceiling it may meet that first.
    ['an endless promise chain', 'const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {})', 'timeout|memory', /CPU time limit|memory limit of 16 MB/],
    // Whether a bomb meets the memory or the time limit first depends on the machine's load.
    ['a memory bomb', 'const a = []; for (;;) a.push(new Uint8Array(1e5).fill(1))', 'memory|timeout', /memory limit of 16 MB|CPU time limit/],
    ['a string bomb', "const s = 'x'.repeat(1e6); const keep = []; for (;;) keep.push(s + keep.length)", 'memory|timeout', /memory limit of 16 MB|CPU time limit/],
    ['one allocation over the limit', 'new Uint8Array(32 * 1024 * 1024)', 'memory', /memory limit of 16 MB/],
    ['a memory bomb that catches', 'const a = []; for (;;) { try { a.push(new Uint8Array(1e6)) } catch (e) {} }', 'timeout', /CPU time limit/],
    // A regular expression from a workspace's script: QuickJS's engine polls the interrupt handler while it backtracks, so no watchdog is needed (a run leaves it off).
    ['a catastrophic regular expression', "/(a+)+$/.test('a'.repeat(40) + 'b')", 'timeout', /stopped after 300 ms: the script ran over its CPU time limit/],
    ['a catastrophic regular expression with a backreference', "/^(a+)+\\1$/.exec('a'.repeat(40) + 'b')", 'timeout', /stopped after 300 ms: the script ran over its CPU time limit/],
    ['deep recursion', 'function f() { return f() + 1 } f()', 'stack', /too much recursion/],
    ['deep recursion inside C (JSON.parse)', "JSON.parse('['.repeat(200000))", 'stack', /stack overflow|stack ran out/],
    ['deep recursion inside C (nested eval)', "eval('('.repeat(100000) + '1' + ')'.repeat(100000))", 'stack', /stack overflow|stack ran out/],
  ])('%s ends that script with a clear error and the next script runs', async (_name, code, kind, message) => {
    const result = await engine.runPreRequest(preContext([`pm.environment.set('before', 'kept')`, code, after]));
    expect(result.errors, JSON.stringify(result.errors)).toHaveLength(1);
    expect(kind.split('|')).toContain(result.errors[0]!.kind);
    expect(result.errors[0]!.message).toMatch(/^script 2: /);
    expect(result.errors[0]!.message).toMatch(message);
    expect(result.tests).toEqual([{ name: 'after', passed: true, script: 'script 3' }]);
    // The engine stays usable for the rest of the run.
    const next = await engine.runPreRequest(preContext([`pm.variables.set('ok', 1)`]));
    expect(next.errors).toEqual([]);
  });

  it.each([
    ['sort of an empty array of length 2**32 - 1', 'const a = []; a.length = 2 ** 32 - 1; a.sort()'],
    ['indexOf over an array-like of length 2**53 - 1', 'Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1)'],
    ['reverse of a sparse array', 'const a = [1]; a[2 ** 32 - 2] = 2; a.reverse()'],
    ['a quadratic string search', "const s = 'a'.repeat(2 ** 22); s.indexOf('a'.repeat(2 ** 21) + 'b')"],
  ])('a built-in that loops in C without checking the time (%s) is stopped at ten times the limit, and the next script runs', async (_name, code) => {
    // QuickJS polls its interrupt handler between bytecodes only: these ran for hours, holding the
    // process (and Ctrl-C) all that time. V8's watchdog stops the WebAssembly code itself; `ferry
    // app` and `ferry mcp` arm it at start (a run leaves it off: its cost per script).
    armScriptWatchdog();
    let result;
    try {
      result = await engine.runPreRequest(preContext([`pm.environment.set('before', 'kept')`, code, after]));
    } finally {
      armScriptWatchdog(false);
    }
    // Stopped by the watchdog, as its words say (a loop not stopped runs past the test's timeout).
    expect(result.errors, JSON.stringify(result.errors)).toHaveLength(1);
    expect(result.errors[0]!.kind).toBe('timeout');
    expect(result.errors[0]!.message).toMatch(/^script 2: stopped after 300 ms: the script ran over its CPU time limit/);
    expect(result.tests).toEqual([{ name: 'after', passed: true, script: 'script 3' }]);
    expect((await engine.runPreRequest(preContext([`pm.variables.set('ok', 1)`]))).errors).toEqual([]);
  }, 30_000);

  it.each([
    ['the CPU time limit', 'while (true) {}', 'timeout'],
    ['the memory limit', 'const a = []; for (;;) a.push(new Uint8Array(1e5).fill(1))', 'memory|timeout'],
  ])('a script stopped by %s keeps the variables, tests and console lines it made before', async (_name, bomb, kind) => {
    const code = `pm.environment.set('set before', 'yes'); pm.test('recorded before', () => {}); console.log('logged before'); ${bomb}`;
    const result = await engine.runPreRequest(preContext([code, after]));
    expect(result.errors).toHaveLength(1);
    expect(kind.split('|')).toContain(result.errors[0]!.kind);
    expect(result.changes.environment.set).toEqual({ 'set before': 'yes' });
    expect(result.tests.map((t) => [t.name, t.passed, t.script])).toEqual([
      ['recorded before', true, 'script 1'],
      ['after', false, 'script 2'],
    ]);
    expect(result.console.map((c) => c.text)).toEqual(['logged before']);
  });

  it.each([
    ['small objects', 'const a = []; for (let i = 0; ; i++) a.push({ i, s: "x" + i })'],
    ['filled arrays', 'const a = []; for (;;) a.push(new Array(1e5).fill(1.5))'],
    ['a growing Map', 'const m = new Map(); for (let i = 0; ; i++) m.set(i, "v" + i)'],
    ['a global that outlives the script', 'globalThis.keep = []; for (;;) keep.push([1, 2, 3])'],
  ])('a bomb of %s meets the memory limit, not only the time limit', async (_name, code) => {
    // QuickJS's own limit counts a few bytes per allocation in WebAssembly (no malloc_usable_size):
    // these bombs used to grow the host process to 2 GB until the time limit. The ceiling on the
    // WebAssembly memory stops them at the memory limit; the time limit here is out of reach.
    const roomy = await ScriptEngine.create({ timeoutMs: 60_000, memoryBytes: 16 * 1024 * 1024 });
    try {
      const result = await roomy.runPreRequest(preContext([code, after]));
      expect(result.errors.map((e) => e.kind), JSON.stringify(result.errors)).toEqual(['memory']);
      expect(result.errors[0]!.message).toMatch(/^script 1: stopped: the script ran over its memory limit of 16 MB/);
      expect((await roomy.runPreRequest(preContext(["pm.variables.set('ok', 1)"]))).errors).toEqual([]);
    } finally {
      roomy.dispose();
    }
  }, 60_000);

  it('uses the defaults of 5 s and 64 MB and refuses nonsense limits', async () => {
    await expect(ScriptEngine.create({ timeoutMs: -1 })).rejects.toThrow(/timeoutMs must be a number of at least 1/);
    await expect(ScriptEngine.create({ memoryBytes: 1000 })).rejects.toThrow(/memoryBytes must be a number of at least/);
    await expect(ScriptEngine.create({ timeoutMs: Number.NaN })).rejects.toThrow(/timeoutMs/);
    const roomy = await ScriptEngine.create();
    try {
      // 40 MB fits under the default 64 MB limit but not under the 16 MB one above.
      const code = "const a = new Uint8Array(40 * 1024 * 1024); a[1] = 1; pm.variables.set('n', a.length)";
      expect((await roomy.runPreRequest(preContext([code]))).errors).toEqual([]);
      expect((await engine.runPreRequest(preContext([code]))).errors[0]!.kind).toBe('memory');
    } finally {
      roomy.dispose();
    }
  });

  it('a script that never finishes its await is an error, not a hang', async () => {
    const result = await engine.runPreRequest(preContext(['await new Promise(() => {})']));
    expect(result.errors[0]!.message).toMatch(/never finished: it awaits something that never resolves/);
  });

  it('a disposed engine says so', async () => {
    const short = await ScriptEngine.create();
    short.dispose();
    await expect(short.runPreRequest(preContext(['1']))).rejects.toThrow(/disposed/);
  });
});

describe('bad input', () => {
  it('huge scripts, huge responses and hostile labels are handled', async () => {
    const big = `// ${'x'.repeat(2_000_000)}\npm.variables.set('ran', true)`;
    const label = '../../etc/passwd\u0000<script>: preRequest';
    // Its own time limit: compiling 2 MB took most of the shared engine's 300 ms on a loaded machine (it failed once so).
    const roomy = await ScriptEngine.create({ timeoutMs: 10_000, memoryBytes: 16 * 1024 * 1024 });
    try {
      const result = await roomy.runPreRequest({ ...preContext([]), scripts: [{ code: big, label }, { code: 'throw 42', label }] });
      expect(result.errors[0]?.message).toBe(`${label}: the script threw 42`);
      expect(result.variables.local).toEqual({ ran: true });
    } finally {
      roomy.dispose();
    }
  });

  it('a response body bigger than the memory limit fails only the scripts that read it, clearly', async () => {
    const body = 'x'.repeat(20 * 1024 * 1024);
    const response = { code: 200, headers: [], body, responseTime: 1, responseSize: body.length };
    const status = await engine.runPostResponse({ ...preContext(['pm.test("status", () => pm.response.to.have.status(200))']), response });
    expect(status.errors).toEqual([]);
    expect(status.tests.map((t) => t.passed)).toEqual([true]);
    for (const read of ['pm.response.text()', 'pm.response.json()', 'pm.response.to.have.body("x")', 'pm.response.to.be.json', 'responseBody.length']) {
      const result = await engine.runPostResponse({ ...preContext([read]), response });
      expect(result.errors.map((e) => e.message), read).toEqual([expect.stringMatching(/^script 1: Error: the response body of "[^"]+" \(about 20 MB\) does not fit in the script memory limit of 16 MB: raise scriptMemoryMb, lower maxResponseMb, or do not read the body/)]);
    }
  });

  it('big responses one after another each get the whole limit (the sandbox starts over once its memory grew past half)', async () => {
    // About 3 MB of JSON, 100,000 objects once parsed: fits a 16 MB sandbox, but not one that a
    // previous response left grown and in pieces (every second phase failed before).
    const roomy = await ScriptEngine.create({ timeoutMs: 60_000, memoryBytes: 16 * 1024 * 1024 });
    try {
      const body = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `n${i}` })));
      const code = "pm.test('parsed', () => pm.expect(pm.response.json().length).to.equal(100000))";
      for (let round = 0; round < 4; round++) {
        const result = await roomy.runPostResponse({ ...preContext([code]), response: { code: 200, headers: [], body, responseTime: 1, responseSize: body.length } });
        expect(result.errors, `round ${round}`).toEqual([]);
        expect(result.tests.map((t) => t.passed), `round ${round}`).toEqual([true]);
      }
    } finally {
      roomy.dispose();
    }
  }, 60_000);

  it('a script that sabotages built-ins only breaks its own report', async () => {
    const result = await engine.runPreRequest(preContext([
      'Object.entries = () => { throw new Error("sabotage") }; Array.prototype.map = function () { return 7 }',
      'pm.variables.set("fine", 1)',
    ]));
    expect(result.errors.length).toBeGreaterThanOrEqual(1);
    expect(result.errors[0]!.message).toMatch(/^script 1: /);
  });
});
