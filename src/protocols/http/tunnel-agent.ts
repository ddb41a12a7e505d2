/**
 * Proxies for the clients that take a Node `http.Agent` instead of an undici dispatcher: `ws`
 * (WebSocket requests, GraphQL subscriptions) and socket.io-client (its WebSocket and
 * long-polling transports). The proxy is chosen by the run's one set of rules (proxy-rules.ts,
 * through `HttpAgents.proxyFor`), as for HTTP; the agent opens a CONNECT tunnel through an HTTP
 * proxy for ws:// and wss:// alike (`https-proxy-agent`, the proxy's credentials as Basic), or a
 * SOCKS5 connection (`socks-proxy-agent`, user and password per RFC 1929).
 * Kept apart from http-agents.ts so that HTTP runs do not load it.
 */
import type http from 'node:http';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';
import type { HttpAgents } from './http-agents.js';
import { ProxyTunnelRefused, unusableProxy } from './proxy-errors.js';

type ConnectArgs = Parameters<HttpsProxyAgent<string>['connect']>;

/**
 * `https-proxy-agent` answers a refused CONNECT (407, 403, 502…) by replaying the proxy's answer
 * as if the target had sent it; this agent fails the connection instead, so the message names the
 * proxy (proxy-errors.ts) rather than blaming the server.
 */
class TunnelAgent extends HttpsProxyAgent<string> {
  override async connect(req: ConnectArgs[0], opts: ConnectArgs[1]) {
    let status = 0;
    req.once('proxyConnect', (answer: { statusCode: number }) => (status = answer.statusCode));
    const socket = await super.connect(req, opts);
    if (status !== 200) {
      socket.destroy();
      throw new ProxyTunnelRefused(status);
    }
    return socket;
  }
}

export interface Tunnel {
  /** The proxy the connection goes through (for messages), or undefined when it goes direct. */
  proxy?: string;
  /** The agent to give the client; undefined: the client's own direct connection. */
  agent?: http.Agent;
}

/**
 * How a WebSocket or Socket.IO connection to `url` reaches its server: through the proxy the
 * rules choose, or direct (`settings.proxy: false`, noProxy, loopback, no proxy set).
 */
export function tunnelFor(agents: HttpAgents, url: URL, settings: { proxy?: boolean; verifyTls?: boolean } | undefined): Tunnel {
  const proxy = agents.proxyFor(url, settings?.proxy === false);
  if (!proxy) return {};
  const unusable = unusableProxy(proxy);
  if (unusable) throw unusable;
  const scheme = new URL(proxy).protocol;
  if (scheme === 'socks5:' || scheme === 'socks:') {
    // socks5h: the proxy resolves the target's name, as it does for HTTP requests through it.
    return { proxy, agent: new SocksProxyAgent(proxy.replace(/^socks5?:/, 'socks5h:')) };
  }
  const verifyTls = settings?.verifyTls ?? true;
  return {
    proxy,
    // One connection per send (WebSocket) or per poll (Socket.IO): nothing to keep alive.
    agent: new TunnelAgent(proxy, scheme === 'https:' ? agents.proxyTls(verifyTls) : {}),
  };
}
