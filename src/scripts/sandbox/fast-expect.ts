/**
 * `pm.expect` and `pm.response.to` with chai's results and messages at a fraction of its cost.
 *
 * chai wraps every link of a chain (`.to`, `.have`, `.property(…)`) in a new Proxy around a new
 * Assertion, about 10 µs per link in QuickJS: most of a short test script's time. Here an
 * assertion is a plain object with chai's own flags (`__flags`) whose prototype sits in front of
 * chai's `Assertion.prototype`:
 *
 * - the language chains, `not` and `deep`, and the common assertions (`equal`, `eql`, `above`,
 *   `below`, `least`, `most`, `property`, `ok`, `true`, `false`, `null`, `undefined`, `exist`,
 *   `status`) decide here whether chai would pass and, when it would, make the same flag changes
 *   chai makes and return a copy, as chai does;
 * - everything else, and every assertion that would fail, runs chai's own code on the same
 *   object (chai reads only its flags), so messages, errors and further chaining are chai's;
 * - a name that is no assertion at all throws chai's own "Invalid Chai property" error (a proxy
 *   under `Assertion.prototype` catches the lookups that find nothing).
 *
 * A plugin that adds or overwrites assertions (`chai.use`, `Assertion.addMethod`…) turns the fast
 * path off for the rest of the sandbox, so the plugin's code always runs.
 */

// Captured before any script runs: a script that replaces these breaks only itself.
const { create, getPrototypeOf, setPrototypeOf, defineProperty } = Object;
const { get: reflectGet, has: reflectHas } = Reflect;

type Flags = Record<string, unknown>;
interface Node {
  __flags: Flags;
}
type AnyFunction = (this: any, ...args: unknown[]) => unknown;

/** The parts of chai 4 this module uses. */
export interface ChaiInternals {
  Assertion: (new (value?: unknown, message?: string) => object) & { prototype: object };
  expect: AnyFunction;
  config: { deepEqual?: unknown; proxyExcludedKeys: string[] };
  util: Record<string, unknown> & {
    eql: unknown;
    proxify(fn: AnyFunction, name: string): AnyFunction;
    addLengthGuard(fn: AnyFunction, name: string, chainable: boolean): void;
    isProxyEnabled(): boolean;
  };
}

/** Language chains: each returns a copy of the assertion, with no flag changed. */
const chains = ['to', 'be', 'been', 'is', 'and', 'has', 'have', 'with', 'that', 'which', 'at', 'of', 'same', 'but', 'does', 'still', 'also'];
/** Flags set by a property, on the assertion itself and then its copy. */
const flagProperties: [name: string, flag: string][] = [['not', 'negate'], ['deep', 'deep']];
/** chai's utilities that change assertions: a plugin calling one turns the fast path off. */
const extenders = ['addProperty', 'addMethod', 'addChainableMethod', 'overwriteProperty', 'overwriteMethod', 'overwriteChainableMethod'];

/** Whether an assertion with these flags passes when its test is `expr` (chai's `util.test`). */
function passes(flags: Flags, expr: boolean): boolean {
  return flags.negate ? !expr : expr;
}

function comparison(compare: (a: number, b: number) => boolean) {
  return (flags: Flags, args: unknown[]): boolean => {
    const n = args[0];
    const value = flags.object;
    if (flags.doLength || typeof value !== 'number' || typeof n !== 'number') return false;
    if (!passes(flags, compare(value, n))) return false;
    if (args[1]) flags.message = args[1];
    return true;
  };
}

/**
 * Fast paths of chai's methods, by the names chai gives them: true when chai would pass, after
 * making chai's flag changes; false to let chai decide.
 */
function methodPaths(isResponse: (value: unknown) => value is { code: number; status: string }): [string[], (flags: Flags, args: unknown[]) => boolean][] {
  return [
    [['equal', 'equals', 'eq'], (flags, args) => {
      if (flags.deep || !passes(flags, args[0] === flags.object)) return false;
      if (args[1]) flags.message = args[1];
      return true;
    }],
    [['eql', 'eqls'], (flags, args) => {
      if (!passes(flags, Boolean((flags.eql as (a: unknown, b: unknown) => unknown)(args[0], flags.object)))) return false;
      if (args[1]) flags.message = args[1];
      return true;
    }],
    [['above', 'gt', 'greaterThan'], comparison((a, b) => a > b)],
    [['least', 'gte', 'greaterThanOrEqual'], comparison((a, b) => a >= b)],
    [['below', 'lt', 'lessThan'], comparison((a, b) => a < b)],
    [['most', 'lte', 'lessThanOrEqual'], comparison((a, b) => a <= b)],
    [['property'], (flags, args) => {
      const name = args[0];
      const value = flags.object;
      if (flags.negate || flags.deep || flags.own || flags.nested) return false;
      if ((typeof name !== 'string' && typeof name !== 'number') || value === null || value === undefined) return false;
      if (!(name in Object(value))) return false;
      const found = (value as Record<string | number, unknown>)[name];
      if (args.length > 1 && args[1] !== found) return false;
      if (args[2]) flags.message = args[2];
      flags.object = found;
      return true;
    }],
    // Postman's response assertion (response.ts): `pm.response.to.have.status(200)` or `('OK')`.
    [['status'], (flags, args) => {
      const response = flags.object;
      if (!isResponse(response)) return false;
      const expected = args[0];
      return passes(flags, typeof expected === 'string' ? response.status === expected : response.code === expected);
    }],
  ];
}

/** Fast paths of chai's assertion properties: true when chai would pass (none changes a flag). */
function propertyPaths(isResponse: (value: unknown) => value is { code: number }): [string, (flags: Flags) => boolean][] {
  return [
    // The response plugin makes `ok` mean a 2xx status for responses.
    ['ok', (flags) => (isResponse(flags.object) ? passes(flags, flags.object.code >= 200 && flags.object.code < 300) : passes(flags, Boolean(flags.object)))],
    ['true', (flags) => passes(flags, flags.object === true)],
    ['false', (flags) => passes(flags, flags.object === false)],
    ['null', (flags) => passes(flags, flags.object === null)],
    ['undefined', (flags) => passes(flags, flags.object === undefined)],
    ['exist', (flags) => passes(flags, flags.object !== null && flags.object !== undefined)],
    ['exists', (flags) => passes(flags, flags.object !== null && flags.object !== undefined)],
  ];
}

/** Builds `expect` over chai (with the response plugin already added). Call once per chai. */
export function makeFastExpect(chai: ChaiInternals, isResponse: (value: unknown) => value is { code: number; status: string }): AnyFunction {
  const { Assertion, util, config } = chai;
  const base = Assertion.prototype as Record<string, unknown>;
  let fast = true;

  for (const name of extenders) {
    const original = util[name] as AnyFunction;
    util[name] = function (this: unknown, ...args: unknown[]) {
      fast = false;
      return original.apply(this, args);
    };
  }

  const proto = create(base) as Record<string, unknown>;
  /** A new assertion, with the flags chai's constructor sets. */
  function make(value: unknown, message: unknown): Node {
    const flags = create(null) as Flags;
    flags.ssfi = Assertion;
    flags.lockSsfi = undefined;
    flags.object = value;
    flags.message = message;
    flags.eql = config.deepEqual || util.eql;
    const node = create(proto) as Node;
    node.__flags = flags;
    return node;
  }
  /** What chai returns after a chain link or a passed assertion: a new assertion with the same flags. */
  function copy(from: Node): Node {
    const flags = create(null) as Flags;
    const source = from.__flags;
    for (const key in source) flags[key] = source[key];
    const node = create(proto) as Node;
    node.__flags = flags;
    return node;
  }
  /** chai's own getter for `name`, run on this assertion. */
  const viaChai = (node: Node, name: string): unknown => reflectGet(base, name, node);

  for (const name of chains) {
    if (!(name in base)) continue;
    defineProperty(proto, name, {
      get(this: Node) {
        return fast ? copy(this) : viaChai(this, name);
      },
      configurable: true,
    });
  }
  for (const [name, flag] of flagProperties) {
    defineProperty(proto, name, {
      get(this: Node) {
        if (!fast) return viaChai(this, name);
        this.__flags[flag] = true;
        return copy(this);
      },
      configurable: true,
    });
  }
  for (const [name, fastPath] of propertyPaths(isResponse)) {
    if (!(name in base)) continue;
    defineProperty(proto, name, {
      get(this: Node) {
        return fast && fastPath(this.__flags) ? copy(this) : viaChai(this, name);
      },
      configurable: true,
    });
  }
  for (const [names, fastPath] of methodPaths(isResponse)) {
    for (const name of names) {
      const original = base[name];
      if (typeof original !== 'function') continue;
      // Named as chai names its method wrappers; proxied and length-guarded as chai's are.
      const methodWrapper = function (this: Node, ...args: unknown[]): unknown {
        if (fast && base[name] === original && fastPath(this.__flags, args)) return copy(this);
        return (base[name] as AnyFunction).apply(this, args);
      };
      util.addLengthGuard(methodWrapper, name, false);
      proto[name] = util.proxify(methodWrapper, name);
    }
  }

  // chai's proxy throws on a name no assertion has; these plain objects get the same error from a
  // proxy at the end of the prototype chain, reached only when a lookup found nothing. (chai's own
  // objects are looked up there too, e.g. `__flags` while an Assertion is being built: they pass.)
  const end = getPrototypeOf(base) as object;
  setPrototypeOf(base, new Proxy(end, {
    get(target, property, receiver) {
      if (typeof property === 'string' && getPrototypeOf(receiver) === proto && util.isProxyEnabled() && !config.proxyExcludedKeys.includes(property) && !reflectHas(target, property)) {
        // A fresh chai assertion finds the same names and throws chai's own message.
        return (new Assertion() as Record<string, unknown>)[property];
      }
      return reflectGet(target, property, receiver);
    },
  }));

  const expect = function expect(value: unknown, message?: string): unknown {
    return fast ? make(value, message) : new Assertion(value, message);
  };
  // `pm.expect.fail` and anything else on chai's expect.
  setPrototypeOf(expect, chai.expect);
  return expect as AnyFunction;
}
