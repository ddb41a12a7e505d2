/**
 * `ferry app [--port N] [--no-open]`: serves the app for the workspace on 127.0.0.1, prints its
 * URL (with the session token) and opens it, until Ctrl-C stops the server and what it started.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { startAppServer } from '../app/server/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { stopSignal } from './stop-signal.js';
import { examples } from './examples.js';

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
      const port = options.port === undefined ? 0 : Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a port number (0–65535), not "${options.port}".`);
      const ws = await openWorkspaceFor(command, ctx);
      let app;
      try {
        app = await startAppServer({ workspace: ws, port });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new CliError(`Port ${port} on 127.0.0.1 is taken. Give another with --port, or leave it out for a free one.`);
        throw error;
      }
      ctx.output.out(`Ferry app for ${ws.file.name || ws.root}: ${app.url}`);
      ctx.output.out('Only this computer can open it; the link holds this session\'s key. Ctrl-C stops it.');
      if (options.open) openBrowser(app.url);
      await until();
      await app.close();
      ctx.exitCode = EXIT.ok;
    });
}

/** Chromium or Chrome as an app window when installed, else the default browser. Failing to open is not an error: the URL is printed. */
function openBrowser(url: string): void {
  const chrome = ['/usr/bin/chromium', '/usr/bin/google-chrome', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const [command, args] = chrome
    ? [chrome, [`--app=${url}`]]
    : process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The URL is printed; the user opens it.
  }
}
