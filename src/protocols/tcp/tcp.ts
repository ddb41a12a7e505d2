/**
 * TCP and TLS requests (spec 2.8 `socket`): connect (TLS with SNI from the host name and
 * `verifyTls`), send the body as one framed message, and read the replies as messages of the
 * shared model until `settings.stream` stops reading or the peer closes. `settings.timeoutMs`
 * bounds connecting and the TLS handshake; once connected, `stream.timeoutMs` does (as for SSE).
 * Ferry does not end its sending side after the body: many line protocols close at once on that.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { DEFAULT_SETTINGS } from '../../model/index.js';
import type { PreparedRequest } from '../../request/prepared.js';
import { connectionError } from '../connection-errors.js';
import { connectTimeout, followConnect } from '../connect-stage.js';
import { Deadline } from '../deadline.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { SendError } from '../send-error.js';
import { Deframer, frame, maxPrefixed } from '../socket/framing.js';
import { socketOptions, wherePrefix, type SocketOptions } from '../socket/options.js';
import { composedPayload, messageOf, outgoingPayload } from '../socket/payload.js';
import { openLive } from '../live/connection.js';
import type { ConnectHandlers, LiveConnection } from '../live/types.js';
import { StreamSession } from '../stream/session.js';
import { socketTarget, type SocketTarget } from '../socket/target.js';
import { receivedBody, socketResult, receivedTooLarge } from '../socket/result.js';
import { DEFAULT_STREAM, MessageStream } from '../stream/messages.js';
import { maxResponseBytes } from '../response-limit.js';


export async function sendTcp(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const { maxResponseMb } = context;
  const target = socketTarget(prepared);
  const options = socketOptions(prepared);
  const payload = outgoingPayload(prepared, options);
  if (payload && options.framing === 'lengthPrefixed' && payload.bytes.length > maxPrefixed(options.lengthBytes)) {
    throw new SendError(
      `${wherePrefix(prepared)}the message is ${payload.bytes.length} bytes, more than a ${options.lengthBytes}-byte length prefix can say (${maxPrefixed(options.lengthBytes)}); set socket.lengthBytes to ${options.lengthBytes === 1 ? 2 : 4}.`,
      'invalid',
    );
  }
  const settings = prepared.settings ?? DEFAULT_SETTINGS;
  const deadline = new Deadline(settings.timeoutMs, signal);
  const started = performance.now();
  const timings = { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, totalMs: 0 };
  let socket: net.Socket | undefined;
  try {
    socket = await connect(target, settings.verifyTls, context.agents.targetTls(new URL(prepared.url)), deadline, started, timings);
    deadline.stopTimer();
    const read = await exchange(socket, options, prepared, payload, maxResponseMb, deadline, started, timings);
    timings.totalMs = performance.now() - started;
    return socketResult({
      url: prepared.url,
      remoteAddress: socket.remoteAddress,
      timings,
      stream: read.stream,
      body: read.body,
      bytesRead: read.bytesRead,
      ...(read.cutOff ? { detail: { cutOff: read.cutOff } } : {}),
    });
  } catch (error) {
    if (error instanceof SendError) throw error;
    throw connectionError(error, target.host, target.hostname) ?? new SendError(`${prepared.kind} to ${target.host} failed: ${(error as Error).message}.`, 'other');
  } finally {
    deadline.clear();
    socket?.destroy();
  }
}

/**
 * A live TCP (or TLS) connection: connected as a send connects, then every framed message both
 * ways is a message until either side closes. Each `send` is one framed message.
 */
export async function connectTcp(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const { maxResponseMb } = context;
  const target = socketTarget(prepared);
  const options = socketOptions(prepared);
  const settings = prepared.settings ?? DEFAULT_SETTINGS;
  const deadline = new Deadline(settings.timeoutMs, signal);
  const started = performance.now();
  let socket: net.Socket;
  try {
    socket = await connect(target, settings.verifyTls, context.agents.targetTls(new URL(prepared.url)), deadline, started, { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, totalMs: 0 });
  } catch (error) {
    if (error instanceof SendError) throw error;
    throw connectionError(error, target.host, target.hostname) ?? new SendError(`${prepared.kind} to ${target.host} failed: ${(error as Error).message}.`, 'other');
  } finally {
    deadline.clear();
  }
  const session = new StreamSession(prepared, undefined, undefined, handlers.onMessage);
  const open = socket;
  session.onClose(() => open.end(() => open.destroy()));
  const messages = session.open();
  // A live connection has no response limit, but one message that never ends (a line without its
  // line ending) must not fill memory: it may be at most maxResponseMb.
  const deframer = new Deframer(options, maxResponseBytes(maxResponseMb, undefined));
  let peer = 'closed the connection';
  open.on('data', (chunk: Buffer) => {
    let complete: Buffer[];
    try {
      complete = deframer.push(chunk);
    } catch {
      return session.fail(new SendError(`${target.host} sent a message larger than ${maxResponseMb} MB (maxResponseMb) without its end (socket.framing ${options.framing}), so Ferry closed the connection; check the framing, or raise the limit with ferry config set maxResponseMb N.`, 'tooLarge'));
    }
    for (const message of complete) messages.received(messageOf(message, options));
  });
  const ended = () => {
    const { last, cutOff } = deframer.end();
    if (last) messages.received(messageOf(last, options));
    if (cutOff) peer = `closed the connection in the middle of a message (${cutOff} bytes of it cut off)`;
    messages.closed();
  };
  open.once('end', ended);
  open.once('close', ended);
  open.on('error', (error) => session.fail(connectionError(error, target.host, target.hostname) ?? new SendError(`${prepared.kind} to ${target.host} failed: ${error.message}.`, 'reset')));
  return openLive(session, {
    noun: `the ${prepared.kind === 'tcp' && target.secure ? 'TLS' : 'TCP'} connection to ${target.host}`,
    info: () => ({ url: prepared.url, headers: [], ...(open.remoteAddress ? { remoteAddress: open.remoteAddress } : {}) }),
    send: async (message, recorded) => {
      const payload = composedPayload(message, options);
      if (options.framing === 'lengthPrefixed' && payload.bytes.length > maxPrefixed(options.lengthBytes)) {
        throw new SendError(`the message is ${payload.bytes.length} bytes, more than a ${options.lengthBytes}-byte length prefix can say (${maxPrefixed(options.lengthBytes)}); set socket.lengthBytes to ${options.lengthBytes === 1 ? 2 : 4}.`, 'invalid');
      }
      recorded.sent(payload.message);
      await new Promise<void>((resolve, reject) => open.write(frame(payload.bytes, options), (error) => (error ? reject(new SendError(`the message to ${target.host} was not sent: ${error.message}.`, 'reset')) : resolve())));
    },
    peerEnd: () => `${target.host} ${peer}`,
  });
}

/** Connects (and shakes hands over TLS), filling the timings; fails with the deadline's error when it fires first. */
function connect(target: SocketTarget, verifyTls: boolean, clientTls: tls.ConnectionOptions, deadline: Deadline, started: number, timings: ProtocolResult['timings']): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = target.secure
      ? tls.connect({ ...clientTls, host: target.hostname, port: target.port, servername: net.isIP(target.hostname) ? undefined : target.hostname, rejectUnauthorized: verifyTls })
      : net.connect({ host: target.hostname, port: target.port });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    const stage = followConnect(socket, target.secure);
    socket.once('error', fail);
    // The time limit's line says how far connecting got: a TLS handshake a plaintext server never answers is the usual hang.
    deadline.attach((error) => fail(error instanceof SendError ? connectTimeout(error, stage(), target.host, 'it may be a plaintext server: use tcp://, or check the port.') : error));
    socket.once('lookup', () => (timings.dnsMs = performance.now() - started));
    socket.once('connect', () => (timings.connectMs = performance.now() - started - timings.dnsMs));
    socket.once(target.secure ? 'secureConnect' : 'connect', () => {
      if (target.secure) timings.tlsMs = performance.now() - started - timings.dnsMs - timings.connectMs;
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

interface Read {
  stream: MessageStream;
  body: Buffer;
  bytesRead: number;
  /** Bytes of a length-prefixed message the peer cut off by closing. */
  cutOff?: number;
}

/** Sends the message and reads replies until the stop rule ends reading, cancel, or an error. */
function exchange(
  socket: net.Socket,
  options: SocketOptions,
  prepared: PreparedRequest,
  payload: ReturnType<typeof outgoingPayload>,
  maxResponseMb: number,
  deadline: Deadline,
  started: number,
  timings: ProtocolResult['timings'],
): Promise<Read> {
  return new Promise((resolve, reject) => {
    const stream = new MessageStream(prepared.stream ?? DEFAULT_STREAM, (message) => message.text);
    const deframer = new Deframer(options);
    const received: Buffer[] = [];
    const read: Read = { stream, body: Buffer.alloc(0), bytesRead: 0 };
    const limit = maxResponseBytes(maxResponseMb);
    const finish = () => {
      socket.removeAllListeners('data');
      read.body = receivedBody(received, options);
      resolve(read);
    };
    const fail = (error: Error) => {
      stream.clear();
      reject(error);
    };
    void stream.done.then(finish);
    deadline.attach(fail);
    const take = (bytes: Buffer) => {
      if (stream.stopped) return;
      received.push(bytes);
      stream.received(messageOf(bytes, options));
    };
    socket.on('data', (chunk: Buffer) => {
      if (read.bytesRead === 0) timings.firstByteMs = performance.now() - started;
      read.bytesRead += chunk.length;
      if (limit > 0 && read.bytesRead > limit) return fail(receivedTooLarge(new URL(prepared.url).host, maxResponseMb));
      for (const message of deframer.push(chunk)) take(message);
    });
    // The peer ended its side (half-close) or the connection closed: what is left is read, then reading stops.
    const ended = () => {
      const { last, cutOff } = deframer.end();
      if (last) take(last);
      if (cutOff) read.cutOff = cutOff;
      stream.closed();
    };
    socket.once('end', ended);
    socket.once('close', ended);
    socket.on('error', (error) => {
      if (stream.stopped) return;
      // A reset after replies arrived ends the stream like a close; before any, it is the answer.
      if (stream.events > 0) ended();
      else fail(error);
    });
    if (payload) {
      socket.write(frame(payload.bytes, options));
      stream.sent(payload.message);
    }
  });
}
