/**
 * Application settings: the defaults that a request's `settings` override (spec 2.7). One file
 * for this computer, `settings.json` in the data folder.
 */
import path from 'node:path';
import { JsonStore } from './json-store.js';
import { dataDir } from './paths.js';

export interface AppSettings {
  /** Whole-request timeout in ms; 0 = no limit. */
  timeoutMs: number;
  followRedirects: boolean;
  maxRedirects: number;
  verifyTls: boolean;
  httpVersion: 'auto' | 'http1' | 'http2' | 'http3';
  decompress: boolean;
  /**
   * Most megabytes (MiB) of a response body read, as received and once decoded; past it the
   * request fails and the connection is closed. 0 = no limit. (Postman's "Max response size".)
   */
  maxResponseMb: number;
  /** Body files outside the workspace folder may be sent. */
  filesOutsideWorkspace: boolean;
  /** Script limits. */
  scriptTimeoutMs: number;
  scriptMemoryMb: number;
}

export const DEFAULT_SETTINGS: AppSettings = {
  timeoutMs: 30_000,
  followRedirects: true,
  maxRedirects: 10,
  verifyTls: true,
  httpVersion: 'auto',
  decompress: true,
  maxResponseMb: 50,
  filesOutsideWorkspace: false,
  scriptTimeoutMs: 5_000,
  scriptMemoryMb: 64,
};

function store(): JsonStore<Partial<AppSettings>> {
  return new JsonStore(path.join(dataDir(), 'settings.json'), () => ({}));
}

/** The stored settings over the defaults; a stored value of the wrong type (a hand edit) is ignored. */
export async function readSettings(): Promise<AppSettings> {
  const stored = (await store().read()) as Record<string, unknown>;
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof AppSettings)[]) {
    if (isValidSetting(key, stored[key])) settings[key] = stored[key];
  }
  return settings as unknown as AppSettings;
}

function isValidSetting(key: keyof AppSettings, value: unknown): boolean {
  const fallback = DEFAULT_SETTINGS[key];
  if (key === 'httpVersion') return HTTP_VERSIONS.includes(value as string);
  if (typeof fallback === 'number') return Number.isInteger(value) && inRange(key, value as number);
  return typeof value === typeof fallback;
}

/** Numbers other than "0 or more": a script needs some time, and its sandbox 4 MB to 2000 MB (QuickJS in 32-bit WebAssembly). */
const NUMBER_RANGES: Partial<Record<keyof AppSettings, [number, number]>> = {
  scriptTimeoutMs: [1, Number.MAX_SAFE_INTEGER],
  scriptMemoryMb: [4, 2000],
  // Up to 4 GB: Node's largest Buffer on 64-bit systems; 0 = no limit covers more.
  maxResponseMb: [0, 4096],
};

function inRange(key: keyof AppSettings, n: number): boolean {
  const [min, max] = NUMBER_RANGES[key] ?? [0, Number.MAX_SAFE_INTEGER];
  return n >= min && n <= max;
}

const HTTP_VERSIONS = ['auto', 'http1', 'http2', 'http3'];

/** Parses and stores one setting given as text (`ferry config set KEY VALUE`). */
export async function setSetting(key: string, text: string): Promise<AppSettings> {
  if (!(key in DEFAULT_SETTINGS)) {
    throw new Error(`Unknown setting "${key}". Settings: ${Object.keys(DEFAULT_SETTINGS).join(', ')}.`);
  }
  const name = key as keyof AppSettings;
  const value = parseSettingValue(name, text);
  await store().update((s) => {
    (s as Record<string, unknown>)[name] = value;
  });
  return readSettings();
}

function parseSettingValue(key: keyof AppSettings, text: string): AppSettings[keyof AppSettings] {
  const fallback = DEFAULT_SETTINGS[key];
  if (typeof fallback === 'boolean') {
    if (text === 'true' || text === 'on') return true;
    if (text === 'false' || text === 'off') return false;
    throw new Error(`Setting ${key} takes true or false, not "${text}".`);
  }
  if (typeof fallback === 'number') {
    const n = Number(text);
    if (!Number.isInteger(n) || !inRange(key, n)) {
      const [min, max] = NUMBER_RANGES[key] ?? [0, Number.MAX_SAFE_INTEGER];
      const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
      throw new Error(`Setting ${key} takes a whole number ${range}, not "${text}".`);
    }
    return n;
  }
  if (key === 'httpVersion' && !HTTP_VERSIONS.includes(text)) {
    throw new Error(`Setting httpVersion takes auto, http1, http2 or http3, not "${text}".`);
  }
  return text as AppSettings['httpVersion'];
}
