/** Reading an import's input: a file, standard input, or a download over HTTP(S), all within 50 MB. */
import type { Dispatcher } from 'undici';
import { MAX_IMPORT_BYTES, decodeText, readImportFile, readLimited, tooLarge, type InputAction } from './detect.js';
import { ImportError, type ImportSource } from './types.js';

export interface ImportInput {
  text: string;
  source: ImportSource;
}

const MAX_REDIRECTS = 5;

/**
 * How downloads reach the network: this computer's HTTP pools, so the proxy settings (and
 * HTTP_PROXY, NO_PROXY), caFiles and client certificates apply as for sends (issue 20). The
 * runner's `UrlNetwork` is one; without one, undici's global dispatcher goes direct.
 */
export interface DownloadNetwork {
  dispatcher(): Promise<Dispatcher>;
  /** The proxy's own failure (407, unreachable) for a download of `url`, or undefined when it was not the proxy's. */
  proxyFailure(error: unknown, url: URL): Error | undefined;
  /** A failure to reach `url`'s server (refused, unknown host, TLS, reset…) in a send's words, or undefined for another error. */
  reachFailure?(error: unknown, url: URL): Error | undefined;
}

/** `action`: what the input is read for (an import, or an update's new version), which words a refusal. */
export async function readInput(spec: string, network?: DownloadNetwork, action: InputAction = 'import', stdin: AsyncIterable<Uint8Array | string> = process.stdin): Promise<ImportInput> {
  if (spec === '-') return { text: decodeText(await readLimited(stdin, 'Standard input', action)), source: { label: 'standard input' } };
  if (/^https?:\/\//i.test(spec)) return download(spec, network, action);
  const path = (await import('node:path')).resolve(spec);
  return { text: decodeText(await readImportFile(path, action)), source: { label: spec, path } };
}

/** Downloads with undici; the size is checked from Content-Length and again as bytes arrive. */
export async function download(url: string, network?: DownloadNetwork, action: InputAction = 'import', timeoutMs = 60_000): Promise<ImportInput> {
  // undici is loaded here, not with the module: importing a file never needs it (~60 ms of start-up).
  const { request } = await import('undici');
  let current = url;
  const dispatcher = await network?.dispatcher();
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response;
    try {
      response = await request(current, {
        method: 'GET',
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        headers: { accept: 'application/json, application/yaml, text/yaml, text/plain, */*' },
        ...(dispatcher ? { dispatcher } : {}),
      });
    } catch (error) {
      const proxy = network?.proxyFailure(error, new URL(current)) ?? network?.reachFailure?.(error, new URL(current));
      if (proxy) throw new ImportError(`Could not download ${current}: ${proxy.message}`);
      throw new ImportError(`Could not download ${current}: ${(error as Error).message}. Check the address and your connection.`);
    }
    const { statusCode, headers, body } = response;
    if (statusCode >= 300 && statusCode < 400 && headers.location) {
      await body.dump();
      current = new URL(String(headers.location), current).toString();
      continue;
    }
    if (statusCode >= 400) {
      await body.dump();
      throw new ImportError(`Downloading ${current} failed with status ${statusCode}.`);
    }
    const length = Number(headers['content-length']);
    if (Number.isFinite(length) && length > MAX_IMPORT_BYTES) {
      body.destroy();
      throw tooLarge(`The download ${current}`, length, action);
    }
    let bytes: Buffer;
    try {
      bytes = await readLimited(body, `The download ${current}`, action);
    } catch (error) {
      body.destroy();
      throw error;
    }
    return { text: decodeText(bytes), source: { label: url, url: current } };
  }
  throw new ImportError(`Downloading ${url} was redirected more than ${MAX_REDIRECTS} times.`);
}
