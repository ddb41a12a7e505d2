/**
 * Where the application settings are kept: one file for this computer, `settings.json` in the
 * data folder. What the settings are (defaults, ranges, text forms) is declared in
 * model/app-settings.ts.
 */
import path from 'node:path';
import {
  APP_SETTING_KEYS, certificatePassphrases, DEFAULT_SETTINGS, isAppSettingKey, isValidSetting, parseSettingText, unknownSettingMessage, type AppSettings,
} from '../model/index.js';
import { JsonStore } from './json-store.js';
import { dataDir } from './paths.js';
import { SecretStore } from './secrets.js';

// Re-exported: the request and runner layers take the settings from here.
export { DEFAULT_SETTINGS, type AppSettings };

function store(): JsonStore<Partial<AppSettings>> {
  return new JsonStore(path.join(dataDir(), 'settings.json'), () => ({}));
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

/** Parses and stores one setting given as text (`ferry config set KEY VALUE`). */
export async function setSetting(key: string, text: string): Promise<AppSettings> {
  if (!isAppSettingKey(key)) throw new Error(unknownSettingMessage(key));
  const parsed = parseSettingText(key, text);
  if (!parsed.ok) throw new Error(parsed.message);
  let value = parsed.value;
  if (key === 'proxy') value = await keepProxyPassword(value as string);
  if (key === 'clientCertificates') await keepPassphrases(certificatePassphrases(text));
  await store().update((s) => {
    (s as Record<string, unknown>)[key] = value;
  });
  return readSettings();
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
  return url.href;
}

/** The `proxy` setting with its password from the secret store put back: what the client connects with. */
export async function proxyWithCredentials(settings: Pick<AppSettings, 'proxy'>): Promise<string> {
  if (!settings.proxy) return '';
  const url = new URL(settings.proxy);
  const password = url.username ? await appSecrets().get(SECRETS_SCOPE, 'proxyPassword').catch(() => undefined) : undefined;
  if (password) url.password = encodeURIComponent(password);
  return url.href;
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
