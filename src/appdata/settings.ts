/**
 * Where the application settings are kept: one file for this computer, `settings.json` in the
 * data folder. What the settings are (defaults, ranges, text forms) is declared in
 * model/app-settings.ts.
 *
 * Also the files the `caFiles` and `clientCertificates` settings name (issue 20): this
 * computer's files, never the workspace's; `~/` is the home folder. `ferry config set` checks them
 * before storing, and a run reads them when it opens its connections; a stored setting whose file
 * has gone since (or was edited by hand) is said in one line naming the setting, settings.json and
 * what to do.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  APP_SETTING_KEYS, certificatePassphrases, DEFAULT_SETTINGS, formatSetting, isAppSettingKey, isValidSetting, parseSettingText, unknownSettingMessage, type AppSettings,
  type ClientCertificate,
} from '../model/index.js';
import { JsonStore } from './json-store.js';
import { dataDir, settingsFile } from './paths.js';
import { SecretStore } from './secrets.js';

// Re-exported: the request and runner layers take the settings from here.
export { DEFAULT_SETTINGS, type AppSettings };

function store(): JsonStore<Partial<AppSettings>> {
  return new JsonStore(settingsFile(), () => ({}), 'the application settings are back to their defaults: set them again with `ferry config set NAME VALUE` (`ferry config list` shows them)');
}

/** The stored settings over the defaults; a stored value of the wrong type or out of range (a hand edit) is ignored. */
export async function readSettings(): Promise<AppSettings> {
  const stored = (await store().read()) as Record<string, unknown>;
  const settings: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key of APP_SETTING_KEYS) {
    // An absent setting keeps its default without building its validator (no setting takes undefined).
    if (stored[key] !== undefined && isValidSetting(key, stored[key])) settings[key] = stored[key];
  }
  return settings as unknown as AppSettings;
}

/**
 * Another writer (`ferry config set`, another app window) changed the setting since the caller
 * read it: nothing was stored. `current`: the setting's text as stored now.
 */
export class SettingChangedError extends Error {
  override name = 'SettingChangedError';
  constructor(readonly key: string, readonly current: string) {
    super(`${key} changed since it was read (it is now ${current}); nothing was saved.`);
  }
}

/**
 * Parses and stores one setting given as text (`ferry config set KEY VALUE`). `base`: the
 * setting's text as the caller last read it (the app's dialog); when the file holds another value
 * now, nothing is stored or changed (SettingChangedError). Checked under the file's lock, before
 * the secrets a setting keeps (a proxy password, passphrases) are touched.
 */
export async function setSetting(key: string, text: string, base?: string): Promise<AppSettings> {
  if (!isAppSettingKey(key)) throw new Error(unknownSettingMessage(key));
  const parsed = parseSettingText(key, text);
  if (!parsed.ok) throw new Error(parsed.message);
  let value = parsed.value;
  // The files a setting names are checked now: a run would stop on them later.
  await checkFiles(key, value);
  await store().update(async (s) => {
    const stored = (s as Record<string, unknown>)[key];
    if (base !== undefined) {
      // As readSettings takes it: a value that is not valid (a hand edit) reads as the default.
      const current = formatSetting(stored !== undefined && isValidSetting(key, stored) ? (stored as AppSettings[typeof key]) : DEFAULT_SETTINGS[key]);
      // Changed to what this write stores is no conflict.
      if (current !== base && current !== formatSetting(value)) throw new SettingChangedError(key, current);
    }
    if (key === 'proxy') value = await keepProxyPassword(value as string);
    if (key === 'clientCertificates') await keepPassphrases(certificatePassphrases(text));
    (s as Record<string, unknown>)[key] = value;
  });
  return readSettings();
}

async function checkFiles(key: string, value: unknown): Promise<void> {
  try {
    if (key === 'caFiles') await readCaFiles(value as AppSettings['caFiles']);
    if (key === 'clientCertificates') for (const entry of value as AppSettings['clientCertificates']) await readCertificateFiles(entry);
  } catch (error) {
    if (!(error instanceof SettingFileError)) throw error;
    throw new Error(refusedFileMessage(error, key === 'caFiles'
      ? 'PEM files of certificate authorities, comma-separated (or none)'
      : 'PEM certPath and keyPath files, or a PKCS#12 pfxPath file, for each host (or none)'));
  }
}

/** Application-level secrets live beside settings.json, sealed like a workspace's (scope `settings`). */
const SECRETS_SCOPE = 'settings';
const appSecrets = () => new SecretStore(dataDir());

/** Moves a proxy URL's password into the secret store; the URL stored keeps the user name only. */
async function keepProxyPassword(proxy: string): Promise<string> {
  if (proxy === '') {
    await appSecrets().delete(SECRETS_SCOPE, 'proxyPassword');
    return proxy;
  }
  const url = new URL(proxy);
  if (!url.password) {
    await appSecrets().delete(SECRETS_SCOPE, 'proxyPassword');
    return proxy;
  }
  await appSecrets().set(SECRETS_SCOPE, 'proxyPassword', decodeURIComponent(url.password));
  url.password = '';
  return asTyped(url, proxy);
}

/** `url.href` without the `/` URL adds to a bare origin, when `typed` had none: the setting reads as it was typed (`ferry config get proxy`). */
function asTyped(url: URL, typed: string): string {
  return url.pathname === '/' && !url.search && !url.hash && !typed.endsWith('/') ? url.href.replace(/\/$/, '') : url.href;
}

/** The `proxy` setting with its password from the secret store put back: what the client connects with. */
export async function proxyWithCredentials(settings: Pick<AppSettings, 'proxy'>): Promise<string> {
  if (!settings.proxy) return '';
  const url = new URL(settings.proxy);
  const password = url.username ? await appSecrets().get(SECRETS_SCOPE, 'proxyPassword').catch(() => undefined) : undefined;
  if (password) url.password = encodeURIComponent(password);
  return asTyped(url, settings.proxy);
}

/** Each certificate's passphrase, by host pattern, in the secret store (the JSON stored has none). */
async function keepPassphrases(passphrases: ReadonlyMap<string, string>): Promise<void> {
  const secrets = appSecrets();
  for (const name of Object.keys(await secrets.all(SECRETS_SCOPE))) {
    if (name.startsWith('certificatePassphrase:')) await secrets.delete(SECRETS_SCOPE, name);
  }
  await secrets.setMany(SECRETS_SCOPE, new Map([...passphrases].map(([host, passphrase]) => [`certificatePassphrase:${host}`, passphrase])));
}

/** The passphrase kept for the client certificate of `host` (its pattern as written). */
export async function certificatePassphrase(host: string): Promise<string | undefined> {
  return appSecrets().get(SECRETS_SCOPE, `certificatePassphrase:${host}`);
}

const expandHome = (file: string) => path.resolve(file.startsWith('~/') ? path.join(os.homedir(), file.slice(2)) : file);

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PEM_PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/** A file a setting names cannot be used: `setting` names the setting (and entry), `why` says what is wrong. */
export class SettingFileError extends Error {
  override name = 'SettingFileError';
  constructor(readonly setting: string, readonly file: string, readonly why: string) {
    super(`${setting} names ${file}, but ${why}.`);
  }
}

/**
 * A stored setting that cannot be used as it stands: its message is the whole line to show (the
 * setting, settings.json, what to do). The command line ends with exit code 2 for it.
 */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** What is wrong with a stored setting's file, where the setting is kept and what to do. */
export function storedSettingMessage(problem: SettingFileError, fix: string): string {
  return `${problem.setting} in ${settingsFile()} names ${problem.file}, but ${problem.why}. ${fix}`;
}

/** The refusal of `ferry config set` for a file that cannot be used. */
function refusedFileMessage(problem: SettingFileError, takes: string): string {
  return `Setting ${problem.setting} cannot use ${problem.file}: ${problem.why}. It takes ${takes}; nothing was changed.`;
}

async function readSettingFile(file: string, setting: string): Promise<Buffer> {
  try {
    return await fs.readFile(expandHome(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'it cannot be read (permissions)' : code === 'EISDIR' ? 'it is a folder, not a file' : (error as Error).message;
    throw new SettingFileError(setting, file, why);
  }
}

/** The extra authorities of `caFiles`, each holding a PEM certificate; throws SettingFileError. */
async function readCaFiles(files: readonly string[]): Promise<Buffer[]> {
  return Promise.all(files.map(async (file) => {
    const pem = await readSettingFile(file, 'caFiles');
    if (!PEM_CERTIFICATE.test(pem.toString('latin1'))) throw new SettingFileError('caFiles', file, 'it holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    return pem;
  }));
}

/** One client certificate's files: a PEM certificate and a PEM key, or a PKCS#12 file; throws SettingFileError. */
export async function readCertificateFiles(entry: ClientCertificate): Promise<{ cert?: Buffer; key?: Buffer; pfx?: Buffer }> {
  const setting = `clientCertificates (${entry.host})`;
  if (entry.pfxPath) return { pfx: await readSettingFile(entry.pfxPath, setting) };
  const [cert, key] = await Promise.all([readSettingFile(entry.certPath!, setting), readSettingFile(entry.keyPath!, setting)]);
  if (!PEM_CERTIFICATE.test(cert.toString('latin1'))) throw new SettingFileError(setting, entry.certPath!, 'it holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  if (!PEM_PRIVATE_KEY.test(key.toString('latin1'))) throw new SettingFileError(setting, entry.keyPath!, 'it holds no PEM private key (-----BEGIN PRIVATE KEY-----)');
  return { cert, key };
}

/** What to do about a stored `caFiles` that cannot be used. */
const CA_FILES_FIX = 'Change it with ferry config set caFiles FILE[,FILE…], or clear it with ferry config set caFiles none.';
/** What to do about a stored client certificate that cannot be used. */
export const CLIENT_CERTIFICATES_FIX = 'Change it with ferry config set clientCertificates JSON, or clear it with ferry config set clientCertificates none.';

/** The extra authorities of the stored `caFiles`; throws the SettingsError every command says. */
export async function readStoredCaFiles(files: readonly string[]): Promise<Buffer[]> {
  try {
    return await readCaFiles(files);
  } catch (error) {
    if (error instanceof SettingFileError) throw new SettingsError(storedSettingMessage(error, CA_FILES_FIX));
    throw error;
  }
}
