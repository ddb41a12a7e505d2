/**
 * The TCP relay (spec 2.11 `proxy`, kind `tcpProxy`): every client connection is relayed to
 * `target`, over TLS with `upstreamTls`, and both directions are recorded (sizes and a bounded
 * preview, text or hex). A half-close is passed on (so a request-then-answer protocol finishes);
 * an error on either side destroys the other. On 127.0.0.1, a browser's HTTP request addressed to
 * another name (DNS rebinding) is refused before it reaches the target (browser-head.ts).
 *
 * With `upstreamTls` the target's certificate is not checked: the relay is for watching traffic to
 * local and test servers, which mostly have self-signed certificates, and the file has no field
 * to name a CA.
 */
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { splitDnsAddress } from '../../../support/dns-address.js';
import { capConnections, probeWhenSilent } from '../../connection-cap.js';
import { ServerError } from '../../errors.js';
import type { Listener } from '../../listener.js';
import { rawPlainTextAnswer } from '../../http-types.js';
import type { BindOptions, ClientInfo, KindContext, KindSettings, PushOptions, ServerKindModule, SocketKindInstance } from '../kind.js';
import { preview } from '../messages/payload.js';
import { messageRecord } from '../messages/traffic.js';
import { listenStream } from '../stream-listener.js';
import { notReading } from '../messages/not-reading.js';
import { browserHeadVerdict } from './browser-head.js';
import { kindSection } from '../../../model/index.js';

/**
 * `proxy.target` as host and port, split as the DNS addresses are (`splitDnsAddress`): an IPv6
 * address in brackets (`[::1]:5432`). Refused at load, saying how to write it: no port, and an
 * IPv6 address without brackets, whose last group could be read as a port (`2001:db8::1` is not
 * host `2001:db8:` port 1).
 */
function relayTarget(file: string, target: string): { host: string; port: number } {
  const refuse = (why: string) => new ServerError(`${file}: proxy.target: ${why}`);
  const { host, port: portText } = splitDnsAddress(target);
  const example = 'give where to relay to, such as 127.0.0.1:5432 or [::1]:5432.';
  if (target === '') throw refuse(`is empty; ${example}`);
  if (!target.startsWith('[') && host.includes(':') && !/[[\]\s]/.test(host)) {
    if (portText === undefined) {
      const colon = target.lastIndexOf(':');
      const [head, tail] = [target.slice(0, colon), target.slice(colon + 1)];
      if (/^\d{1,5}$/.test(tail) && !head.endsWith(':') && net.isIPv6(head)) {
        throw refuse(`${JSON.stringify(target)} is ambiguous: the IPv6 address ${target} alone, or ${head} with port ${tail}; write an IPv6 address in brackets with its port: [${head}]:${tail} (or [${target}]:PORT).`);
      }
      throw refuse(`${JSON.stringify(target)} is an IPv6 address without a port; write it in brackets with the port: [${target}]:PORT.`);
    }
    throw refuse(`${JSON.stringify(target)}: write an IPv6 address in brackets with its port: [${host}]:${portText}.`);
  }
  const port = Number(portText);
  if (host === '' || /[[\]\s]/.test(host) || portText === undefined || !/^\d{1,5}$/.test(portText) || port < 1 || port > 65535) {
    throw refuse(`${JSON.stringify(target)} is not host:port (a port from 1 to 65535); ${example}`);
  }
  return { host, port };
}

/** Giving up on a target that does not answer the connection. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Clients relayed at once; one more is closed at once, before a target connection is opened.
 * Each holds two sockets, one of them a connection on the target: 512 sockets, as nginx's
 * default `worker_connections 512` counts both sides. (Not for a limit of 1,024 open files, as
 * a shell's `ulimit -n` often reads: Node raises its own to the system's hard limit as it
 * starts.) The other servers' caps are in connection-cap.ts.
 */
export const MAX_RELAYED_CLIENTS = 256;

interface State {
  host: string;
  port: number;
  upstreamTls: boolean;
  label: string;
}

class RelayKind implements SocketKindInstance {
  #state: State | undefined;
  #open = 0;
  /** Relayed clients by peer, for the panel's send (it goes to the client, as if the target had sent it). */
  readonly #clients = new Map<string, Socket>();
  readonly sendForm = { event: false, hex: false };
  /** Bound to 127.0.0.1: a browser's request addressed to another name is refused (browser-head.ts). */
  #loopbackOnly = false;

  constructor(private readonly context: KindContext) {}

  configure({ server }: KindSettings): void {
    const file = this.context.file;
    if (server.tls?.enabled) throw new ServerError(`${file}: tls: the TCP relay takes plain TCP from clients; set tls.enabled to false (upstreamTls speaks TLS to the target).`);
    const section = kindSection(server, 'proxy');
    const target = section.target.trim();
    const { host, port } = relayTarget(file, target);
    this.#state = { host, port, upstreamTls: section.upstreamTls, label: target };
  }

  openStreams(): number {
    return this.#open;
  }

  push(data: string, options: PushOptions = {}): number {
    const bytes = Buffer.from(options.fill ? options.fill(data) : data);
    let count = 0;
    for (const [peer, client] of this.#clients) {
      if ((options.to !== undefined && options.to !== peer) || !client.writable) continue;
      if (notReading(peer, client.writableLength, options)) continue;
      client.write(bytes);
      this.context.traffic.add(messageRecord('tcpProxy', this.context.id, 'out', { peer, event: 'message', preview: preview(bytes, false) }, { bytesOut: bytes.length, note: 'sent from the app' }));
      count++;
    }
    return count;
  }

  clients(): ClientInfo[] {
    return [...this.#clients.keys()].map((peer) => ({ id: peer, label: peer }));
  }

  close(): void {}

  async listen(bind: BindOptions): Promise<Listener> {
    this.#loopbackOnly = bind.host === '127.0.0.1';
    const all = new Set<Socket>();
    const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (client) => this.#relay(client, all));
    const why = `${MAX_RELAYED_CLIENTS} clients are relayed already, the relay's limit (each holds a connection to the target); close some, or start a second relay`;
    const { traffic, id } = this.context;
    capConnections(server, MAX_RELAYED_CLIENTS, why, (peer, preview) => traffic.add(messageRecord('tcpProxy', id, 'exchange', { peer, event: 'error', preview }, {})));
    return listenStream(server, bind, all, 'tcp');
  }

  #relay(client: Socket, all: Set<Socket>): void {
    const start = performance.now();
    const state = this.#state!;
    const { traffic, id } = this.context;
    const peer = `${client.remoteAddress}:${client.remotePort}`;
    const options = { host: state.host, port: state.port, allowHalfOpen: true };
    const upstream: Socket = state.upstreamTls ? tls.connect({ ...options, servername: net.isIP(state.host) ? undefined : state.host, rejectUnauthorized: false }) : net.connect(options);
    // The target's side too: a target that vanished would hold the client's place as well.
    probeWhenSilent(upstream);
    for (const socket of [client, upstream]) {
      all.add(socket);
      socket.once('close', () => all.delete(socket));
    }
    this.#open++;
    let bytesIn = 0;
    let bytesOut = 0;
    let failure: string | undefined;
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)));
    upstream.once(state.upstreamTls ? 'secureConnect' : 'connect', () => {
      upstream.setTimeout(0);
      traffic.add(messageRecord('tcpProxy', id, 'exchange', { peer, event: 'connect', preview: `to ${state.label}${state.upstreamTls ? ' (TLS)' : ''}` }, {}));
      this.#clients.set(peer, client);
      client.resume();
    });
    // The first bytes, held while they may be a browser's request head (to 64 KB).
    let held: Buffer | undefined = this.#loopbackOnly ? Buffer.alloc(0) : undefined;
    let refused = false;
    client.on('data', (data: Buffer) => {
      if (refused) return;
      let chunk = data;
      if (held !== undefined) {
        chunk = held.length === 0 ? data : Buffer.concat([held, data]);
        const verdict = browserHeadVerdict(chunk);
        if ('wait' in verdict) return void (held = chunk);
        held = undefined;
        if ('refuse' in verdict) {
          refused = true;
          failure = `refused: ${verdict.refuse}, which is how a web page reaches this computer through DNS rebinding; a relay on 127.0.0.1 relays HTTP requests addressed to 127.0.0.1, localhost, [::1] or a name under .localhost only (set host: 0.0.0.0 to relay other names)`;
          upstream.destroy();
          client.end(rawPlainTextAnswer('403 Forbidden', `Ferry's TCP relay ${failure}.\n`));
          return;
        }
      }
      bytesIn += chunk.length;
      traffic.add(messageRecord('tcpProxy', id, 'in', { peer, event: 'message', preview: preview(chunk, false) }, { bytesIn: chunk.length }));
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.on('data', (chunk: Buffer) => {
      bytesOut += chunk.length;
      traffic.add(messageRecord('tcpProxy', id, 'out', { peer, event: 'message', preview: preview(chunk, false) }, { bytesOut: chunk.length }));
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    client.once('end', () => {
      // A client that ends before its first bytes could be judged (no browser half-closes): they go as they came.
      if (held !== undefined && held.length > 0 && !refused) {
        bytesIn += held.length;
        traffic.add(messageRecord('tcpProxy', id, 'in', { peer, event: 'message', preview: preview(held, false) }, { bytesIn: held.length }));
        upstream.write(held);
      }
      held = undefined;
      upstream.end();
    });
    upstream.once('end', () => client.end());
    client.on('error', (error) => {
      failure ??= `client: ${error.message}`;
      upstream.destroy();
    });
    upstream.on('error', (error) => {
      failure ??= targetFailure(error, state.label);
      client.destroy();
    });
    let closed = 0;
    const onClose = () => {
      if (++closed < 2) return;
      this.#open--;
      const detail = { peer, event: failure ? ('error' as const) : ('close' as const), preview: failure ?? '' };
      traffic.add(messageRecord('tcpProxy', id, 'exchange', detail, { start, bytesIn, bytesOut }));
    };
    client.once('close', () => this.#clients.delete(peer));
    client.once('close', onClose);
    upstream.once('close', onClose);
  }
}

/** OpenSSL's codes for a target that answered the TLS handshake with something that is not TLS. */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_UNKNOWN_PROTOCOL']);

/** Why the target connection failed, and what to do: the record of a relayed connection that failed on its target's side. */
function targetFailure(error: Error, label: string): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ECONNREFUSED') return `${label} refused the connection (ECONNREFUSED): nothing is listening there; start the target, or check proxy.target`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${label}: the host name could not be resolved (${code}); check proxy.target`;
  if (NOT_TLS.has(code)) {
    const reason = (error as Error & { reason?: string }).reason ?? code;
    return `${label} does not answer TLS (${reason}): it may be a plain TCP server; set proxy.upstreamTls to false, or check the port`;
  }
  if (code.startsWith('ERR_SSL')) return `${label}: the TLS handshake failed (${code}); if the target is not a TLS server, set proxy.upstreamTls to false`;
  if (code === 'ECONNRESET') return `${label} reset the connection (ECONNRESET)`;
  return `${label}: ${code || error.message}`;
}

export const relayKind: ServerKindModule = {
  kind: 'tcpProxy',
  transport: 'ownSocket',
  create: (context) => new RelayKind(context),
};
