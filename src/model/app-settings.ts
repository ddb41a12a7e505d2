/**
 * Application settings, declared once (spec 2.7; docs/running.md): this computer's defaults that
 * a request's `settings` override. The defaults, the ranges, which settings a request may
 * override, the checks of a stored value and the reading of `ferry config set` text all derive
 * from APP_SETTINGS; nothing else lists them.
 */
import type { z } from 'zod';
import { flag, integer, oneOf } from './declare.js';

export const HTTP_VERSIONS = ['auto', 'http1', 'http2', 'http3'] as const;

/** Most redirects one send follows, in a request file and in `ferry config` alike. */
export const MAX_REDIRECTS = 1000;

/** `perRequest`: a request's `settings` (and `ferry run` options) may override it for one send. */
interface Declared<T> {
  default: T;
  perRequest: boolean;
}
export interface WholeNumberSetting extends Declared<number> { type: 'wholeNumber'; min: number; max: number }
export interface FlagSetting extends Declared<boolean> { type: 'flag' }
export interface ChoiceSetting<V extends string = string> extends Declared<V> { type: 'choice'; values: readonly [V, ...V[]] }
export type SettingDeclaration = WholeNumberSetting | FlagSetting | ChoiceSetting;

const wholeNumber = <P extends boolean>(fallback: number, perRequest: P, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  ({ type: 'wholeNumber', default: fallback, perRequest, min, max }) as const;
const onOff = <P extends boolean>(fallback: boolean, perRequest: P) => ({ type: 'flag', default: fallback, perRequest }) as const;
const choice = <const V extends readonly [string, ...string[]], P extends boolean>(values: V, fallback: V[number], perRequest: P) =>
  ({ type: 'choice', values, default: fallback, perRequest }) as const;

export const APP_SETTINGS = {
  /** Whole-request timeout in ms; 0 = no limit. */
  timeoutMs: wholeNumber(30_000, true),
  followRedirects: onOff(true, true),
  maxRedirects: wholeNumber(10, true, 0, MAX_REDIRECTS),
  verifyTls: onOff(true, true),
  httpVersion: choice(HTTP_VERSIONS, 'auto', true),
  decompress: onOff(true, true),
  /**
   * Most megabytes (MiB) of a response body read, as received and once decoded; past it the
   * request fails and the connection is closed. 0 = no limit. (Postman's "Max response size".)
   * Up to 4 GB: Node's largest Buffer on 64-bit systems; 0 = no limit covers more.
   */
  maxResponseMb: wholeNumber(50, false, 0, 4096),
  /** Body files outside the workspace folder may be sent. */
  filesOutsideWorkspace: onOff(false, false),
  /** Script limits: a script needs some time, and its sandbox 4 MB to 2000 MB (QuickJS in 32-bit WebAssembly). */
  scriptTimeoutMs: wholeNumber(5_000, false, 1),
  scriptMemoryMb: wholeNumber(64, false, 4, 2000),
} as const satisfies Record<string, SettingDeclaration>;

type Settings = typeof APP_SETTINGS;
export type AppSettingKey = keyof Settings;
type ValueOf<D> = D extends { type: 'choice'; values: readonly (infer V)[] } ? V : D extends { type: 'flag' } ? boolean : number;

export type AppSettings = { -readonly [K in AppSettingKey]: ValueOf<Settings[K]> };

/** The settings a request's `settings` may override, in declared order. */
export type RequestLevelKey = { [K in AppSettingKey]: Settings[K]['perRequest'] extends true ? K : never }[AppSettingKey];
export type RequestLevelSettings = Pick<AppSettings, RequestLevelKey>;

export const APP_SETTING_KEYS = Object.keys(APP_SETTINGS) as AppSettingKey[];
export const REQUEST_LEVEL_KEYS = APP_SETTING_KEYS.filter((key) => APP_SETTINGS[key].perRequest) as RequestLevelKey[];

export const DEFAULT_SETTINGS: AppSettings = Object.fromEntries(
  APP_SETTING_KEYS.map((key) => [key, APP_SETTINGS[key].default]),
) as AppSettings;

export function isAppSettingKey(key: string): key is AppSettingKey {
  return Object.hasOwn(APP_SETTINGS, key);
}

/** The field validator of one setting, as request files, load tests and the settings file check it. */
export function appSettingSchema<K extends AppSettingKey>(key: K): z.ZodType<AppSettings[K]> {
  const declared: SettingDeclaration = APP_SETTINGS[key];
  if (declared.type === 'wholeNumber') return integer(declared.min, declared.max) as unknown as z.ZodType<AppSettings[K]>;
  if (declared.type === 'flag') return flag() as unknown as z.ZodType<AppSettings[K]>;
  return oneOf(declared.values) as unknown as z.ZodType<AppSettings[K]>;
}

/** The request-level settings as optional fields of a request's `settings` section. */
export function requestLevelFields(): { [K in RequestLevelKey]: z.ZodOptional<z.ZodType<AppSettings[K]>> } {
  return Object.fromEntries(REQUEST_LEVEL_KEYS.map((key) => [key, appSettingSchema(key).optional()])) as never;
}

/** True when `value` is a valid value of the setting (a hand-edited settings file may hold anything). */
export function isValidSetting(key: AppSettingKey, value: unknown): boolean {
  return appSettingSchema(key).safeParse(value).success;
}

export function unknownSettingMessage(key: string): string {
  return `Unknown setting "${key}". Settings: ${APP_SETTING_KEYS.join(', ')}.`;
}

export type SettingText<K extends AppSettingKey> = { ok: true; value: AppSettings[K] } | { ok: false; message: string };

/** Reads a setting's value from text (`ferry config set KEY VALUE`); a refusal names the setting and what it takes. */
export function parseSettingText<K extends AppSettingKey>(key: K, text: string): SettingText<K> {
  const declared: SettingDeclaration = APP_SETTINGS[key];
  const ok = (value: unknown): SettingText<K> => ({ ok: true, value: value as AppSettings[K] });
  if (declared.type === 'flag') {
    if (text === 'true' || text === 'on') return ok(true);
    if (text === 'false' || text === 'off') return ok(false);
    return { ok: false, message: `Setting ${key} takes true or false, not "${text}".` };
  }
  if (declared.type === 'wholeNumber') {
    const n = Number(text);
    if (Number.isInteger(n) && n >= declared.min && n <= declared.max) return ok(n);
    return { ok: false, message: `Setting ${key} takes a whole number ${describeRange(declared)}, not "${text}".` };
  }
  if ((declared.values as readonly string[]).includes(text)) return ok(text);
  return { ok: false, message: `Setting ${key} takes ${listWithOr(declared.values)}, not "${text}".` };
}

/** `of 0 or more`, `from 4 to 2000`. */
export function describeRange({ min, max }: WholeNumberSetting): string {
  return max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
}

function listWithOr(values: readonly string[]): string {
  return values.length === 1 ? values[0]! : `${values.slice(0, -1).join(', ')} or ${values.at(-1)!}`;
}
