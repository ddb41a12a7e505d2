/**
 * What reads an import or an API spec from a URL goes through (issue 20): this computer's HTTP
 * pools, made by the same rules as a run's (`openHttpAgents`: the proxy settings with the
 * password from the secret store, HTTP_PROXY / NO_PROXY, caFiles, client certificates). Opened at
 * the first download only, so a file import reads no settings or secrets.
 */
import { readSettings, type AppSettings } from '../appdata/index.js';
import type { HttpAgents } from '../protocols/index.js';
import { describeConnectionError } from '../protocols/connection-errors.js';
import { openHttpAgents } from './open-context.js';

export class UrlNetwork {
  private opened: Promise<HttpAgents> | undefined;
  private agents: HttpAgents | undefined;

  constructor(private readonly options: { settings?: AppSettings; env?: NodeJS.ProcessEnv } = {}) {}

  async dispatcher() {
    this.opened ??= (async () => openHttpAgents(this.options.settings ?? (await readSettings()), { env: this.options.env }))();
    this.agents = await this.opened;
    // Downloads always verify the server's certificate.
    return this.agents.get(true, 'auto');
  }

  proxyFailure(error: unknown, url: URL) {
    return this.agents?.proxyFailure(error, url);
  }

  /** Worded as a send's (`connection refused by 127.0.0.1:1: nothing is listening there…`), not Node's `connect ECONNREFUSED`. */
  reachFailure(error: unknown, url: URL): Error | undefined {
    const failure = describeConnectionError(error, url);
    // A send's unknown host points at the environment's variables; a download's URL was typed as it is.
    return failure?.kind === 'unknownHost' ? new Error(`unknown host ${url.hostname}: the name could not be resolved. Check the URL and this computer's network.`) : failure;
  }

  async close(): Promise<void> {
    if (this.opened) await (await this.opened).close();
  }
}

/** Runs `use` with a `UrlNetwork`, closed after. */
export async function withUrlNetwork<T>(use: (network: UrlNetwork) => Promise<T>, options: { settings?: AppSettings; env?: NodeJS.ProcessEnv } = {}): Promise<T> {
  const network = new UrlNetwork(options);
  try {
    return await use(network);
  } finally {
    await network.close().catch(() => {});
  }
}
