/**
 * Imports and updates read a URL through this computer's proxy and certificate settings
 * (runner/url-network.ts). A file or standard input needs no network: the runner is loaded only
 * for a URL, so `ferry import FILE` stays as quick to start as before.
 */
import type { DownloadNetwork } from '../importers/index.js';

export async function withNetworkFor<T>(spec: string, use: (network?: DownloadNetwork) => Promise<T>): Promise<T> {
  if (!/^https?:\/\//i.test(spec)) return use(undefined);
  const { withUrlNetwork } = await import('../runner/url-network.js');
  return withUrlNetwork(use);
}
