/** A request's effective settings: run overrides, then the request's `settings`, then the application settings (spec 2.7). */
import { REQUEST_LEVEL_KEYS, type AppSettings, type RequestSettings } from '../model/index.js';
import type { PreparedSettings } from './prepared.js';

export function effectiveSettings(app: AppSettings, own: RequestSettings | undefined, overrides: Partial<PreparedSettings> = {}): PreparedSettings {
  const settings: Record<string, unknown> = {};
  // The model says which settings a request may override, in their declared order.
  for (const key of REQUEST_LEVEL_KEYS) settings[key] = overrides[key] ?? own?.[key] ?? app[key];
  // Only set when the request goes direct, so settings that use the proxy compare as before.
  if ((overrides.proxy ?? own?.proxy) === false) settings.proxy = false;
  return settings as PreparedSettings;
}
