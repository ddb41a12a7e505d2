/**
 * Where the application settings are kept: one file for this computer, `settings.json` in the
 * data folder. What the settings are (defaults, ranges, text forms) is declared in
 * model/app-settings.ts.
 */
import path from 'node:path';
import {
  APP_SETTING_KEYS, DEFAULT_SETTINGS, isAppSettingKey, isValidSetting, parseSettingText, unknownSettingMessage, type AppSettings,
} from '../model/index.js';
import { JsonStore } from './json-store.js';
import { dataDir } from './paths.js';

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
    if (isValidSetting(key, stored[key])) settings[key] = stored[key];
  }
  return settings as unknown as AppSettings;
}

/** Parses and stores one setting given as text (`ferry config set KEY VALUE`). */
export async function setSetting(key: string, text: string): Promise<AppSettings> {
  if (!isAppSettingKey(key)) throw new Error(unknownSettingMessage(key));
  const parsed = parseSettingText(key, text);
  if (!parsed.ok) throw new Error(parsed.message);
  await store().update((s) => {
    (s as Record<string, unknown>)[key] = parsed.value;
  });
  return readSettings();
}
