/**
 * UDP requests (spec 2.8 `socket`): the body goes as one datagram to a connected socket (so the
 * OS reports an ICMP port unreachable as a refusal), and every datagram that comes back is one
 * message, until `settings.stream` stops reading. Datagrams carry their own boundaries, so only
 * `raw` framing applies; a broadcast address needs `broadcast: true`. Both are checked before
 * anything is sent, as is the largest datagram IPv4 can carry.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { DEFAULT_SETTINGS } from '../../model/index.js';
import type { PreparedRequest } from '../../request/prepared.js';
import { connectionError, errorCode } from '../connection-errors.js';
import { Deadline } from '../deadline.js';
import type { ProtocolResult } from '../kind.js';
import { SendError } from '../send-error.js';
import { openLive } from '../live/connection.js';
import type { ConnectHandlers, LiveConnection } from '../live/types.js';
import { socketOptions, wherePrefix, type SocketOptions } from '../socket/options.js';
import { composedPayload, messageOf, outgoingPayload } from '../socket/payload.js';
import { StreamSession } from '../stream/session.js';
import { receivedBody, socketResult, receivedTooLarge } from '../socket/result.js';
import { socketTarget, type SocketTarget } from '../socket/target.js';
import { DEFAULT_STREAM, MessageStream } from '../stream/messages.js';
import { isBroadcast } from './broadcast.js';
import { maxResponseBytes } from '../response-limit.js';

/** 65,535 less the IPv4 and UDP headers. */
export const MAX_DATAGRAM = 65_507;

export async function sendUdp(prepared: PreparedRequest, maxResponseMb: number, signal?: AbortSignal): Promise<ProtocolResult> {
  const where = wherePrefix(prepared);
  const target = socketTarget(prepared);
  const options = checkedOptions(prepared);
  const payload = outgoingPayload(prepared, options);
  if (payload && payload.bytes.length > MAX_DATAGRAM) {
    throw new SendError(`${where}the datagram would be ${payload.bytes.length} bytes; UDP carries at most ${MAX_DATAGRAM}. Send less, or use TCP.`, 'invalid');
  }
  const settings = prepared.settings ?? DEFAULT_SETTINGS;
  const deadline = new Deadline(settings.timeoutMs, signal);
  const started = performance.now();
  const timings = { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, totalMs: 0 };
  let socket: dgram.Socket | undefined;
  try {
    const opened = await openUdp(prepared, target, options, deadline, started, timings);
    socket = opened.socket;
    const address = opened.address;
    deadline.stopTimer();
    const read = await exchange(socket, opened.send, prepared, payload, options, maxResponseMb, deadline, started, timings);
    timings.totalMs = performance.now() - started;
    return socketResult({ url: prepared.url, remoteAddress: address.address, timings, ...read }, 'sent');
  } catch (error) {
    throw udpError(error, target);
  } finally {
    deadline.clear();
    socket?.close();
  }
}

/** A failure as one line: ICMP port unreachable arrives as ECONNREFUSED on the connected socket. */
function udpError(error: unknown, target: SocketTarget): SendError {
  if (error instanceof SendError) return error;
  if (errorCode(error) === 'ECONNREFUSED') {
    return new SendError(`${target.host} is not listening on UDP: the computer there answered ICMP port unreachable. Is the server running, and is the port right?`, 'refused');
  }
  return connectionError(error, target.host, target.hostname) ?? new SendError(`udp to ${target.host} failed: ${(error as Error).message}.`, 'other');
}

/**
 * Looks the host up, refuses a broadcast address without `broadcast: true`, and connects a UDP
 * socket to the target (so the OS reports ICMP port unreachable), or with `broadcast: true` binds
 * one that may broadcast. The one opening code of `send` and `connect`.
 */
async function openUdp(
  prepared: PreparedRequest,
  target: SocketTarget,
  options: SocketOptions,
  deadline: Deadline,
  started: number,
  timings: ProtocolResult['timings'],
): Promise<{ socket: dgram.Socket; address: { address: string; family: number }; send: SendDatagram }> {
  const address = net.isIP(target.hostname) ? { address: target.hostname, family: net.isIP(target.hostname) } : await dns.promises.lookup(target.hostname);
  timings.dnsMs = performance.now() - started;
  if (isBroadcast(address.address) && !options.broadcast) {
    throw new SendError(`${wherePrefix(prepared)}${address.address} is a broadcast address; set socket.broadcast to true to send to every host on that network.`, 'invalid');
  }
  const socket = dgram.createSocket(address.family === 6 ? 'udp6' : 'udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      deadline.attach(reject);
      const ready = () => {
        socket.off('error', reject);
        resolve();
      };
      // A broadcast is answered by hosts other than the address sent to, which a connected socket
      // would drop: the socket is bound, allowed to broadcast, and sends to the address each time.
      if (options.broadcast) {
        socket.bind(0, () => {
          socket.setBroadcast(true);
          ready();
        });
      } else {
        socket.connect(target.port, address.address, ready);
      }
    });
  } catch (error) {
    socket.close();
    throw error;
  }
  const send: SendDatagram = options.broadcast
    ? (bytes, done) => socket.send(bytes, target.port, address.address, done)
    : (bytes, done) => socket.send(bytes, done);
  return { socket, address, send };
}

/** Sends one datagram where the socket goes (its connection, or the broadcast address). */
type SendDatagram = (bytes: Uint8Array, done: (error: Error | null) => void) => void;

/** A live UDP "connection": a connected socket; each `send` is one datagram, each datagram that comes back one message. */
export async function connectUdp(prepared: PreparedRequest, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const target = socketTarget(prepared);
  const options = checkedOptions(prepared);
  const settings = prepared.settings ?? DEFAULT_SETTINGS;
  const deadline = new Deadline(settings.timeoutMs, signal);
  let opened: Awaited<ReturnType<typeof openUdp>>;
  try {
    opened = await openUdp(prepared, target, options, deadline, performance.now(), { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, totalMs: 0 });
  } catch (error) {
    throw udpError(error, target);
  } finally {
    deadline.clear();
  }
  const { socket, address, send } = opened;
  const session = new StreamSession(prepared, undefined, undefined, handlers.onMessage);
  session.onClose(() => socket.close());
  const messages = session.open();
  socket.on('message', (datagram: Buffer) => messages.received(messageOf(datagram, options)));
  socket.on('error', (error) => session.fail(udpError(error, target)));
  return openLive(session, {
    noun: `the UDP socket to ${target.host}`,
    info: () => ({ url: prepared.url, headers: [], remoteAddress: address.address }),
    send: async (message, recorded) => {
      const payload = composedPayload(message, options);
      if (payload.bytes.length > MAX_DATAGRAM) throw new SendError(`the datagram would be ${payload.bytes.length} bytes; UDP carries at most ${MAX_DATAGRAM}. Send less, or use TCP.`, 'invalid');
      recorded.sent(payload.message);
      await new Promise<void>((resolve, reject) => send(payload.bytes, (error) => (error ? reject(udpError(error, target)) : resolve())));
    },
  });
}

/** The `socket` section; datagrams carry their own boundaries, so only `raw` framing applies. */
function checkedOptions(prepared: PreparedRequest): SocketOptions {
  const options = socketOptions(prepared);
  if (options.framing !== 'raw') {
    throw new SendError(`${wherePrefix(prepared)}socket.framing is ${options.framing}, but each UDP datagram is already one message; set it to raw (or leave it out).`, 'invalid');
  }
  return options;
}

function exchange(
  socket: dgram.Socket,
  send: SendDatagram,
  prepared: PreparedRequest,
  payload: ReturnType<typeof outgoingPayload>,
  options: ReturnType<typeof socketOptions>,
  maxResponseMb: number,
  deadline: Deadline,
  started: number,
  timings: ProtocolResult['timings'],
): Promise<{ stream: MessageStream; body: Buffer; bytesRead: number }> {
  return new Promise((resolve, reject) => {
    const stream = new MessageStream(prepared.stream ?? DEFAULT_STREAM, (message) => message.text);
    const received: Buffer[] = [];
    let bytesRead = 0;
    const limit = maxResponseBytes(maxResponseMb);
    const fail = (error: Error) => {
      stream.clear();
      reject(error);
    };
    void stream.done.then(() => {
      socket.removeAllListeners('message');
      // Datagrams are whole messages: the body joins them with \n, whatever the framing says.
      resolve({ stream, body: receivedBody(received, { framing: 'line', encoding: options.encoding }), bytesRead });
    });
    deadline.attach(fail);
    // ICMP port unreachable arrives as ECONNREFUSED on the connected socket.
    socket.on('error', fail);
    socket.on('message', (datagram: Buffer) => {
      if (stream.stopped) return;
      if (bytesRead === 0) timings.firstByteMs = performance.now() - started;
      bytesRead += datagram.length;
      if (limit > 0 && bytesRead > limit) return fail(receivedTooLarge(new URL(prepared.url).host, maxResponseMb));
      received.push(datagram);
      stream.received(messageOf(datagram, options));
    });
    if (payload) {
      send(payload.bytes, (error) => error && fail(error));
      stream.sent(payload.message);
    }
  });
}
