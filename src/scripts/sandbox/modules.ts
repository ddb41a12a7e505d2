/** `require()` for scripts: the bundled modules, evaluated on first use and cached for the run. */
import { host } from './host-functions.js';
import { unavailableError } from './unavailable.js';

/** Names scripts may require, and which bundle serves them. */
const bundleOf: Record<string, string> = {
  lodash: 'lodash',
  'crypto-js': 'crypto-js',
  moment: 'moment',
  uuid: 'uuid',
  chai: 'chai',
  xml2js: 'xml2js',
  buffer: 'buffer',
};
/** Modules written here rather than bundled. */
const builtIn: Record<string, () => unknown> = {
  atob: () => globalThis.atob,
  btoa: () => globalThis.btoa,
  // tv4's bundle builds it over the JSON Schema validator the sandbox already has (tv4.ts).
  tv4: () => (host.loadModule('tv4') as (validator: unknown) => unknown)((internalModule('json-schema') as { Validator: unknown }).Validator),
};

const cache = new Map<string, unknown>();
/** What a module needs done before any script gets it (chai: Postman's response assertions). */
const setups = new Map<string, (value: unknown) => void>();

/** Runs `setup` on the module `name` when it is loaded, before it is handed to anyone. */
export function setUpModule(name: string, setup: (value: unknown) => void): void {
  setups.set(name, setup);
}
/**
 * Modules being evaluated right now. lodash reads `root._` while it loads (to restore it in
 * noConflict), which would otherwise call the lazy `_` global and load lodash again, forever.
 */
const loading = new Set<string>();

export const availableModules = [...Object.keys(bundleOf), ...Object.keys(builtIn)].sort();

/** A bundle the sandbox itself uses but scripts cannot require (the JSON Schema validator, the status descriptions). */
export function internalModule(name: 'json-schema' | 'http-reasons'): unknown {
  let value = cache.get(`internal:${name}`);
  if (value === undefined) {
    value = host.loadModule(name);
    cache.set(`internal:${name}`, value);
  }
  return value;
}

export function requireModule(name: unknown): unknown {
  if (typeof name !== 'string') throw new TypeError('require() needs a module name (a string)');
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  let value: unknown;
  if (Object.prototype.hasOwnProperty.call(builtIn, name)) {
    value = builtIn[name]!();
  } else if (Object.prototype.hasOwnProperty.call(bundleOf, name)) {
    if (loading.has(name)) return undefined;
    loading.add(name);
    try {
      value = host.loadModule(bundleOf[name]!);
    } finally {
      loading.delete(name);
    }
    if (value && typeof value === 'object' && 'default' in value && Object.keys(value).length === 1) {
      value = (value as { default: unknown }).default;
    }
    setups.get(name)?.(value);
  } else if (name.startsWith('pm:') || name.startsWith('@')) {
    throw unavailableError('pm.require');
  } else {
    throw new Error(
      `require('${name}') is not available in Ferry's script sandbox. Modules you can require: ${availableModules.join(', ')}`,
    );
  }
  cache.set(name, value);
  return value;
}
