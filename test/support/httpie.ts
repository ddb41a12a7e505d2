/**
 * HTTPie 3 looks for new versions at packages.httpie.io on its own. Tests run it with a config
 * folder of their own that turns that off, so nothing leaves this machine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function httpieEnv(dir: string): Record<string, string> {
  const config = path.join(dir, '.httpie');
  mkdirSync(config, { recursive: true });
  writeFileSync(path.join(config, 'config.json'), JSON.stringify({ disable_update_warnings: true }));
  return { HTTPIE_CONFIG_DIR: config };
}
