/**
 * `pm.expect` and `pm.response.to` with chai's results and messages, without evaluating chai
 * until an assertion needs it.
 *
 * Evaluating chai (68 KB) inside QuickJS is most of a sandbox's start, and chai wraps every link
 * of a chain (`.to`, `.have`, `.property(…)`) in a new Proxy around a new Assertion, about 10 µs
 * per link: most of a short test script's time. Here an assertion is a plain object with chai's
 * own flags (`__flags`) whose prototype (`proto`) holds fast paths:
 *
 * - the language chains, `not` and `deep`, and the common assertions (`equal`, `eql`, `above`,
 *   `below`, `least`, `most`, `property`, `a`/`an`, `include`, `oneOf`, `ok`, `true`, `false`,
 *   `null`, `undefined`, `exist`, `status`) decide here whether chai would pass and, when it
 *   would, make the same flag changes chai makes and return a copy, as chai does;
 * - everything else — an assertion that would fail, a chain with no fast path, any other name —
 *   loads chai (once per sandbox) and runs chai's own code on the same object (chai reads only
 *   its flags), so messages, errors and further chaining are chai's.
 *
 * Until chai is loaded, `proto` sits on a stand-in (`lazyBase`) that loads chai on any lookup it
 * cannot answer exactly as chai would, then puts chai's `Assertion.prototype` in its place. A name
 * that is no assertion at all throws chai's own "Invalid Chai property" error (a proxy under
 * `Assertion.prototype` catches the lookups that find nothing).
 *
 * A plugin that adds or overwrites assertions (`chai.use`, `Assertion.addMethod`…) turns the fast
 * path off for the rest of the sandbox, so the plugin's code always runs.
 */

// Captured before any script runs: a script that replaces these breaks only itself.
const { create, getPrototypeOf, setPrototypeOf, defineProperty } = Object;
const { get: reflectGet, has: reflectHas, set: reflectSet } = Reflect;
const objectProto = Object.prototype;
const arrayProto = Array.prototype;
const { isArray } = Array;
const functionProto = Function.prototype;
const { call, apply } = functionProto;
const toStringTag = Symbol.toStringTag;

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

export interface FastExpect {
  /** `pm.expect`. */
  expect: AnyFunction;
  /** Called once when chai is loaded (by this module or by a script's `require('chai')`), after Postman's plugin was added. */
  link(chai: ChaiInternals): void;
}

/** Language chains: each returns a copy of the assertion, with no flag changed. */
const chains = ['to', 'be', 'been', 'is', 'and', 'has', 'have', 'with', 'that', 'which', 'at', 'of', 'same', 'but', 'does', 'still', 'also'];
/** Flags set by a property, on the assertion itself and then its copy. */
const flagProperties: [name: string, flag: string][] = [['not', 'negate'], ['deep', 'deep']];
/** chai's utilities that change assertions: a plugin calling one turns the fast path off. */
const extenders = ['addProperty', 'addMethod', 'addChainableMethod', 'overwriteProperty', 'overwriteMethod', 'overwriteChainableMethod'];
/** chai's `config.proxyExcludedKeys` as chai ships it: names chai's proxy never throws for. */
const excludedKeys = ['then', 'catch', 'inspect', 'toJSON'];

/** Whether an assertion with these flags passes when its test is `expr` (chai's `util.test`). */
function passes(flags: Flags, expr: boolean): boolean {
  return flags.negate ? !expr : expr;
}

/** `msg` given to an assertion becomes its message, as chai's `if (msg) flag(this, 'message', msg)`. */
function takeMessage(flags: Flags, msg: unknown): void {
  if (msg) flags.message = msg;
}

function comparison(compare: (a: number, b: number) => boolean) {
  return (flags: Flags, args: unknown[]): boolean => {
    const n = args[0];
    const value = flags.object;
    if (flags.doLength || typeof value !== 'number' || typeof n !== 'number') return false;
    if (!passes(flags, compare(value, n))) return false;
    takeMessage(flags, args[1]);
    return true;
  };
}

/** An array chai's type-detect calls 'Array' (no Symbol.toStringTag of its own) with nothing of its own class. */
function isPlainArray(value: unknown): value is unknown[] {
  return isArray(value) && getPrototypeOf(value) === arrayProto && (value as unknown as Record<symbol, unknown>)[toStringTag] === undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && value !== globalThis && getPrototypeOf(value) === objectProto && (value as Record<symbol, unknown>)[toStringTag] === undefined;
}

/**
 * chai's `_.type(value)` (type-detect) for the values it is sure of: primitives, plain arrays and
 * plain objects; undefined for anything else (chai then decides).
 */
function knownType(value: unknown): string | undefined {
  const type = typeof value;
  if (type !== 'object') return type;
  if (value === null) return 'null';
  if (isPlainArray(value)) return 'Array';
  if (isPlainObject(value)) return 'Object';
  return undefined;
}

function hasOwnSymbols(value: object): boolean {
  return Object.getOwnPropertySymbols(value).length > 0;
}

/**
 * deep-eql (chai's `eql`) where the answer is surely "equal": primitives, plain arrays and plain
 * objects of them. undefined when not sure (other kinds of value, cycles, unequal values): chai
 * then decides, and gives its message.
 */
function surelyDeepEqual(a: unknown, b: unknown, depth = 0): true | undefined {
  if (isPrimitive(a) || isPrimitive(b)) return primitivesDeepEqual(a, b) ? true : undefined;
  if (a === b) return true;
  if (depth > 64 || typeof a !== 'object' || typeof b !== 'object') return undefined;
  if (isPlainArray(a)) {
    if (!isPlainArray(b) || a.length !== b.length) return undefined;
    for (let i = 0; i < a.length; i++) if (surelyDeepEqual(a[i], b[i], depth + 1) === undefined) return undefined;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b) || hasOwnSymbols(a) || hasOwnSymbols(b)) return undefined;
  // deep-eql compares the enumerable keys, own and inherited (for…in), sorted.
  const aKeys: string[] = [];
  const bKeys: string[] = [];
  for (const key in a) aKeys.push(key);
  for (const key in b) bKeys.push(key);
  if (aKeys.length !== bKeys.length) return undefined;
  if (aKeys.length === 0) return Symbol.iterator in a || Symbol.iterator in b ? undefined : true;
  aKeys.sort();
  bKeys.sort();
  for (let i = 0; i < aKeys.length; i++) if (aKeys[i] !== bKeys[i]) return undefined;
  for (let i = 0; i < aKeys.length; i++) if (surelyDeepEqual(a[aKeys[i]!], b[aKeys[i]!], depth + 1) === undefined) return undefined;
  return true;
}

/** A copy of an assertion's flags, as chai's `transferFlags` makes for the assertion it returns. */
function copyFlags(from: Node): Flags {
  const flags = create(null) as Flags;
  const source = from.__flags;
  for (const key in source) flags[key] = source[key];
  return flags;
}

/** deep-eql on two primitives (never objects): whether they are deeply equal. */
function primitivesDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return a !== 0 || 1 / (a as number) === 1 / (b as number);
  return a !== a && b !== b;
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

type MethodPath = (flags: Flags, args: unknown[]) => boolean;

/**
 * Fast paths of chai's methods, by the names chai gives them: true when chai would pass, after
 * making chai's flag changes; false to let chai decide. `defaultEql` tells whether an assertion's
 * `eql` flag is chai's own deep-eql.
 */
function methodPaths(isResponse: (value: unknown) => value is { code: number; status: string }, defaultEql: (eql: unknown) => boolean): [string[], MethodPath][] {
  const eql: MethodPath = (flags, args) => {
    if (!defaultEql(flags.eql)) return false;
    const [expected, actual] = [args[0], flags.object];
    const equal = flags.negate ? (isPrimitive(expected) && isPrimitive(actual) ? primitivesDeepEqual(expected, actual) : true) : surelyDeepEqual(expected, actual) === true;
    if (!passes(flags, equal)) return false;
    takeMessage(flags, args[1]);
    return true;
  };
  return [
    [['equal', 'equals', 'eq'], (flags, args) => {
      // chai's `deep.equal` is `eql` (with lockSsfi set for the call and restored).
      if (flags.deep) return eql(flags, args);
      if (!passes(flags, args[0] === flags.object)) return false;
      takeMessage(flags, args[1]);
      return true;
    }],
    [['eql', 'eqls'], eql],
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
      takeMessage(flags, args[2]);
      flags.object = found;
      return true;
    }],
    [['oneOf'], (flags, args) => {
      const list = args[0];
      if (flags.contains || flags.deep || !isPlainArray(list)) return false;
      if (!passes(flags, list.indexOf(flags.object) > -1)) return false;
      takeMessage(flags, args[1]);
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

/**
 * Fast paths of chai's chainable methods (a property that can also be called): the flags their
 * property sets, and when called, the same as `methodPaths`.
 */
function chainablePaths(): [names: string[], chainFlag: string | undefined, MethodPath][] {
  return [
    [['a', 'an'], undefined, (flags, args) => {
      const type = args[0];
      if (typeof type !== 'string') return false;
      const actual = knownType(flags.object);
      if (actual === undefined || !passes(flags, type.toLowerCase() === actual.toLowerCase())) return false;
      takeMessage(flags, args[1]);
      return true;
    }],
    [['include', 'includes', 'contain', 'contains'], 'contains', (flags, args) => {
      const [obj, val] = [flags.object, args[0]];
      if (flags.deep) return false;
      let included: boolean;
      if (typeof obj === 'string' && typeof val === 'string') included = obj.indexOf(val) !== -1;
      else if (isPlainArray(obj)) included = obj.indexOf(val) !== -1;
      else return false;
      if (!passes(flags, included)) return false;
      takeMessage(flags, args[1]);
      return true;
    }],
  ];
}

/** Fast paths of chai's assertion properties: true when chai would pass (none changes a flag). */
function propertyPaths(isResponse: (value: unknown) => value is { code: number }): [string, (flags: Flags) => boolean][] {
  return [
    // The response plugin makes `ok` mean status 200 for responses (as Postman's: reason OK).
    ['ok', (flags) => (isResponse(flags.object) ? passes(flags, flags.object.code === 200) : passes(flags, Boolean(flags.object)))],
    ['true', (flags) => passes(flags, flags.object === true)],
    ['false', (flags) => passes(flags, flags.object === false)],
    ['null', (flags) => passes(flags, flags.object === null)],
    ['undefined', (flags) => passes(flags, flags.object === undefined)],
    ['exist', (flags) => passes(flags, flags.object !== null && flags.object !== undefined)],
    ['exists', (flags) => passes(flags, flags.object !== null && flags.object !== undefined)],
  ];
}

/**
 * Builds `pm.expect` for one sandbox. `loadChai` evaluates chai (once); loading it, from here or
 * from a script's `require('chai')`, must call `link` with it before it is used.
 */
export function makeFastExpect(loadChai: () => unknown, isResponse: (value: unknown) => value is { code: number; status: string }): FastExpect {
  let chai: ChaiInternals | undefined;
  let base: Record<string, unknown> | undefined;
  let fast = true;

  /** chai's `Assertion.prototype`, loading chai first when it is not yet. */
  function chaiBase(): Record<string, unknown> {
    if (!base) {
      loadChai();
      if (!base) throw new Error('Ferry sandbox: chai loaded without being linked to pm.expect');
    }
    return base;
  }

  /** The `eql` flag of assertions made before chai is loaded: chai's deep-eql, once it is there. */
  function deepEqual(this: unknown, ...args: unknown[]): unknown {
    chaiBase();
    const eql = (chai!.config.deepEqual || chai!.util.eql) as AnyFunction;
    return eql.apply(this, args);
  }
  // The stand-in for chai's Assertion constructor in `ssfi` (where stack traces start) until chai is loaded.
  function Assertion(): void {}

  const proto = create(null) as Record<string, unknown>;
  /** A new assertion, with the flags chai's constructor sets. */
  function make(value: unknown, message: unknown): Node {
    const flags = create(null) as Flags;
    flags.ssfi = chai ? chai.Assertion : Assertion;
    flags.lockSsfi = undefined;
    flags.object = value;
    flags.message = message;
    flags.eql = chai ? chai.config.deepEqual || chai.util.eql : deepEqual;
    // A literal defines `__flags` on the object itself (an assignment would look it up in chai's prototype).
    return { __proto__: proto, __flags: flags } as unknown as Node;
  }
  /** What chai returns after a chain link or a passed assertion: a new assertion with the same flags. */
  function copy(from: Node): Node {
    return { __proto__: proto, __flags: copyFlags(from) } as unknown as Node;
  }
  /** chai's own getter for `name`, run on this assertion. */
  const viaChai = (node: object, name: string): unknown => reflectGet(chaiBase(), name, node);
  const defaultEql = (eql: unknown): boolean => eql === deepEqual || (chai !== undefined && eql === chai.util.eql);

  for (const name of chains) {
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
    defineProperty(proto, name, {
      get(this: Node) {
        return fast && fastPath(this.__flags) ? copy(this) : viaChai(this, name);
      },
      configurable: true,
    });
  }

  /** The fast method wrappers, and for each how to tell it chai's own method once chai is loaded. */
  const methods: [name: string, wrapper: AnyFunction, setOriginal: (method: unknown) => void][] = [];
  for (const [names, fastPath] of methodPaths(isResponse, defaultEql)) {
    for (const name of names) {
      let original: unknown;
      // Named as chai names its method wrappers.
      const methodWrapper = function (this: Node, ...args: unknown[]): unknown {
        if (fast && (!base || base[name] === original) && fastPath(this.__flags, args)) return copy(this);
        return (chaiBase()[name] as AnyFunction).apply(this, args);
      };
      // `original`, chai's method, tells when a plugin overwrote it.
      methods.push([name, methodWrapper, (method) => (original = method)]);
      proto[name] = lazyMethod(methodWrapper, name);
    }
  }

  /**
   * A method before chai is loaded: calls go straight to it; reading a property of it (`.length`,
   * a typo like `equal.foo`) loads chai and reads it from chai's own wrapper, which chai guards.
   */
  function lazyMethod(wrapper: AnyFunction, name: string): AnyFunction {
    return new Proxy(wrapper, {
      get(target, property) {
        if (typeof property === 'symbol') return reflectGet(target, property);
        chaiBase();
        return reflectGet(proto[name] as object, property);
      },
    });
  }

  for (const [names, chainFlag, fastPath] of chainablePaths()) {
    for (const name of names) {
      defineProperty(proto, name, {
        get(this: Node) {
          if (!fast) return viaChai(this, name);
          if (chainFlag) this.__flags[chainFlag] = true;
          const node = this;
          // As chai's chainableMethodWrapper: callable, and an assertion with the flags as they are now.
          const chainableMethodWrapper = function (this: Node, ...args: unknown[]): unknown {
            if (fast && fastPath(this.__flags, args)) return copy(this);
            // chai's own chainable getter (its property behaviour only sets the same flag again), then its method.
            return (viaChai(this, name) as AnyFunction).apply(this, args);
          };
          defineProperty(chainableMethodWrapper, 'length', {
            get() {
              return (viaChai(node, name) as { length: number }).length;
            },
          });
          setPrototypeOf(chainableMethodWrapper, { __proto__: node, call, apply });
          (chainableMethodWrapper as unknown as Node).__flags = copyFlags(node);
          return chainableMethodWrapper;
        },
        configurable: true,
      });
    }
  }
  /** Whether a lookup on `receiver` is one on an assertion of ours: a fast node, or a chainable method from one. */
  function isOurs(receiver: unknown): boolean {
    if (receiver === null || (typeof receiver !== 'object' && typeof receiver !== 'function')) return false;
    const parent = getPrototypeOf(receiver);
    if (parent === proto) return true;
    return typeof receiver === 'function' && parent !== null && getPrototypeOf(getPrototypeOf(parent) ?? objectProto) === proto;
  }

  /**
   * Until chai is loaded: the prototype of `proto`. Lookups chai's `Assertion.prototype` would
   * answer from `Object.prototype` are answered here; any other loads chai and asks it.
   */
  const lazyBase = new Proxy(objectProto, {
    get(target, property, receiver) {
      if (typeof property === 'symbol' || (property !== 'constructor' && property in objectProto) || excludedKeys.includes(property)) {
        return reflectGet(target, property, receiver);
      }
      return reflectGet(chaiBase(), property, receiver);
    },
    has(target, property) {
      if (typeof property === 'symbol' || (property !== 'constructor' && property in objectProto)) return reflectHas(target, property);
      return reflectHas(chaiBase(), property);
    },
    set(_target, property, value, receiver) {
      return reflectSet(chaiBase(), property, value, receiver);
    },
  });
  setPrototypeOf(proto, lazyBase);

  const expect = function expect(value: unknown, message?: string): unknown {
    return fast ? make(value, message) : new chai!.Assertion(value, message);
  };
  // `pm.expect.fail` and anything else on chai's expect, once chai is loaded.
  setPrototypeOf(expect, new Proxy(functionProto, {
    get(target, property, receiver) {
      if (typeof property === 'symbol' || property in functionProto) return reflectGet(target, property, receiver);
      chaiBase();
      return reflectGet(chai!.expect, property, receiver);
    },
    has(target, property) {
      if (typeof property === 'symbol' || property in functionProto) return reflectHas(target, property);
      chaiBase();
      return reflectHas(chai!.expect, property);
    },
  }));

  function link(loaded: ChaiInternals): void {
    if (chai) return;
    chai = loaded;
    const { Assertion: ChaiAssertion, util, config } = loaded;
    const chaiProto = ChaiAssertion.prototype as Record<string, unknown>;
    for (const name of extenders) {
      const original = util[name] as AnyFunction;
      util[name] = function (this: unknown, ...args: unknown[]) {
        fast = false;
        return original.apply(this, args);
      };
    }
    for (const [name, wrapper, setOriginal] of methods) {
      setOriginal(chaiProto[name]);
      // From now on chai's guards: proxied and length-guarded as chai's own method wrappers are.
      util.addLengthGuard(wrapper, name, false);
      proto[name] = util.proxify(wrapper, name);
    }

    // chai's proxy throws on a name no assertion has; these plain objects get the same error from a
    // proxy at the end of the prototype chain, reached only when a lookup found nothing. (chai's own
    // objects are looked up there too, e.g. `__flags` while an Assertion is being built: they pass.)
    const end = getPrototypeOf(chaiProto) as object;
    setPrototypeOf(chaiProto, new Proxy(end, {
      get(target, property, receiver) {
        if (typeof property === 'string' && isOurs(receiver) && util.isProxyEnabled() && !config.proxyExcludedKeys.includes(property) && !reflectHas(target, property)) {
          // A fresh chai assertion (or chainable method) finds the same names and throws chai's own message.
          const fresh = new ChaiAssertion() as Record<string, unknown>;
          return typeof receiver === 'function' ? (fresh.an as Record<string, unknown>)[property] : fresh[property];
        }
        return reflectGet(target, property, receiver);
      },
    }));
    base = chaiProto;
    setPrototypeOf(proto, chaiProto);
    setPrototypeOf(expect, loaded.expect);
  }

  return { expect: expect as AnyFunction, link };
}
