/**
 * `ferry app [--port N] [--no-open]`: serves the app for the workspace on 127.0.0.1, prints its
 * URL (with the session token) and opens it, until Ctrl-C stops the server and what it started.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { startAppServer } from '../app/server/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { stopSignal } from './stop-signal.js';
import { examples } from './examples.js';
import { armScriptWatchdog } from '../scripts/host/watchdog-setting.js';
import { servingAs } from '../servers/serving-processes.js';

interface AppOptions {
  port?: string;
  open: boolean;
}

export function registerApp(program: Command, ctx: CliContext, until: () => Promise<void> = stopSignal): void {
  program
    .command('app')
    .description('open the app: a local web UI for the workspace, served on 127.0.0.1 until Ctrl-C')
    .addHelpText('after', examples([["ferry app", "open the app in a browser"], ["ferry app --port 4321 --no-open", "serve it on a fixed port and print the URL"]]))
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .option('--no-open', 'print the URL only; do not open a browser')
    .action(async (options: AppOptions, command: Command) => {
      // Digits only: Number() would take '' (0, a free port), '0x1F90' or '1e3' as ports.
      const port = options.port === undefined ? 0 : /^\d{1,5}$/.test(options.port) ? Number(options.port) : Number.NaN;
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a port number (0–65535), not "${options.port}".`);
      const ws = await openWorkspaceFor(command, ctx);
      armScriptWatchdog(); // a stuck script would hold every later send of the app
      // The servers it starts are recorded in the data folder as the app's (a later refusal names it).
      servingAs('ferry app');
      let app;
      try {
        app = await startAppServer({ workspace: ws, port });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new CliError(`Port ${port} on 127.0.0.1 is taken. Give another with --port, or leave it out for a free one.`);
        throw error;
      }
      // Listening before the URL is out: Node has no SIGTERM handler until one is added, so a
      // supervisor that stops the app as soon as it reads the URL would kill it, not stop it.
      const stopped = until();
      ctx.output.out(`Ferry app for ${ws.file.name || ws.root}: ${app.url}`);
      ctx.output.out('Only this computer can open it; the link holds this session\'s key. Ctrl-C stops it.');
      const opened = options.open ? await openBrowser(app.url) : undefined;
      await stopped;
      await app.close();
      await opened?.();
      ctx.exitCode = EXIT.ok;
    });
}

/** How the browser is started for `url`: the program, its arguments, and what to remove when the app stops. */
export interface BrowserLaunch {
  command: string;
  args: string[];
  done(): Promise<void>;
}

/**
 * Chromium or Chrome as an app window when installed, else the default browser, opened on a file
 * that goes on to `url`. Not on `url` itself: a command line can be read by every user of the
 * computer (ps, /proc), and the token would let any of them into the app on 127.0.0.1, which
 * they reach too. The file is this user's only (a 0700 folder, a 0600 file), as Jupyter does.
 */
export async function browserLaunch(url: string): Promise<BrowserLaunch> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-app-'));
  const file = path.join(dir, 'open.html');
  const attribute = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  await fs.writeFile(file, `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${attribute}"><title>Ferry</title><a href="${attribute}">Open the app</a>\n`, { mode: 0o600, flag: 'wx' });
  const target = pathToFileURL(file).href;
  const chrome = ['/usr/bin/chromium', '/usr/bin/google-chrome', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const [command, args] = chrome
    ? [chrome, [`--app=${target}`]]
    : process.platform === 'darwin' ? ['open', [target]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', target]] : ['xdg-open', [target]];
  // Also when the process ends without closing the app (a second Ctrl-C exits at once).
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  return {
    command,
    args,
    done: async () => {
      process.off('exit', remove);
      remove();
    },
  };
}

/** Opens the app in a browser; returns what to remove when the app stops. Failing to open is not an error: the URL is printed. */
async function openBrowser(url: string): Promise<() => Promise<void>> {
  try {
    const launch = await browserLaunch(url);
    const child = spawn(launch.command, launch.args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    return launch.done;
  } catch {
    // The URL is printed; the user opens it.
    return async () => undefined;
  }
}
