/**
 * gRPC through Ferry's proxy rules (issue 20, as HTTP and WebSocket requests): grpc-js opens a
 * CONNECT tunnel to an http:// proxy when its channel options name one. Its own reading of
 * grpc_proxy / https_proxy / http_proxy is turned off, so only Ferry's rules choose (noProxy,
 * loopback direct, `settings.proxy: false`, `useSystemProxy`). grpc-js says why a tunnel failed
 * only in its log; log.ts keeps the line (not printed) for the call's message.
 */
import * as grpc from '@grpc/grpc-js';
import { systemCode } from '../connection-errors.js';
import { proxyError, ProxyTunnelRefused, SETTING_HINT, unusableProxy } from '../http/proxy-errors.js';
import { describeProxy } from '../http/proxy-rules.js';
import { SendError } from '../send-error.js';
import { takeProxyLine } from './log.js';

/** The channel's target and options for a call to `host` through `proxy` (an http:// URL, else refused). */
export function proxiedChannel(host: string, hostname: string, proxy: string, options: grpc.ChannelOptions): { target: string; options: grpc.ChannelOptions } {
  const unusable = unusableProxy(proxy);
  if (unusable) throw unusable;
  const via = new URL(proxy);
  if (via.protocol !== 'http:') {
    throw new SendError(`gRPC requests go through an http:// proxy only, and the proxy for ${host} is ${describeProxy(proxy)} (grpc-js opens its CONNECT tunnel in plain HTTP, and speaks no SOCKS); send this request direct with settings.proxy: false, add ${hostname} to noProxy (ferry config set noProxy …), or use an http:// proxy. ${SETTING_HINT}`, 'proxy');
  }
  const tunnel: grpc.ChannelOptions = {
    ...options,
    // The channel connects to the proxy and asks it for `host`; TLS, the server name and :authority stay the target's.
    'grpc.http_connect_target': `dns:///${host}`,
    'grpc.default_authority': host,
  };
  if (via.username || via.password) tunnel['grpc.http_connect_creds'] = `${decodeURIComponent(via.username)}:${decodeURIComponent(via.password)}`;
  return { target: via.port ? via.host : `${via.host}:80`, options: tunnel };
}

/** Why the last tunnel failed, worded as for other kinds (407, refused tunnel, unreachable proxy), or undefined when grpc-js said nothing of it. */
export function proxyFailure(proxy: string, host: string): SendError | undefined {
  const line = takeProxyLine();
  if (!line) return undefined;
  const target = new URL(`http://${host}`);
  const status = /through proxy \S+ with status (\d+)/.exec(line)?.[1];
  if (status) return proxyError(new ProxyTunnelRefused(Number(status)), proxy, target);
  const code = /^Failed to connect to proxy \S+ with error (.*)$/.exec(line)?.[1];
  // Node's "socket hang up": the proxy closed the connection before answering CONNECT (undici's words for it, which proxyError knows).
  if (code !== undefined) return proxyError({ code: systemCode(code), message: /socket hang up/i.test(code) ? 'Proxy connection ended before receiving CONNECT response' : code }, proxy, target);
  return undefined;
}
