/**
 * This computer's application settings in the app (docs/app.md, "Application settings"): the same
 * declarations, text forms and setter as `ferry config list|set` (model/app-settings.ts,
 * appdata/settings.ts), so a value the command line refuses is refused here with the same words.
 */
import { readSettings, settingsFile, setSetting } from '../../appdata/index.js';
import { APP_SETTING_KEYS, APP_SETTINGS, describeRange, formatSetting, settableChoices, type AppSettings, type SettingDeclaration } from '../../model/index.js';
import type { AppSettingView, AppSettingsView } from '../shared/api.js';
import { ApiError, field, type Routes } from './router.js';

/** What a setting takes, in words, as `ferry config set` says it. */
function takes(declared: SettingDeclaration): string {
  switch (declared.type) {
    case 'flag':
      return 'on or off';
    case 'wholeNumber':
      return `a whole number ${describeRange(declared)}`;
    case 'choice':
      return settableChoices(declared).join(', ');
    case 'text':
      return `${declared.describe}, or none`;
    case 'list':
      return `${declared.describe}, comma-separated, or none`;
    case 'certificates':
      return 'JSON: [{"host":"api.example.com","certPath":"client.pem","keyPath":"client-key.pem"}] or [{"host":…,"pfxPath":…}], an optional "passphrase" each (kept in the secret store), or none';
  }
}

function view(settings: AppSettings): AppSettingsView {
  return {
    file: settingsFile(),
    settings: APP_SETTING_KEYS.map((key): AppSettingView => {
      const declared: SettingDeclaration = APP_SETTINGS[key];
      return {
        key,
        type: declared.type,
        text: formatSetting(settings[key]),
        defaultText: formatSetting(declared.default),
        takes: takes(declared),
        ...(declared.type === 'choice' ? { choices: settableChoices(declared) } : {}),
        perRequest: declared.perRequest,
      };
    }),
  };
}

export function appSettingsRoutes(): Routes {
  return {
    'GET /api/app-settings': async () => view(await readSettings()),
    /** One setting as text, as `ferry config set KEY VALUE` takes it. */
    'PUT /api/app-settings': async ({ body }) => {
      const key = field(body, 'key');
      const text = field(body, 'text');
      let settings: AppSettings;
      try {
        settings = await setSetting(key, text);
      } catch (error) {
        throw new ApiError(400, (error as Error).message);
      }
      return view(settings);
    },
  };
}
