/**
 * This computer's application settings in the app (docs/app.md, "Application settings"): the same
 * declarations, text forms and setter as `ferry config list|set` (model/app-settings.ts,
 * appdata/settings.ts), so a value the command line refuses is refused here with the same words.
 * A save carries the setting's text as the page read it (`base`): when `ferry config set` or
 * another window changed that setting since, nothing is written (409 with the settings as the file
 * holds them), as the other editors' saves are refused; a change of another setting is no conflict.
 */
import { readSettings, SettingChangedError, settingsFile, setSetting } from '../../appdata/index.js';
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
    /**
     * One setting as text, as `ferry config set KEY VALUE` takes it. `base` (optional): the
     * setting's text as the page last read it, checked against the file under its lock.
     */
    'PUT /api/app-settings': async ({ body }) => {
      const key = field(body, 'key');
      const text = field(body, 'text');
      const base = (body as { base?: unknown }).base;
      if (base !== undefined && typeof base !== 'string') throw new ApiError(400, '"base" must be the setting\'s text as the page read it (a string), or left out; nothing was saved.');
      let settings: AppSettings;
      try {
        settings = await setSetting(key, text, base);
      } catch (error) {
        if (error instanceof SettingChangedError) {
          throw new ApiError(409, `${key} changed in ${settingsFile()} since the app read it (it is now ${error.current}); nothing was saved.`, { ...view(await readSettings()) });
        }
        throw new ApiError(400, (error as Error).message);
      }
      return view(settings);
    },
  };
}
