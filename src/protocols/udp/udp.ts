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
import { responseTooLarge } from '../http/http-errors.js';
import type { ProtocolResult } from '../kind.js';
import { SendError } from '../send-error.js';
import { socketOptions, wherePrefix } from '../socket/options.js';
import { messageOf, outgoingPayload } from '../socket/payload.js';
import { receivedBody, socketResult } from '../socket/result.js';
import { socketTarget } from '../socket/target.js';
import { DEFAULT_STREAM, MessageStream } from '../stream/messages.js';
import { isBroadcast } from './broadcast.js';

/** 65,535 less the IPv4 and UDP headers. */
export const MAX_DATAGRAM = 65_507;
const MB = 1024 * 1024;

export async function sendUdp(prepared: PreparedRequest, maxResponseMb: number, signal?: AbortSignal): Promise<ProtocolResult> {
  const where = wherePrefix(prepared);
  const target = socketTarget(prepared);
  const options = socketOptions(prepared);
  if (options.framing !== 'raw') {
    throw new SendError(`${where}socket.framing is ${options.framing}, but each UDP datagram is already one message; set it to raw (or leave it out).`, 'invalid');
  }
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
    const address = net.isIP(target.hostname) ? { address: target.hostname, family: net.isIP(target.hostname) } : await dns.promises.lookup(target.hostname);
    timings.dnsMs = performance.now() - started;
    if (isBroadcast(address.address) && !options.broadcast) {
      throw new SendError(`${where}${address.address} is a broadcast address; set socket.broadcast to true to send to every host on that network.`, 'invalid');
    }
    socket = dgram.createSocket(address.family === 6 ? 'udp6' : 'udp4');
    const open = socket;
    await new Promise<void>((resolve, reject) => {
      open.once('error', reject);
      deadline.attach(reject);
      open.connect(target.port, address.address, () => {
        open.off('error', reject);
        resolve();
      });
    });
    if (options.broadcast) socket.setBroadcast(true);
    deadline.stopTimer();
    const read = await exchange(socket, prepared, payload, options, maxResponseMb, deadline, started, timings);
    timings.totalMs = performance.now() - started;
    return socketResult({ url: prepared.url, remoteAddress: address.address, timings, ...read }, 'sent');
  } catch (error) {
    if (error instanceof SendError) throw error;
    if (errorCode(error) === 'ECONNREFUSED') {
      throw new SendError(`${target.host} is not listening on UDP: the computer there answered ICMP port unreachable. Is the server running, and is the port right?`, 'refused');
    }
    throw connectionError(error, target.host, target.hostname) ?? new SendError(`udp to ${target.host} failed: ${(error as Error).message}.`, 'other');
  } finally {
    deadline.clear();
    socket?.close();
  }
}

function exchange(
  socket: dgram.Socket,
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
    const limit = maxResponseMb > 0 ? maxResponseMb * MB : 0;
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
      if (limit > 0 && bytesRead > limit) return fail(responseTooLarge(maxResponseMb));
      received.push(datagram);
      stream.received(messageOf(datagram, options));
    });
    if (payload) {
      socket.send(payload.bytes, (error) => error && fail(error));
      stream.sent(payload.message);
    }
  });
}
