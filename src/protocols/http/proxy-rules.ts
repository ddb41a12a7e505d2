/**
 * Which proxy a URL goes through (issue 20): the application's `proxy` setting, else (with
 * `useSystemProxy`) the HTTP_PROXY / HTTPS_PROXY / ALL_PROXY variables in either case; hosts in
 * `noProxy` and NO_PROXY go direct. Matching follows curl's NO_PROXY rules plus CIDR ranges:
 * `example.com` and `.example.com` cover the domain and its subdomains, `*` covers everything, an
 * entry may name a port. Loopback addresses always go direct (a proxy elsewhere cannot reach this
 * computer's 127.0.0.1) unless noProxy holds `<-loopback>`, as in Chrome's bypass list.
 */
import net from 'node:net';

export interface ProxyConfig {
  /** Proxy URL for http:// (and ws://) targets, credentials included; '' = direct. */
  http: string;
  /** Proxy URL for https:// (and wss://) targets. */
  https: string;
  noProxy: readonly string[];
}

/** Where the configuration came from, for messages. */
export type ProxySource = 'setting' | 'environment';

/**
 * Reads the system's proxy variables: lower case wins over upper case (curl's order). A value
 * without a scheme (`proxy.corp:3128`, common in these variables) is an HTTP proxy, as curl reads it.
 */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv): ProxyConfig {
  const pick = (name: string) => {
    const value = (env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '').trim();
    return value && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !name.endsWith('no_proxy') ? `http://${value}` : value;
  };
  const all = pick('all_proxy');
  return {
    http: pick('http_proxy') || all,
    https: pick('https_proxy') || all,
    noProxy: splitList(pick('no_proxy')),
  };
}

/**
 * The proxy configuration of one run: the `proxy` setting (with its password) for every scheme,
 * else the environment's when `useSystemProxy` is on; `noProxy` adds to NO_PROXY.
 */
export function resolveProxyConfig(
  settings: { proxy: string; noProxy: readonly string[]; useSystemProxy: boolean },
  env: NodeJS.ProcessEnv = process.env,
): ProxyConfig | undefined {
  const system = settings.useSystemProxy ? proxyFromEnvironment(env) : { http: '', https: '', noProxy: [] };
  const config: ProxyConfig = settings.proxy
    ? { http: settings.proxy, https: settings.proxy, noProxy: [...settings.noProxy, ...system.noProxy] }
    : { http: system.http, https: system.https, noProxy: [...settings.noProxy, ...system.noProxy] };
  return config.http || config.https ? config : undefined;
}

export function splitList(text: string): string[] {
  return text.split(/[,\s]+/).map((item) => item.trim()).filter(Boolean);
}

const LOOPBACK_OPT_IN = '<-loopback>';

export class ProxyRules {
  private readonly names: Array<{ suffix: string; port?: string }> = [];
  private readonly addresses = new net.BlockList();
  private readonly everything: boolean;
  private readonly proxyLoopback: boolean;

  constructor(readonly config: ProxyConfig) {
    this.everything = config.noProxy.includes('*');
    this.proxyLoopback = config.noProxy.includes(LOOPBACK_OPT_IN);
    for (const raw of config.noProxy) {
      const entry = raw.toLowerCase();
      if (entry === '*' || entry === LOOPBACK_OPT_IN) continue;
      const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
      if (cidr && net.isIP(cidr[1]!)) {
        this.addresses.addSubnet(cidr[1]!, Number(cidr[2]), net.isIPv6(cidr[1]!) ? 'ipv6' : 'ipv4');
        continue;
      }
      const bare = entry.replace(/^\[|\](?=:|$)/g, '');
      if (net.isIP(bare)) {
        this.addresses.addAddress(bare, net.isIPv6(bare) ? 'ipv6' : 'ipv4');
        continue;
      }
      // `host:port`, `[v6]:port`; a leading `*.` or `.` means the same as the bare domain.
      const withPort = /^(.*?)(?::(\d+))?$/.exec(entry.startsWith('[') ? entry.replace(/^\[([^\]]+)\]/, '$1') : entry)!;
      const host = withPort[1]!.replace(/^\*?\./, '');
      if (net.isIP(host)) this.addresses.addAddress(host, net.isIPv6(host) ? 'ipv6' : 'ipv4');
      else if (host) this.names.push({ suffix: host, port: withPort[2] });
    }
  }

  /** The proxy URL for `url`, or undefined to go direct. */
  proxyFor(url: URL): string | undefined {
    const secure = url.protocol === 'https:' || url.protocol === 'wss:';
    const proxy = secure ? this.config.https : this.config.http;
    if (!proxy || this.everything) return undefined;
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
    const port = url.port || (secure ? '443' : '80');
    if (!this.proxyLoopback && isLoopback(host)) return undefined;
    const family = net.isIP(host);
    if (family) {
      if (this.addresses.check(host, family === 6 ? 'ipv6' : 'ipv4')) return undefined;
      return proxy;
    }
    for (const { suffix, port: only } of this.names) {
      if ((host === suffix || host.endsWith(`.${suffix}`)) && (only === undefined || only === port)) return undefined;
    }
    return proxy;
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A proxy URL as messages show it: the password never appears. */
export function describeProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the proxy';
  }
}
