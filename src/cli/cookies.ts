/**
 * `ferry cookies ls [DOMAIN] | clear [DOMAIN]`: the workspace's cookie jar on this computer
 * (spec 1, item 10: cookies stay in the data folder). Parsing and printing only: the jar is the
 * session's (`Session.cookieJar()`), listed and edited as the app's cookies tab does, and saved
 * by the session.
 */
import type { Command } from 'commander';
import { cookieOfDomain, type CookieInfo, type CookieStore } from '../protocols/index.js';
import { Session } from '../session/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { examples } from './examples.js';
import { paint } from './output.js';

/** A value longer than this is cut in the text listing (`--json` has it whole). */
const VALUE_CHARS = 60;

export function registerCookies(program: Command, ctx: CliContext): void {
  const cookies = program
    .command('cookies')
    .description("list or clear the workspace's cookie jar on this computer (filled by ferry run, the app and ferry mcp)")
    .addHelpText('after', examples([["ferry cookies ls", "every cookie in the jar"], ["ferry cookies clear example.com", "forget example.com's cookies"]]));

  cookies
    .command('ls')
    .description('list the cookies, of one domain and its subdomains when DOMAIN is given')
    .addHelpText('after', examples([["ferry cookies ls", "every cookie"], ["ferry cookies ls example.com --json", "example.com's and its subdomains', as JSON"]]))
    .argument('[domain]', 'only cookies of this domain or under it')
    .option('--json', 'print the cookies as JSON (values whole)')
    .action(async (domain: string | undefined, options: { json?: boolean }, command: Command) => {
      const listed = await withJar(command, ctx, false, async (jar) => jar.list().filter((c) => domain === undefined || cookieOfDomain(c, domain)));
      if (options.json) {
        ctx.output.out(JSON.stringify(listed, null, 2));
        return;
      }
      if (listed.length === 0) {
        ctx.output.out(domain === undefined ? 'No cookies. Requests that get Set-Cookie answers fill the jar.' : `No cookies for ${domain}.`);
        return;
      }
      await printCookies(listed, ctx);
    });

  cookies
    .command('clear')
    .description('remove every cookie, or those of one domain and its subdomains')
    .addHelpText('after', examples([["ferry cookies clear", "empty the jar"], ["ferry cookies clear example.com", "only example.com's and its subdomains'"]]))
    .argument('[domain]', 'only cookies of this domain or under it')
    .action(async (domain: string | undefined, _options: unknown, command: Command) => {
      const removed = await withJar(command, ctx, true, async (jar) => {
        const gone = jar.list().filter((c) => domain === undefined || cookieOfDomain(c, domain));
        if (domain === undefined) jar.remove();
        else for (const c of gone) jar.remove(c);
        return gone.length;
      });
      const where = domain === undefined ? '' : ` for ${domain}`;
      ctx.output.err(removed === 0 ? `ferry: no cookies${where}; nothing removed.` : `ferry: removed ${removed} cookie${removed === 1 ? '' : 's'}${where}.`);
    });

  for (const sub of cookies.commands) sub.exitOverride().configureOutput(program.configureOutput()).addHelpText('after', `\n${EXIT_CODES_HELP}`);
}

/** Opens the workspace's session, hands its jar to `use`, and (when `save`) writes it back; a jar that cannot be saved fails the command. */
async function withJar<T>(command: Command, ctx: CliContext, save: boolean, use: (jar: CookieStore) => Promise<T>): Promise<T> {
  const workspace = await openWorkspaceFor(command, ctx);
  const session = new Session({ workspace });
  let result: T;
  try {
    result = await use(await session.cookieJar());
  } catch (error) {
    await session.close().catch(() => []);
    throw error;
  }
  const problems = await session.close();
  if (save && problems.length) throw new CliError(`The cookie jar could not be saved: ${problems.join('; ')}`, EXIT.failed);
  return result;
}

async function printCookies(listed: readonly CookieInfo[], ctx: CliContext): Promise<void> {
  const c = paint(ctx.output);
  const rows = listed.map((k) => {
    const value = k.value.length > VALUE_CHARS ? `${k.value.slice(0, VALUE_CHARS)}…` : k.value;
    const flags = [k.expires ? `expires ${k.expires}` : 'session', k.secure ? 'secure' : '', k.httpOnly ? 'httpOnly' : '', k.sameSite ? `sameSite=${k.sameSite}` : ''].filter(Boolean).join(', ');
    return { where: `${k.domain}${k.path}`, name: k.name, pair: `${k.name}=${value}`, flags };
  });
  // Columns by display width, as `ferry ls` lines them up; string-width only when some text needs it.
  const texts = rows.flatMap((r) => [r.where, r.pair]);
  const width: (text: string) => number = texts.every((t) => /^[\x20-\x7e]*$/.test(t)) ? (t) => t.length : (await import('string-width')).default;
  const whereWidth = Math.max(...rows.map((r) => width(r.where)));
  const pairWidth = Math.max(...rows.map((r) => width(r.pair)));
  for (const r of rows) {
    const pair = `${c.bold(r.name)}${r.pair.slice(r.name.length)}`;
    ctx.output.out(`${r.where}${' '.repeat(whereWidth - width(r.where))}  ${pair}${' '.repeat(pairWidth - width(r.pair))}  ${c.dim(r.flags)}`);
  }
}
