/**
 * A server on host 0.0.0.0 answers other devices on the network (spec 2.11). The field lives in
 * the server file, which in a cloned repository is someone else's choice, so every start says so;
 * a proxy fallback then relays the network's requests to its backend (a service on this computer,
 * say), which is worth naming too.
 */
import type { ServerFile } from '../model/index.js';

/** The warning for a server other devices can reach, or undefined for one on 127.0.0.1. */
export function exposureWarning(file: string, config: ServerFile): string | undefined {
  if (config.host !== '0.0.0.0') return undefined;
  const relay = config.http?.fallback === 'proxy' ? ', and it forwards every request no route matches to its proxyUrl' : '';
  return `${file} listens on 0.0.0.0 (host), so other devices on the network can reach it${relay}. Set host: 127.0.0.1 to keep it on this computer.`;
}
