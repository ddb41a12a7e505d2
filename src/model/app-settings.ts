/**
 * Application settings, declared once (spec 2.7; docs/running.md): this computer's defaults that
 * a request's `settings` override. The defaults, the ranges, which settings a request may
 * override, the checks of a stored value and the reading of `ferry config set` text all derive
 * from APP_SETTINGS; nothing else lists them.
 */
import { z } from 'zod';
import { flag, integer, oneOf } from './declare.js';
import { MAX_TIMER_MS } from './constants.js';

const HTTP_VERSIONS = ['auto', 'http1', 'http2', 'http3'] as const;

/** Most redirects one send follows, in a request file and in `ferry config` alike. */
export const MAX_REDIRECTS = 1000;

/** `perRequest`: a request's `settings` (and `ferry run` options) may override it for one send. */
interface Declared<T> {
  default: T;
  perRequest: boolean;
}
export interface WholeNumberSetting extends Declared<number> { type: 'wholeNumber'; min: number; max: number }
export interface FlagSetting extends Declared<boolean> { type: 'flag' }
/**
 * `notHere`: values the format takes in a request's or a load test's field (spec 2.7, 9) that this
 * computer's setting refuses, each with why: `ferry config set` says so, and a stored one (a hand
 * edit) is ignored like any invalid value.
 */
export interface ChoiceSetting<V extends string = string> extends Declared<V> { type: 'choice'; values: readonly [V, ...V[]]; notHere?: Readonly<Partial<Record<V, string>>> }
/** Free text checked by `check` (a message, or undefined when fine); '' = not set. */
export interface TextSetting extends Declared<string> { type: 'text'; check: (value: string) => string | undefined; describe: string }
/** A list of text items, written comma-separated in `ferry config set`. */
export interface ListSetting extends Declared<readonly string[]> { type: 'list'; describe: string }
/**
 * One client certificate (like Postman's and Insomnia's): sent to servers matching `host`
 * (`api.example.com`, `*.example.com`, optionally `:port`). PEM `certPath` + `keyPath`, or a
 * PKCS#12 `pfxPath`. The passphrase is kept in the secret store, never in settings.json.
 */
export interface ClientCertificate {
  host: string;
  certPath?: string;
  keyPath?: string;
  pfxPath?: string;
}
let certificatesSchema: z.ZodArray<z.ZodType<ClientCertificate>> | undefined;
/** Built at first use: most runs read no certificate setting. */
const clientCertificatesSchema = () => (certificatesSchema ??= z.array(z.object({
  host: z.string().min(1, { error: 'host is empty' }),
  certPath: z.string().min(1).optional(),
  keyPath: z.string().min(1).optional(),
  pfxPath: z.string().min(1).optional(),
}).strict().refine((c) => Boolean(c.pfxPath) !== Boolean(c.certPath && c.keyPath) && !(c.pfxPath && (c.certPath || c.keyPath)), {
  error: 'each client certificate takes certPath and keyPath, or pfxPath',
})));
/** Client certificates, set as JSON text in `ferry config set` (a passphrase field there goes to the secret store). */
export interface CertificatesSetting extends Declared<readonly ClientCertificate[]> { type: 'certificates' }
export type SettingDeclaration = WholeNumberSetting | FlagSetting | ChoiceSetting | TextSetting | ListSetting | CertificatesSetting;

const wholeNumber = <P extends boolean>(fallback: number, perRequest: P, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  ({ type: 'wholeNumber', default: fallback, perRequest, min, max }) as const;
const onOff = <P extends boolean>(fallback: boolean, perRequest: P) => ({ type: 'flag', default: fallback, perRequest }) as const;
const choice = <const V extends readonly [string, ...string[]], P extends boolean>(values: V, fallback: V[number], perRequest: P, notHere?: Partial<Record<V[number], string>>) =>
  ({ type: 'choice', values, default: fallback, perRequest, ...(notHere ? { notHere } : {}) }) as const;

const freeText = (check: TextSetting['check'], describe: string) =>
  ({ type: 'text', default: '', perRequest: false, check, describe }) as const;
const textList = (describe: string) => ({ type: 'list', default: [] as readonly string[], perRequest: false, describe }) as const;

/** The schemes the `proxy` setting takes (`socks` is read as SOCKS5, as curl does). */
export const PROXY_SCHEMES = ['http:', 'https:', 'socks5:', 'socks:'] as const;

/** Why a `proxy` value cannot be used, or undefined when it can ('' = no proxy). */
export function checkProxyUrl(value: string): string | undefined {
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL; write the proxy as http://host:port, https://host:port or socks5://host:port.`;
  }
  if (!(PROXY_SCHEMES as readonly string[]).includes(url.protocol)) {
    return `a proxy URL starts with http://, https:// or socks5://, not ${url.protocol}//.`;
  }
  if (!url.hostname) return `the proxy URL "${value}" has no host.`;
  return undefined;
}

export const APP_SETTINGS = {
  /** Whole-request timeout in ms; 0 = no limit. */
  timeoutMs: wholeNumber(30_000, true, 0, MAX_TIMER_MS),
  followRedirects: onOff(true, true),
  maxRedirects: wholeNumber(10, true, 0, MAX_REDIRECTS),
  verifyTls: onOff(true, true),
  /** A request or a load test may name http3 (it fails when sent, or when the test starts); this computer's setting refuses it. */
  httpVersion: choice(HTTP_VERSIONS, 'auto', true, { http3: 'HTTP/3 is not supported yet' }),
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
  scriptTimeoutMs: wholeNumber(5_000, false, 1, MAX_TIMER_MS),
  scriptMemoryMb: wholeNumber(64, false, 4, 2000),
  /**
   * The proxy every HTTP-based request goes through (http://, https:// or socks5://). Its password
   * is kept in the data folder's secret store, never in settings.json.
   */
  proxy: freeText(checkProxyUrl, 'a proxy URL such as http://proxy.example:3128 or socks5://127.0.0.1:1080'),
  /** Hosts that skip the proxy: names, `.domain` suffixes, IP addresses, CIDR ranges, `*`. */
  noProxy: textList('hosts, .domains, IP addresses or CIDR ranges'),
  /** Read HTTP_PROXY, HTTPS_PROXY and NO_PROXY (any case) when `proxy` is not set. */
  useSystemProxy: onOff(true, false),
  /** Extra PEM files of certificate authorities trusted besides the system's (read from this computer, never the workspace). */
  caFiles: textList('paths of PEM files'),
  clientCertificates: { type: 'certificates', default: [] as readonly ClientCertificate[], perRequest: false } as const,
} as const satisfies Record<string, SettingDeclaration>;

type Settings = typeof APP_SETTINGS;
export type AppSettingKey = keyof Settings;
type ValueOf<D> = D extends { type: 'choice'; values: readonly (infer V)[] } ? V
  : D extends { type: 'flag' } ? boolean
  : D extends { type: 'text' } ? string
  : D extends { type: 'list' } ? readonly string[]
  : D extends { type: 'certificates' } ? readonly ClientCertificate[]
  : number;

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
  if (declared.type === 'text') {
    const check = declared.check;
    return z.string().refine((v) => check(v) === undefined, { error: (issue) => check(String(issue.input)) ?? 'invalid' }) as unknown as z.ZodType<AppSettings[K]>;
  }
  if (declared.type === 'list') return z.array(z.string()) as unknown as z.ZodType<AppSettings[K]>;
  if (declared.type === 'certificates') return clientCertificatesSchema() as unknown as z.ZodType<AppSettings[K]>;
  return oneOf(declared.values) as unknown as z.ZodType<AppSettings[K]>;
}

/** The request-level settings as optional fields of a request's `settings` section. */
export function requestLevelFields(): { [K in RequestLevelKey]: z.ZodOptional<z.ZodType<AppSettings[K]>> } {
  return Object.fromEntries(REQUEST_LEVEL_KEYS.map((key) => [key, appSettingSchema(key).optional()])) as never;
}

/** True when `value` is a valid value of this computer's setting (a hand-edited settings file may hold anything). */
export function isValidSetting(key: AppSettingKey, value: unknown): boolean {
  return appSettingSchema(key).safeParse(value).success && refusedHere(APP_SETTINGS[key], value) === undefined;
}

/** Why this computer's setting refuses a value the format takes (`notHere`), or undefined. */
function refusedHere(declared: SettingDeclaration, value: unknown): string | undefined {
  return declared.type === 'choice' && typeof value === 'string' && declared.notHere ? declared.notHere[value] : undefined;
}

/** The values `ferry config set` takes for a choice: the format's less those it refuses here. */
export function settableChoices(declared: ChoiceSetting): string[] {
  return declared.values.filter((v) => refusedHere(declared, v) === undefined);
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
  if (declared.type === 'text') {
    const value = text === 'none' ? '' : text.trim();
    const problem = declared.check(value);
    return problem ? { ok: false, message: `Setting ${key} takes ${declared.describe} (or none): ${problem}` } : ok(value);
  }
  if (declared.type === 'list') {
    // `none` or '' clears the list.
    return ok(text === 'none' ? [] : text.split(',').map((item) => item.trim()).filter(Boolean));
  }
  if (declared.type === 'certificates') return parseCertificates(key, text) as SettingText<K>;
  if (declared.type === 'wholeNumber') {
    // Digits only: Number() takes '' as 0 (for timeoutMs, no limit at all), '0x10' as 16, '1e3' as 1000.
    const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isInteger(n) && n >= declared.min && n <= declared.max) return ok(n);
    return { ok: false, message: `Setting ${key} takes a whole number ${describeRange(declared)}, not "${text}".` };
  }
  const takes = `Setting ${key} takes ${listWithOr(settableChoices(declared))}, not "${text}"`;
  const refused = refusedHere(declared, text);
  if (refused) return { ok: false, message: `${takes}: ${refused}.` };
  if ((declared.values as readonly string[]).includes(text)) return ok(text);
  return { ok: false, message: `${takes}.` };
}

/**
 * `clientCertificates` as JSON: a list of `{ host, certPath, keyPath }` or `{ host, pfxPath }`,
 * each with an optional `passphrase` (returned apart: the caller keeps it as a secret).
 */
function parseCertificates(key: string, text: string): SettingText<'clientCertificates'> & { passphrases?: Map<string, string> } {
  if (text === 'none' || text === '') return { ok: true, value: [] };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: `Setting ${key} takes JSON, a list like [{"host":"api.example.com","certPath":"client.pem","keyPath":"client-key.pem"}] (or none).` };
  }
  const passphrases = new Map<string, string>();
  const items = (Array.isArray(data) ? data : [data]).map((item: unknown) => {
    if (!item || typeof item !== 'object') return item;
    const { passphrase, ...rest } = item as Record<string, unknown>;
    if (typeof passphrase === 'string' && typeof rest.host === 'string') passphrases.set(rest.host, passphrase);
    return rest;
  });
  const parsed = clientCertificatesSchema().safeParse(items);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` (item ${Number(issue.path[0]) + 1}${issue.path[1] ? `, ${String(issue.path[1])}` : ''})` : '';
    return { ok: false, message: `Setting ${key}${where}: ${issue.message}.` };
  }
  return { ok: true, value: parsed.data, passphrases };
}

/** The passphrases given with `ferry config set clientCertificates JSON`, by host pattern. */
export function certificatePassphrases(text: string): Map<string, string> {
  const parsed = parseCertificates('clientCertificates', text);
  return parsed.ok ? parsed.passphrases ?? new Map() : new Map();
}

/** A setting's value as `ferry config` prints it and docs/running.md shows defaults: lists comma-separated, nothing as `none`. */
export function formatSetting(value: AppSettings[AppSettingKey]): string {
  const text = Array.isArray(value)
    ? value.every((v) => typeof v === 'string') ? value.join(',') : JSON.stringify(value)
    : String(value);
  return text === '' ? 'none' : text;
}

/** `of 0 or more`, `from 4 to 2000`. */
export function describeRange({ min, max }: WholeNumberSetting): string {
  return max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
}

function listWithOr(values: readonly string[]): string {
  return values.length === 1 ? values[0]! : `${values.slice(0, -1).join(', ')} or ${values.at(-1)!}`;
}
