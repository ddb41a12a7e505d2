/**
 * The loopback redirect of the authorization code grant: listens on the redirect URI's host and
 * port (by default `http://127.0.0.1:53682/callback`) for the one request the browser makes when
 * the provider sends it back, and answers with a page saying the window may be closed.
 */
import http from 'node:http';
import { PrepareError } from './errors.js';

const page = (text: string) => `<!doctype html><meta charset="utf-8"><title>Ferry</title><p>${text}</p>`;
const DONE_PAGE = page('Ferry got the authorization. You can close this window.');
/** The provider sent an error back (e.g. the user refused): the page must not claim success. */
const REFUSED_PAGE = page('The authorization was not given; Ferry shows the reason. You can close this window.');
/** A request without the state Ferry sent: another page or program, not the provider's redirect. */
const FOREIGN_PAGE = page('This is not the authorization Ferry is waiting for (its state does not match), so it was ignored. Finish the sign-in in the window Ferry opened.');

/**
 * Starts listening, calls `ready` (which shows the URL to open), resolves with the callback URL.
 * Only a request carrying `state` (the one sent to the provider) ends the wait: any web page open
 * in the browser (an `<img>` needs no permission) or any program of this computer can reach the
 * loopback address, and must not end the authorization with an error (or a message) of its own.
 */
export async function waitForLoopbackCallback(redirectUri: string, state: string, timeoutMs: number, signal: AbortSignal | undefined, ready: () => void): Promise<URL> {
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    throw new PrepareError(`OAuth 2.0: redirectUri "${redirectUri}" is not a valid URL.`);
  }
  if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new PrepareError(
      `OAuth 2.0: redirectUri must be a loopback address such as http://127.0.0.1:53682/callback for Ferry to receive the code; got ${redirectUri}.`,
    );
  }
  const host = target.hostname === '[::1]' ? '::1' : target.hostname;
  const port = Number(target.port || 80);

  return new Promise<URL>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', target);
      if (url.pathname !== target.pathname) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not the OAuth callback.');
        return;
      }
      if (url.searchParams.get('state') !== state) {
        res.writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' }).end(FOREIGN_PAGE);
        return;
      }
      const refused = url.searchParams.has('error') || !url.searchParams.has('code');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(refused ? REFUSED_PAGE : DONE_PAGE);
      finish(() => resolve(url));
    });
    const onAbort = () => finish(() => reject(new PrepareError('OAuth 2.0: stopped waiting for the authorization (the run was cancelled).')));
    const finish = (then: () => void) => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      server.close();
      server.closeAllConnections?.();
      then();
    };
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new PrepareError(
          error.code === 'EADDRINUSE'
            ? `OAuth 2.0: cannot listen for the redirect on ${host}:${port}: the port is in use. Close what uses it or change redirectUri.`
            : `OAuth 2.0: cannot listen for the redirect on ${host}:${port}: ${error.message}`,
        ),
      );
    });
    server.listen(port, host, () => {
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(
        () => finish(() => reject(new PrepareError(`OAuth 2.0: no authorization came back to ${redirectUri} within ${Math.round(timeoutMs / 1000)} s.`))),
        timeoutMs,
      );
      try {
        ready();
      } catch (error) {
        finish(() => reject(error));
      }
    });
  });
}
