/**
 * Failures of the proxy itself, worded apart from the target's (issue 20): credentials refused
 * (407), a proxy that cannot be reached, a tunnel the proxy would not open. Each names the proxy
 * (never its password) and the setting to change.
 */
import { checkProxyUrl } from '../../model/index.js';
import { errorChain, errorCode, systemCode } from '../connection-errors.js';
import { SendError } from '../send-error.js';
import { describeProxy } from './proxy-rules.js';

export const SETTING_HINT = 'The proxy comes from the proxy setting (ferry config set proxy URL) or, with useSystemProxy on, from HTTP_PROXY / HTTPS_PROXY; settings.proxy: false sends one request direct.';

/**
 * The proxy answered CONNECT with a status other than 200: thrown by the tunnel agent of the
 * clients that take a Node http.Agent (tunnel-agent.ts); undici says the same in its own words.
 */
export class ProxyTunnelRefused extends Error {
  constructor(readonly proxyStatus: number) {
    super(`Proxy response (${proxyStatus}) !== 200 when tunneling`);
  }
}

/**
 * A proxy that cannot be used at all, or undefined: only HTTP_PROXY and the like can hold one
 * (the proxy setting is checked when it is set).
 */
export function unusableProxy(proxy: string): SendError | undefined {
  const problem = checkProxyUrl(proxy);
  if (!problem) return undefined;
  return new SendError(`the proxy in HTTP_PROXY / HTTPS_PROXY / ALL_PROXY cannot be used: ${problem} Fix the variable, set the proxy setting (ferry config set proxy URL), or turn useSystemProxy off (ferry config set useSystemProxy false).`, 'proxy');
}

/** A SendError for a failure that came from the proxy, or undefined when it came from the target. */
export function proxyError(error: unknown, proxy: string, url: URL): SendError | undefined {
  const unusable = unusableProxy(proxy);
  if (unusable) return unusable;
  const shown = describeProxy(proxy);
  const message = (error as Error)?.message ?? String(error);
  const code = errorCode(error);
  const status = error instanceof ProxyTunnelRefused ? error.proxyStatus : Number(/Proxy response \((\d+)\) !== 200/.exec(message)?.[1] ?? 0);
  if (status === 407 || /\(407\)/.test(message) || /authentication failed|auth.*(rejected|failed)/i.test(message)) {
    const hasUser = (() => {
      try {
        return new URL(proxy).username !== '';
      } catch {
        return false;
      }
    })();
    const what = hasUser ? 'refused the user name and password Ferry sent' : 'asks for a user name and password';
    return new SendError(
      `the proxy ${shown} ${what} (407 Proxy Authentication Required). Set them with ferry config set proxy ${new URL(proxy).protocol}//USER:PASSWORD@${new URL(proxy).host} (the password is kept in the secret store). ${SETTING_HINT}`,
      'proxy',
    );
  }
  if (status) {
    return new SendError(`the proxy ${shown} would not open a tunnel to ${url.host} (it answered ${status} to CONNECT). ${SETTING_HINT}`, 'proxy');
  }
  if (/Proxy connection ended before receiving CONNECT response/.test(message)) {
    return new SendError(`the proxy ${shown} closed the connection without answering CONNECT for ${url.host}. ${SETTING_HINT}`, 'proxy');
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    const why = code === 'ECONNREFUSED' ? 'nothing is listening there' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'its host name could not be resolved' : `(${code})`;
    return new SendError(`could not reach the proxy ${shown} to send to ${url.host}: ${why}. ${SETTING_HINT}`, 'proxy');
  }
  if (/SOCKS5/i.test(message)) {
    return new SendError(`the SOCKS5 proxy ${shown} failed to connect to ${url.host}: ${message}. ${SETTING_HINT}`, 'proxy');
  }
  return undefined;
}

/**
 * `proxyError` for the error or any error it wraps (`cause`, a few levels deep): fetch and the MCP
 * SDK wrap undici's error in their own.
 */
export function proxyErrorInChain(error: unknown, proxy: string, url: URL): SendError | undefined {
  for (const e of errorChain(error)) {
    const found = proxyError(e, proxy, url);
    if (found) return found;
  }
  // The MCP SDK keeps only the text of some failures ("SSE error: TypeError: fetch failed: connect
  // ECONNREFUSED …"). Through a proxy a refusal is the proxy's: the proxy reports the target's as 502.
  const code = systemCode(error);
  return code ? proxyError({ code, message: '' }, proxy, url) : undefined;
}
