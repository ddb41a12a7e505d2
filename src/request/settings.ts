/** A request's effective settings: run overrides, then the request's `settings`, then the application settings (spec 2.7). */
import type { AppSettings } from '../appdata/index.js';
import type { RequestSettings } from '../model/index.js';
import type { PreparedSettings } from './prepared.js';

export function effectiveSettings(app: AppSettings, own: RequestSettings | undefined, overrides: Partial<PreparedSettings> = {}): PreparedSettings {
  const pick = <K extends keyof PreparedSettings>(key: K): PreparedSettings[K] =>
    (overrides[key] ?? (own?.[key] as PreparedSettings[K] | undefined) ?? app[key]) as PreparedSettings[K];
  return {
    timeoutMs: pick('timeoutMs'),
    followRedirects: pick('followRedirects'),
    maxRedirects: pick('maxRedirects'),
    verifyTls: pick('verifyTls'),
    httpVersion: pick('httpVersion'),
    decompress: pick('decompress'),
  };
}
