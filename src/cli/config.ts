/** `ferry config list|get|set|path`: this computer's application settings (the defaults a request's `settings` override). */
import type { Command } from 'commander';
import { dataDir, readSettings, setSetting } from '../appdata/index.js';
import { APP_SETTINGS, DEFAULT_SETTINGS, formatSetting, isAppSettingKey, settableChoices, unknownSettingMessage, type AppSettingKey } from '../model/index.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_CODES_HELP } from './exit-codes.js';
import { paint } from './output.js';
import { examples } from './examples.js';

/** The widest value `config list` aligns the "(default)" marks after. */
const VALUE_COLUMN = 32;

function known(key: string): AppSettingKey {
  if (!isAppSettingKey(key)) throw new CliError(unknownSettingMessage(key));
  return key;
}

export function registerConfig(program: Command, ctx: CliContext): void {
  const config = program.command('config').description("show and change this computer's application settings").addHelpText('after', examples([["ferry config list", "every setting and its value"], ["ferry config set timeoutMs 10000", "change one"], ["ferry config path", "where this computer keeps Ferry's data"]]));
  config
    .command('list')
    // `ls` as every other listing of ferry (env ls, secret ls, cookies ls, programs ls).
    .alias('ls')
    .description('every setting with its value (default ones marked)')
    .addHelpText('after', examples([["ferry config list", "every setting, defaults marked"], ["ferry config list --json", "as JSON"]]))
    .option('--json', 'print the settings as JSON')
    .action(async (options: { json?: boolean }) => {
      const settings = await readSettings();
      if (options.json) {
        ctx.output.out(JSON.stringify(settings, null, 2));
        return;
      }
      const c = paint(ctx.output);
      const width = Math.max(...Object.keys(settings).map((k) => k.length));
      // The "(default)" marks stand in one column after the values up to VALUE_COLUMN wide; a
      // longer value (a noProxy list, a clientCertificates entry) is shown whole on its line
      // rather than pushing every mark to the right of it.
      const valueWidth = Math.max(0, ...Object.values(settings).map((v) => formatSetting(v).length).filter((n) => n <= VALUE_COLUMN));
      for (const [key, value] of Object.entries(settings)) {
        const isDefault = formatSetting(DEFAULT_SETTINGS[key as AppSettingKey]) === formatSetting(value);
        const text = isDefault ? `${formatSetting(value).padEnd(valueWidth)}  ${c.dim('(default)')}` : formatSetting(value);
        ctx.output.out(`${key.padEnd(width)}  ${text}`);
      }
    });
  config
    .command('get')
    .description('print one setting')
    .addHelpText('after', examples([["ferry config get timeoutMs", "print one setting"]]))
    .argument('<key>', 'setting name, e.g. timeoutMs')
    .action(async (key: string) => {
      const settings = await readSettings();
      ctx.output.out(formatSetting(settings[known(key)]));
    });
  config
    .command('set')
    .description('change one setting, e.g. ferry config set timeoutMs 10000')
    .addHelpText('after', examples([["ferry config set timeoutMs 10000", "time requests out after 10 s"], ["ferry config set proxy none", "clear the proxy"]]))
    .argument('<key>', 'setting name')
    .argument('<value>', `new value (true/false, a whole number, ${settableChoices(APP_SETTINGS.httpVersion).join('/')} for httpVersion, a URL for proxy, a comma-separated list for noProxy and caFiles; none clears)`)
    .action(async (key: string, value: string) => {
      const name = known(key);
      try {
        const settings = await setSetting(name, value);
        ctx.output.out(`${name} = ${formatSetting(settings[name])}`);
      } catch (error) {
        // A data folder that cannot be written: main says it as other file-system problems.
        if (typeof (error as NodeJS.ErrnoException).syscall === 'string' || (error as Error).name === 'DataFolderError') throw error;
        throw new CliError((error as Error).message);
      }
    });
  config
    .command('path')
    .description("print this computer's Ferry data folder (settings, secrets, tokens, cookies, history; FERRY_DATA_DIR overrides it)")
    .addHelpText('after', examples([["ferry config path", "print the data folder"], ["FERRY_DATA_DIR=/tmp/ferry ferry config path", "a data folder of its own"]]))
    .action(() => {
      ctx.output.out(dataDir());
    });
  // Subcommands end with an exit code like every command, never with process.exit.
  for (const sub of config.commands) sub.exitOverride().configureOutput(program.configureOutput()).addHelpText('after', `\n${EXIT_CODES_HELP}`);
}
