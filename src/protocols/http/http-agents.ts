/**
 * The keep-alive connection pools of one run or app session, one undici Agent per
 * (TLS verification, HTTP version) pair. Ferry's own connector picks the ALPN protocols for the
 * HTTP version, speaks HTTP/2 cleartext with prior knowledge when asked, and measures DNS,
 * connect and TLS times for the send that opened the connection.
 */
import dns from 'node:dns';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { Dispatcher } from 'undici';
import { SendError } from '../send-error.js';
import { DigestNonces } from './digest.js';
import { watchHttp2 } from './header-text.js';
import { certificateFor, tlsOptionsFor, tlsOptionsForUrl, type ClientTls } from '../../request/client-tls.js';
import { proxyErrorInChain } from './proxy-errors.js';
import { ProxyRules, type ProxyConfig } from './proxy-rules.js';
import { undiciAgent, undiciDispatcher, undiciProxyAgent } from './undici-parts.js';

export type HttpVersionSetting = 'auto' | 'http1' | 'http2';

/** Timings of the connection a send opened; undefined fields: the connection was reused. */
export interface ConnectionTimings {
  dnsMs?: number;
  connectMs?: number;
  tlsMs?: number;
  remoteAddress?: string;
  remotePort?: number;
  /** ALPN result, `h2` or `http/1.1` (cleartext: what was asked for). */
  alpn?: string;
  /**
   * An error on the connection after the handshake, such as a TLS 1.3 server's alert that it
   * wants a client certificate: undici reports only "other side closed", this says why.
   */
  afterHandshake?: Error;
}

/** The send whose dispatch is running (see `reportingConnection`). */
let dispatching: ConnectionTimings | undefined;

/**
 * Runs `dispatch` with `report` as the send the connector reports into. undici opens a
 * connection for a request inside `dispatch`, synchronously, so the connector finds the report
 * here; a connection opened later (never for a request of its own) reports nothing, as a reused
 * one. (An AsyncLocalStorage did this before: it installs promise hooks that tax every promise
 * of the process from the first send on.)
 */
export function reportingConnection<T>(report: ConnectionTimings, dispatch: () => T): T {
  const outer = dispatching;
  dispatching = report;
  try {
    return dispatch();
  } finally {
    dispatching = outer;
  }
}

/** Connections that never finish their handshake give up after this long (the request timer may be shorter). */
const CONNECT_TIMEOUT_MS = 30_000;

type ConnectCallback = (error: Error | null, socket: net.Socket | null) => void;
interface ConnectOptions {
  hostname: string;
  host?: string;
  protocol: string;
  port: string;
  servername?: string;
}

/** Most bytes of response headers read (all headers of one response together). */
export const MAX_RESPONSE_HEADER_BYTES = 1024 * 1024;

/** Resolves a host name, with `dns.lookup`'s signature. The system resolver unless a run names another. */
export type HostLookup = typeof dns.lookup;

/**
 * Peers are kept per dispatcher (TLS verification and HTTP version) and origin: a failed HTTP/2
 * attempt must not make a later HTTP/1.1 send on a reused connection report HTTP/2.
 */
export function peerKey(verifyTls: boolean, version: HttpVersionSetting, origin: string): string {
  return `${verifyTls}|${version}|${origin}`;
}

function connector(verifyTls: boolean, version: HttpVersionSetting, lastPeer: Map<string, ConnectionTimings>, resolve: HostLookup, material?: ClientTls) {
  return (options: ConnectOptions, callback: ConnectCallback) => {
    const report = dispatching;
    const started = performance.now();
    const hostname = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname;
    const lookup = ((host: string, lookupOptions: dns.LookupOptions, done: (...args: unknown[]) => void) => {
      (resolve as unknown as (h: string, o: dns.LookupOptions, cb: (...args: unknown[]) => void) => void)(host, lookupOptions, (...args: unknown[]) => {
        if (report) report.dnsMs = performance.now() - started;
        done(...args);
      });
    }) as unknown as net.LookupFunction;
    const isTls = options.protocol === 'https:';
    const port = Number(options.port) || (isTls ? 443 : 80);
    let socket: net.Socket;
    let tcpAt = 0;
    if (isTls) {
      let extra: tls.ConnectionOptions;
      try {
        extra = tlsOptionsFor(material, hostname, port);
      } catch (error) {
        callback(error as Error, null);
        return undefined;
      }
      socket = tls.connect({
        ...extra,
        host: hostname,
        port,
        servername: options.servername || (net.isIP(hostname) ? undefined : hostname),
        ALPNProtocols: version === 'http2' ? ['h2'] : version === 'http1' ? ['http/1.1'] : ['h2', 'http/1.1'],
        rejectUnauthorized: verifyTls,
        lookup,
      });
    } else {
      socket = net.connect({ host: hostname, port, lookup });
      // HTTP/2 over cleartext: prior knowledge, as undici's h2c client does.
      if (version === 'http2') (socket as net.Socket & { alpnProtocol?: string }).alpnProtocol = 'h2';
    }
    socket.setNoDelay(true).setKeepAlive(true, 60_000);
    const timer = setTimeout(() => socket.destroy(Object.assign(new Error(`connect timed out after ${CONNECT_TIMEOUT_MS} ms`), { code: 'UND_ERR_CONNECT_TIMEOUT' })), CONNECT_TIMEOUT_MS);
    socket.once('connect', () => {
      tcpAt = performance.now();
      if (report) report.connectMs = tcpAt - started - (report.dnsMs ?? 0);
    });
    let done = false;
    socket.once(isTls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      const peer: ConnectionTimings = {
        remoteAddress: socket.remoteAddress,
        remotePort: socket.remotePort,
        alpn: isTls ? (socket as tls.TLSSocket).alpnProtocol || 'http/1.1' : version === 'http2' ? 'h2' : 'http/1.1',
      };
      lastPeer.set(peerKey(verifyTls, version, `${options.protocol}//${options.hostname}:${port}`), peer);
      if (report) {
        if (isTls) report.tlsMs = performance.now() - tcpAt;
        Object.assign(report, peer);
      }
      if (!done) {
        done = true;
        if (peer.alpn === 'h2') watchHttp2(socket);
        callback(null, socket);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      // The socket's own error is the cause; undici then destroys the socket with one of its own.
      if (done && report && !String((error as NodeJS.ErrnoException).code).startsWith('UND_ERR')) report.afterHandshake ??= error;
      if (!done) {
        done = true;
        callback(error, null);
      }
    });
    return socket;
  };
}

/**
 * The request's headers as an object of name to value or values, for undici's proxy agent: it
 * turns a flat list into an object itself, one value per name, so a repeated header (two
 * `X-Tag` rows, as Postman and curl send them) would lose all but its last line. undici sends
 * each value of a list on its own line.
 */
function headerObject(headers: Dispatcher.DispatchOptions['headers']): Dispatcher.DispatchOptions['headers'] {
  if (!Array.isArray(headers)) return headers;
  // No prototype: a header named `__proto__` is a name like any other.
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = String(headers[i]);
    const value = String(headers[i + 1]);
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

type ProxyRouterClass = new (direct: Dispatcher, via: (proxy: string, origin: URL) => Dispatcher, rules: ProxyRules) => Dispatcher;
let proxyRouter: ProxyRouterClass | undefined;

/**
 * Sends each request direct or through the proxy, by its origin (a redirect may change which).
 * The class is made at first use: it extends undici's Dispatcher, which loads only then.
 */
function proxyRouterClass(): ProxyRouterClass {
  return (proxyRouter ??= class ProxyRouter extends undiciDispatcher() {
    constructor(
      private readonly direct: Dispatcher,
      private readonly via: (proxy: string, origin: URL) => Dispatcher,
      private readonly rules: ProxyRules,
    ) {
      super();
    }

    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const origin = new URL(String(options.origin));
      const proxy = this.rules.proxyFor(origin);
      let target: Dispatcher;
      try {
        target = proxy ? this.via(proxy, origin) : this.direct;
      } catch (error) {
        // A client certificate that cannot be used fails this request, as undici fails any other.
        const legacy = handler as { onResponseError?: (controller: unknown, error: Error) => void; onError?: (error: Error) => void };
        if (legacy.onResponseError) legacy.onResponseError(null, error as Error);
        else legacy.onError?.(error as Error);
        return false;
      }
      return target.dispatch(proxy ? { ...options, headers: headerObject(options.headers) } : options, handler);
    }

    // The pools underneath belong to HttpAgents, which closes them.
    override close(): Promise<void>;
    override close(callback: () => void): void;
    override close(callback?: () => void): Promise<void> | void {
      if (callback) return void callback();
      return Promise.resolve();
    }

    override destroy(): Promise<void>;
    override destroy(error: Error | null): Promise<void>;
    override destroy(callback: () => void): void;
    override destroy(error: Error | null, callback: () => void): void;
    override destroy(...args: unknown[]): Promise<void> | void {
      const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
      if (callback) return void callback();
      return Promise.resolve();
    }
  });
}

/** Options every pool shares, direct or through a proxy. */
const POOL_OPTIONS = {
  keepAliveTimeout: 10_000,
  // Ferry's own timer covers the whole request; these would cut long downloads short.
  headersTimeout: 0,
  bodyTimeout: 0,
  maxResponseSize: -1,
  // undici's default is Node's 16 KB; big cookie or policy headers exceed it, and other clients read them.
  maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
};

/** The schemes of TLS connections, with the port each has when the URL names none (`tls:`: DNS over TLS). */
export interface HttpAgentsOptions {
  /** How host names are resolved (default: this computer's resolver, `dns.lookup`). */
  lookup?: HostLookup;
  /** The run's proxies (settings `proxy`, `noProxy`, `useSystemProxy`); absent: every request goes direct. */
  proxy?: ProxyConfig;
  /** Extra CAs and client certificates (settings `caFiles`, `clientCertificates`). */
  tls?: ClientTls;
}

export class HttpAgents {
  private readonly agents = new Map<string, Dispatcher>();
  private readonly resolve: HostLookup;
  private readonly rules?: ProxyRules;
  private readonly material?: ClientTls;

  constructor(options: HttpAgentsOptions = {}) {
    this.resolve = options.lookup ?? dns.lookup;
    if (options.proxy) this.rules = new ProxyRules(options.proxy);
    this.material = options.tls;
  }

  /** The files of the client certificate sent to `url`'s server, for messages. */
  clientCertificateFor(url: URL): string | undefined {
    if (url.protocol !== 'https:' && url.protocol !== 'wss:') return undefined;
    return certificateFor(this.material, url.hostname, Number(url.port) || 443)?.source;
  }

  /** The proxy a request to `url` goes through, or undefined when it goes direct. */
  proxyFor(url: URL, direct = false): string | undefined {
    return direct ? undefined : this.rules?.proxyFor(url);
  }

  /**
   * The failure of the proxy a request to `url` went through, worded as for sends (407, unreachable,
   * tunnel refused), or undefined when it went direct or the failure was not the proxy's.
   */
  proxyFailure(error: unknown, url: URL, direct = false): SendError | undefined {
    const proxy = this.proxyFor(url, direct);
    return proxy ? proxyErrorInChain(error, proxy, url) : undefined;
  }

  /**
   * TLS options for a connection to `url`'s server that undici does not make (WebSocket,
   * Socket.IO, gRPC, MQTT, TCP, DNS over TLS): the extra CAs and the client certificate chosen
   * for its host, as for HTTP. A certificate that cannot be used fails here, before connecting,
   * with its reason. A URL of a plain scheme gets nothing.
   */
  targetTls(url: URL): Pick<tls.ConnectionOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase'> {
    try {
      return tlsOptionsForUrl(this.material, url);
    } catch (error) {
      throw new SendError((error as Error).message, 'tls');
    }
  }

  /** TLS options for talking to an https:// proxy itself: verified as the request's server is, against the same CAs. */
  proxyTls(verifyTls: boolean): tls.ConnectionOptions {
    return { rejectUnauthorized: verifyTls, ...(this.material?.ca ? { ca: this.material.ca } : {}) };
  }

  /** The peer of the latest connection per dispatcher and origin (`peerKey`), for sends that reuse a connection. */
  readonly lastPeer = new Map<string, ConnectionTimings>();

  /** Digest nonces the servers of this run or session gave, answered at once next time (digest.ts). */
  readonly digestNonces = new DigestNonces();

  /**
   * The dispatcher for requests with these settings. `direct` (a request's `settings.proxy:
   * false`): never through the proxy.
   */
  get(verifyTls: boolean, version: HttpVersionSetting, direct = false): Dispatcher {
    const rules = this.rules;
    if (!rules || direct) return this.directAgent(verifyTls, version);
    return this.cached(`${verifyTls}|${version}|routed`, () =>
      new (proxyRouterClass())(this.directAgent(verifyTls, version), (proxy, origin) => this.proxyAgent(proxy, verifyTls, version, origin), rules));
  }

  private cached(key: string, make: () => Dispatcher): Dispatcher {
    let agent = this.agents.get(key);
    if (!agent) {
      agent = make();
      this.agents.set(key, agent);
    }
    return agent;
  }

  private directAgent(verifyTls: boolean, version: HttpVersionSetting): Dispatcher {
    return this.cached(`${verifyTls}|${version}`, () => new (undiciAgent())({
      connect: connector(verifyTls, version, this.lastPeer, this.resolve, this.material) as never,
      allowH2: version !== 'http1',
      ...POOL_OPTIONS,
    }));
  }

  /**
   * undici's proxy agent: https targets through a CONNECT tunnel, http targets in absolute form
   * (`GET http://host/path`) to an http proxy, anything through a SOCKS5 proxy.
   */
  private proxyAgent(proxy: string, verifyTls: boolean, version: HttpVersionSetting, origin: URL): Dispatcher {
    // The target's TLS options are fixed per proxy agent, so a server with its own client certificate gets its own.
    const port = Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80);
    const certificate = certificateFor(this.material, origin.hostname, port);
    const targetTls = origin.protocol === 'https:' ? tlsOptionsFor(this.material, origin.hostname, port) : {};
    return this.cached(`${verifyTls}|${version}|${proxy}|${certificate?.host ?? ''}`, () => new (undiciProxyAgent())({
      uri: proxy,
      proxyTunnel: false,
      allowH2: version !== 'http1',
      requestTls: { ...targetTls, rejectUnauthorized: verifyTls },
      // Only for an https:// proxy: undici's SOCKS5 agent speaks TLS to the proxy whenever this is set.
      ...(proxy.startsWith('https:') ? { proxyTls: this.proxyTls(verifyTls) } : {}),
      ...POOL_OPTIONS,
    }));
  }

  async close(): Promise<void> {
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((a) => a.close().catch(() => a.destroy())));
  }
}
