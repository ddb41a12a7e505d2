/**
 * One DNS query on the wire, by transport: UDP (a connected socket, the answer matched by id),
 * TCP and DNS over TLS (RFC 7766/7858: a two-byte length before each message), and DNS over
 * HTTPS (RFC 8484: a POST of `application/dns-message` through Ferry's HTTP client, so TLS
 * verification, timeouts and the size limit are HTTP's). Each returns the answer's bytes.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { PreparedRequest } from '../../request/prepared.js';
import type { Deadline } from '../deadline.js';
import { sendHttp } from '../http/http.js';
import type { ProtocolTimings, SendContext } from '../kind.js';
import { connectTimeout, followConnect } from '../connect-stage.js';
import { SendError } from '../send-error.js';
import { dnsAddressLabel } from '../../support/dns-address.js';

export interface Wire {
  deadline: Deadline;
  started: number;
  timings: ProtocolTimings;
}

export function udpQuery(query: Buffer, host: string, port: number, wire: Wire): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
    const done = (error: Error | undefined, answer?: Buffer) => {
      socket.close();
      if (error) reject(error);
      else resolve(answer!);
    };
    // Answers with another id: not ours (a late answer to an earlier query, or a peer that does
    // not copy the id), so reading goes on; a timeout says they came, or it reads as silence.
    let strays = 0;
    let strayId = 0;
    socket.on('error', (error) => done(error));
    wire.deadline.attach((error) => {
      if (strays === 0 || !(error instanceof SendError) || error.kind !== 'timeout') return done(error);
      const said = `${dnsAddressLabel(host, port)} answered ${strays} ${strays === 1 ? 'time' : 'times'}, but with another query's id (got ${strayId}, asked ${query.readUInt16BE(0)}), so not this query; is another program answering on that port?`;
      done(new SendError(error.message.replace(/; no complete response by then\.$/, `; ${said}`), 'timeout'));
    });
    socket.on('message', (answer: Buffer) => {
      if (answer.length >= 2 && answer.readUInt16BE(0) === query.readUInt16BE(0)) {
        wire.timings.firstByteMs = performance.now() - wire.started;
        done(undefined, answer);
      } else if (answer.length >= 2) {
        strays++;
        strayId = answer.readUInt16BE(0);
      }
    });
    socket.connect(port, host, () => socket.send(query));
  });
}

export function streamQuery(query: Buffer, host: string, port: number, secure: boolean, tlsOptions: tls.ConnectionOptions, wire: Wire): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const connectStarted = performance.now();
    const socket = secure ? tls.connect({ ...tlsOptions, host, port }) : net.connect({ host, port });
    let pending = Buffer.alloc(0);
    const done = (error: Error | undefined, answer?: Buffer) => {
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const stage = followConnect(socket, secure);
    socket.on('error', (error) => done(error));
    // A plaintext DNS server given tls:// waits in silence for more: the time limit says the handshake did not finish.
    wire.deadline.attach((error) => done(error instanceof SendError ? connectTimeout(error, stage(), dnsAddressLabel(host, port), 'it may be a plaintext DNS server: use tcp:// (or the bare address, for UDP) in dns.server, or check the port (DNS over TLS is usually 853).') : error));
    socket.once('connect', () => (wire.timings.connectMs += performance.now() - connectStarted));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      if (secure) wire.timings.tlsMs = performance.now() - connectStarted - wire.timings.connectMs;
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(query.length);
      socket.write(Buffer.concat([prefix, query]));
    });
    socket.on('data', (chunk: Buffer) => {
      if (pending.length === 0) wire.timings.firstByteMs = performance.now() - wire.started;
      pending = Buffer.concat([pending, chunk]);
      if (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) done(undefined, pending.subarray(2, 2 + pending.readUInt16BE(0)));
    });
    socket.on('end', () => done(new SendError(`${host}:${port} closed the connection before a complete DNS answer arrived.`, 'reset')));
  });
}

export async function httpsQuery(query: Buffer, url: string, prepared: PreparedRequest, context: SendContext, signal: AbortSignal | undefined, wire: Wire): Promise<{ answer: Buffer; remoteAddress?: string }> {
  const response = await sendHttp(
    {
      method: 'POST',
      url,
      headers: [
        { name: 'Content-Type', value: 'application/dns-message' },
        { name: 'Accept', value: 'application/dns-message' },
      ],
      body: { kind: 'bytes', source: 'binary', bytes: query, isText: false },
      authType: 'none',
      ...(prepared.settings ? { settings: prepared.settings } : {}),
    },
    { agents: context.agents, signal, maxResponseMb: context.maxResponseMb },
  );
  Object.assign(wire.timings, response.timings, { totalMs: 0 });
  const type = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (response.status !== 200 || !type.toLowerCase().startsWith('application/dns-message')) {
    throw new SendError(`${url} answered HTTP ${response.status} ${response.statusText}${type ? ` (${type})` : ''}, not a DNS message: is it a DNS-over-HTTPS endpoint (RFC 8484)?`, 'protocol');
  }
  return { answer: Buffer.from(response.body), ...(response.remoteAddress ? { remoteAddress: response.remoteAddress } : {}) };
}
