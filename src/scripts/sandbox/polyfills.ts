/**
 * Globals Postman's sandbox has and QuickJS lacks: atob/btoa, crypto.getRandomValues (uuid and
 * crypto-js need it), lazily loaded `_`, `CryptoJS` and `Buffer`, and SugarJS's `String#has`
 * that old collections still call on `responseBody`.
 */
import { host } from './host-functions.js';
import { requireModule } from './modules.js';

const base64Chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function btoa(input: unknown): string {
  const text = String(input);
  let out = '';
  for (let i = 0; i < text.length; i += 3) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    if (a > 255 || b > 255 || c > 255) {
      throw new Error("btoa: the string contains characters outside Latin-1; encode it first (e.g. CryptoJS.enc.Utf8)");
    }
    const triple = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += base64Chars[(triple >> 18) & 63]! + base64Chars[(triple >> 12) & 63]!;
    out += i + 1 < text.length ? base64Chars[(triple >> 6) & 63]! : '=';
    out += i + 2 < text.length ? base64Chars[triple & 63]! : '=';
  }
  return out;
}

function atob(input: unknown): string {
  const text = String(input).replace(/[\t\n\f\r ]+/g, '').replace(/=+$/, '');
  if (/[^A-Za-z0-9+/]/.test(text) || text.length % 4 === 1) {
    throw new Error('atob: the string is not valid base64');
  }
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    buffer = (buffer << 6) | base64Chars.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 255);
    }
  }
  return out;
}

function getRandomValues<T extends ArrayBufferView | null>(array: T): T {
  if (!array || !ArrayBuffer.isView(array)) throw new TypeError('crypto.getRandomValues needs a typed array');
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  if (bytes.length > 65536) throw new Error('crypto.getRandomValues: at most 65536 bytes at a time');
  const hex = host.randomHex(bytes.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return array;
}

/**
 * Names lodash 3 had that lodash 4 renamed, which Postman's global `_` (lodash 3) still answers:
 * collections written for Postman call `_.pluck`, `_.contains`, `_.where`… on it.
 */
const LODASH3_NAMES: Record<string, string> = {
  pluck: 'map', contains: 'includes', include: 'includes', where: 'filter', findWhere: 'find', indexBy: 'keyBy',
  any: 'some', all: 'every', collect: 'map', select: 'filter', detect: 'find', foldl: 'reduce', foldr: 'reduceRight',
  inject: 'reduce', rest: 'tail', object: 'zipObject', pairs: 'toPairs', sortByOrder: 'orderBy', padLeft: 'padStart',
  padRight: 'padEnd', trimLeft: 'trimStart', trimRight: 'trimEnd', methods: 'functions', unique: 'uniq', backflow: 'flowRight', compose: 'flowRight',
};

/** The global `_`: a lodash 4 of its own (require('lodash') stays plain lodash 4) that also answers to lodash 3's names. */
function globalLodash(): unknown {
  const loaded = requireModule('lodash') as { runInContext(): Record<string, unknown> } | undefined;
  // lodash reads the global `_` while it loads and in runInContext (for noConflict): undefined then.
  if (loaded === undefined || buildingLodash) return undefined;
  buildingLodash = true;
  let lodash: Record<string, unknown>;
  try {
    lodash = loaded.runInContext();
  } finally {
    buildingLodash = false;
  }
  for (const [old, now] of Object.entries(LODASH3_NAMES)) if (!(old in lodash) && typeof lodash[now] === 'function') lodash[old] = lodash[now];
  return lodash;
}

let lodashGlobal: unknown;
let buildingLodash = false;

/** Globals that load a bundled module on first read; a script may still assign its own. */
export const lazyGlobals: Record<string, () => unknown> = {
  _: () => (lodashGlobal ??= globalLodash()),
  CryptoJS: () => requireModule('crypto-js'),
  Buffer: () => (requireModule('buffer') as { Buffer: unknown }).Buffer,
  tv4: () => requireModule('tv4'),
};

export function defineLazyGlobal(name: string): void {
  Object.defineProperty(globalThis, name, {
    get: lazyGlobals[name],
    set(value: unknown) {
      // Enumerable, as any global a script assigns: the sandbox's quick check then sees it and restores the lazy one.
      Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: true });
    },
    configurable: true,
    enumerable: false,
  });
}

export function installPolyfills(): void {
  // Not enumerable, as the built-in globals: a script's own globals are the only enumerable ones
  // (the sandbox checks for them after each script).
  const hidden = { writable: true, configurable: true, enumerable: false };
  Object.defineProperties(globalThis, { atob: { value: atob, ...hidden }, btoa: { value: btoa, ...hidden }, crypto: { value: { getRandomValues }, ...hidden } });
  for (const name of Object.keys(lazyGlobals)) defineLazyGlobal(name);
  if (!Object.prototype.hasOwnProperty.call(String.prototype, 'has')) {
    Object.defineProperty(String.prototype, 'has', {
      value: function has(this: string, search: unknown) {
        return String(this).includes(String(search));
      },
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
}
