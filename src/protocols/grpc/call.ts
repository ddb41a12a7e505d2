/**
 * One gRPC call (spec 2.8): the channel, the descriptors (proto files or reflection), the four
 * call types, and the answer. A status other than OK is an answer (tests decide); a call that
 * never reached the server (refused, TLS, a time limit while connecting, cancel) is a SendError.
 * Server and bidirectional streams are read by the shared stop rule (`settings.stream`).
 */
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import type { PreparedRequest } from '../../request/prepared.js';
import { connectionErrorByCode, notTlsReason, systemCode } from '../connection-errors.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { SendError, TIMEOUT_SETTING } from '../send-error.js';
import { SETTING_HINT } from '../http/proxy-errors.js';
import { describeProxy } from '../http/proxy-rules.js';
import { proxiedChannel, proxyFailure } from './proxy.js';
import { DEFAULT_STREAM, MessageStream } from '../stream/messages.js';
import { findMethod, loadByReflection, loadProtoFiles, ReflectionFailure, splitMethod } from './descriptors.js';
import { fitMessage, parseMessages } from './messages.js';
import type { TypeDescriptor } from './skeleton.js';
import { toProto3Json } from './well-known.js';
import { malformation } from './wire-check.js';
import { metadataPairs, requestMetadata } from './metadata.js';
import { signingInterceptors } from './call-signing.js';
import { callAuthority } from './method-name.js';
import { quietGrpcLog } from './log.js';
import { type Answer, type CallType, result } from './answer.js';
import { clientEnded, endedAtDeadline, endLabel, reachedServer, type CallWhere } from './client-status.js';
import { readStatus, statusName } from './status.js';
import { maxResponseBytes } from '../response-limit.js';
import { maxMessageBytes, streamTooLarge, tooLargeForUs } from './answer-limit.js';
import { channelEncoding, compressionOptions, sendsEncoding } from './compression.js';
import { notGrpcAnswer, notGrpcHead } from './answer-type.js';
import { withoutIpServername } from './tls-name.js';

quietGrpcLog();

/** A call's channel with its credentials; `proxy`: the proxy it is tunnelled through, when not direct. */
export interface OpenedChannel {
  host: string;
  credentials: grpc.ChannelCredentials;
  channel: grpc.Channel;
  proxy?: string;
  /** How the channel's calls compress their messages (the request's grpc-encoding), which grpc-js says in a header of its own; undefined: not at all. */
  encoding: 'gzip' | 'deflate' | undefined;
}

/**
 * The channel a request's call (or the app's method list) goes over, with its credentials. Ferry's
 * proxy rules choose its path as for HTTP (grpcs:// as https://, grpc:// as http://; noProxy,
 * loopback and `settings.proxy: false` go direct); grpc-js's own reading of grpc_proxy /
 * https_proxy / http_proxy is turned off, so those variables cannot send a call elsewhere. Its
 * calls' messages are compressed as the request's `grpc-encoding` says (compression.ts).
 */
export function openChannel(prepared: PreparedRequest, context: SendContext): OpenedChannel {
  const url = new URL(prepared.url);
  if (url.search !== '' && url.search !== '?') {
    // HTTP/2 paths of gRPC are the method's; a query (params, an API key in the query) would be dropped without a word.
    const names = [...new Set(url.searchParams.keys())].join(', ');
    throw new SendError(`a gRPC request has no query string, so the URL's query (${names}) cannot be sent; send it as metadata: a header, or the API key with location header.`, 'invalid');
  }
  // Before the channel: a refused grpc-encoding must not leave one open.
  const compression = compressionOptions(prepared.headers);
  const encoding = channelEncoding(compression);
  const secure = url.protocol === 'grpcs:';
  const host = callAuthority(url);
  const verify = prepared.settings?.verifyTls !== false;
  // The CAs and client certificate of this computer's settings, as for https:// (a secure context takes PFX too).
  const credentials = secure
    ? withoutIpServername(grpc.credentials.createFromSecureContext(tls.createSecureContext(context.agents.targetTls(url)), verify ? {} : { rejectUnauthorized: false, checkServerIdentity: () => undefined }))
    : grpc.credentials.createInsecure();
  const options: grpc.ChannelOptions = { 'grpc.max_receive_message_length': maxMessageBytes(context.maxResponseMb), 'grpc.primary_user_agent': 'ferry', 'grpc.enable_http_proxy': 0, ...ONE_ATTEMPT, ...compression };
  const proxy = context.agents.proxyFor(new URL(`${secure ? 'https' : 'http'}://${host}`), prepared.settings?.proxy === false);
  if (!proxy) return { host, credentials, channel: new grpc.Channel(host, credentials, options), encoding };
  const tunnel = proxiedChannel(host, url.hostname, proxy, options);
  return { host, credentials, channel: new grpc.Channel(tunnel.target, credentials, tunnel.options), proxy, encoding };
}

/**
 * What the words of a status grpc-js made up need (client-status.ts): the server, the time limit,
 * the headers the call sends. `deadline`: whether the call has one (a live call has none). Taken
 * just before the call starts, after server reflection's calls, whose answers may have turned the
 * channel's compression off (compression.ts `sendsEncoding`).
 */
export function callWhere(opened: OpenedChannel, metadata: grpc.Metadata, timeoutMs: number, deadline: boolean): CallWhere {
  return { host: opened.host, timeoutMs, sentEntries: metadataPairs(metadata).length, deadline, compressed: sendsEncoding(opened.channel, opened.encoding) };
}

/**
 * One connection attempt per request, its time limit `settings.timeoutMs`. After a failed attempt
 * (a refused tunnel, a proxy that hung up) grpc-js tried again after its 1 s backoff even once the
 * channel was closed, a second CONNECT (proxy credentials included) no request asked for; and a
 * subchannel shared between channels carried one request's failure into the next. Each channel
 * has subchannels of its own, and the backoff outlasts any request (~11 days; with grpc-js's 20%
 * jitter still within Node's longest timer). A call fails at its first failed attempt anyway
 * (grpc-js's calls do not wait for ready), so no request waits for a retry.
 */
const ONE_ATTEMPT: grpc.ChannelOptions = { 'grpc.use_local_subchannel_pool': 1, 'grpc.initial_reconnect_backoff_ms': 1e9, 'grpc.max_reconnect_backoff_ms': 1e9 };

/** The method a request names, from its proto files or by server reflection, and its call type. */
export interface LoadedMethod {
  definition: PackageDefinition;
  def: MethodDefinition<object, object>;
  callType: CallType;
  service: string;
  method: string;
}

/** Loads the request's method (proto files, else reflection over `channel`): the one loader of `send` and `connect`. */
export async function loadMethod(prepared: PreparedRequest, context: SendContext, opened: OpenedChannel, metadata: grpc.Metadata, signal?: AbortSignal): Promise<LoadedMethod> {
  const { credentials, channel } = opened;
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
  const { service, method } = splitMethod(prepared.method);
  const options = (prepared.options ?? {}) as { protoFiles?: string[]; importPaths?: string[] };
  if (signal?.aborted) throw cancelledError();
  let definition: PackageDefinition;
  if ((options.protoFiles ?? []).some((f) => f.trim() !== '')) {
    definition = await loadProtoFiles({ protoFiles: options.protoFiles ?? [], importPaths: options.importPaths ?? [], workspaceRoot: context.workspaceRoot, allowFilesOutside: context.allowFilesOutside });
  } else {
    definition = await withCancel(loadByReflection(channel, credentials, service, metadata, deadline, signingInterceptors(prepared)), signal, cancelledError).catch((error: unknown) => {
      if (error instanceof ReflectionFailure) throw reflectionError(error, opened, metadata, timeoutMs, deadline !== undefined);
      throw error;
    });
  }
  const def = findMethod(definition, service, method);
  const callType: CallType = def.requestStream ? (def.responseStream ? 'bidiStreaming' : 'clientStreaming') : def.responseStream ? 'serverStreaming' : 'unary';
  return { definition, def, callType, service, method };
}

/**
 * A server reflection that failed, as the request's error, in the words a method's call has: an
 * answer that is not gRPC (answer-type.ts), a connection failure (`failure`), a status grpc-js
 * made up (client-status.ts: a reset for too many header fields); else grpc-js's own words.
 */
export function reflectionError(error: ReflectionFailure, opened: OpenedChannel, metadata: grpc.Metadata, timeoutMs: number, deadline: boolean): SendError {
  const { host, channel, proxy } = opened;
  const notGrpc = error.ended && notGrpcAnswer(error.ended.headers, error.ended.status, host);
  if (notGrpc) return notGrpc;
  const unreached = failure(error.status, error.message, host, timeoutMs, isReady(channel), proxy);
  if (unreached) return unreached;
  // Reflection's calls send the request's metadata, as the method's does.
  const where = callWhere(opened, metadata, timeoutMs, deadline);
  if (error.ended && clientEnded(error.ended.status, where)) return new SendError(`server reflection failed: ${endLabel(error.ended.status, where)}.`, 'protocol');
  return new SendError(`server reflection failed: ${error.message}.`, 'protocol');
}

const cancelledError = () => new SendError('the request was cancelled.', 'other');

export async function sendGrpc(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  // Metadata first: a refused entry must not leave a channel open (grpc-js keeps every open one in its registry).
  const metadata = requestMetadata(prepared.headers);
  const opened = openChannel(prepared, context);
  const { host, credentials, channel, proxy } = opened;
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  const started = performance.now();
  const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : undefined;

  try {
    const { definition, def, callType, service, method } = await loadMethod(prepared, context, opened, metadata, signal);
    const requests = parseMessages(bodyText(prepared), def.requestStream).map((m, i, all) => encode(def, definition, m, all.length > 1 ? i : undefined));
    const where = callWhere(opened, metadata, timeoutMs, deadline !== undefined);
    const answer = await exchange({ channel, credentials, host, def, definition, callType, requests, metadata, interceptors: signingInterceptors(prepared), deadline, stream: prepared.stream, signal, started, maxResponseMb: context.maxResponseMb });
    if (answer.cancelled) throw cancelledError();
    if (answer.broken) throw answer.broken;
    const notGrpc = notGrpcAnswer(answer.headers, answer.status, host);
    if (notGrpc) throw notGrpc;
    const tooLarge = tooLargeForUs(answer.status, context.maxResponseMb, requests.reduce((most, r) => Math.max(most, r.bytes.length), 0));
    if (tooLarge) throw tooLarge;
    if (answer.status.code !== grpc.status.OK && !answer.stoppedEarly && !answer.gotHeaders) {
      // A status without headers: the server's trailers-only answer if the channel was connected, else the connection failed.
      const error = failure(statusName(answer.status.code), answer.status.details, host, timeoutMs, answer.connected, proxy);
      if (error) throw error;
    }
    return result(answer, { url: prepared.url, service, method, callType, started, where });
  } finally {
    channel.close();
  }
}

/** The request's body as text (the message JSON). */
export function bodyText(prepared: PreparedRequest): string {
  return prepared.body.kind === 'bytes' ? Buffer.from(prepared.body.bytes).toString('utf8') : '';
}

/** The message as protobuf bytes; fields checked first so a mistake is named. */
export function encode(def: MethodDefinition<object, object>, definition: PackageDefinition, message: unknown, index: number | undefined): { json: string; bytes: Buffer } {
  const fitted = fitMessage(definition, def.requestType, message, index);
  try {
    return { json: JSON.stringify(message), bytes: def.requestSerialize(fitted) };
  } catch (error) {
    throw new SendError(`${index === undefined ? 'the message' : `message ${index + 1}`} does not fit ${(def.requestType.type as { name?: string }).name ?? 'the request type'}: ${(error as Error).message}.`, 'other');
  }
}

/**
 * An answer's bytes as JSON text, its well-known types (Timestamp, Struct…) in their proto3 JSON
 * forms. Bytes that are not a well-formed message of the response type (wire-check.ts) throw a
 * SendError naming the method and what was wrong; `index`: the message's place in a stream.
 */
export function decode(def: MethodDefinition<object, object>, definition: PackageDefinition, bytes: Buffer, index?: number): string {
  const type = def.responseType.type as TypeDescriptor;
  const malformed = (why: string) =>
    new SendError(`${index === undefined ? '' : `message ${index + 1} of `}the answer of ${def.path.replace(/^\//, '')} is not a valid ${type.name} message: ${why}; the server sent a malformed message.`, 'protocol');
  const wrong = malformation(definition, type, bytes);
  if (wrong) throw malformed(wrong);
  let message: unknown;
  try {
    message = def.responseDeserialize(bytes);
  } catch (error) {
    throw malformed((error as Error).message);
  }
  return JSON.stringify(toProto3Json(definition, type, message));
}

/** Whether `channel` is connected now (read before it is closed: a closed channel is SHUTDOWN). */
export function isReady(channel: grpc.Channel): boolean {
  return channel.getConnectivityState(false) === grpc.connectivityState.READY;
}

/**
 * A status that means the call never reached the server: the SendError for it, else undefined (a
 * real answer). `ready`: whether the channel was connected when the status came; a status
 * without headers on a connected channel is the server's trailers-only answer (its own
 * DEADLINE_EXCEEDED or UNAVAILABLE) or the call's deadline, not a failure to connect. `proxy`:
 * the channel's proxy, which a failure to connect is then put on (grpc-js does not say whether
 * the proxy was unreachable, asked for credentials or refused the tunnel).
 */
export function failure(status: string | undefined, details: string, host: string, timeoutMs: number, ready: boolean, proxy?: string): SendError | undefined {
  // The call reached the server, which dropped the connection, reset the stream or answered HTTP only: an answer (client-status.ts), whatever the channel's state now.
  if (reachedServer(details)) return undefined;
  if (status === 'DEADLINE_EXCEEDED' && !ready) {
    return new SendError(`timed out after ${timeoutMs} ms ${TIMEOUT_SETTING} before the connection to ${host}${proxy ? ` through the proxy ${describeProxy(proxy)}` : ''} was ready.`, 'timeout');
  }
  if (status !== 'UNAVAILABLE' || ready && !/No connection established|Failed to connect/i.test(details)) return undefined;
  const code = systemCode(details);
  // grpc-js's words, e.g. "No connection established. Last error: Protocol error (2026-…). Resolution note: .": the last error alone.
  const last = details.replace(/^.*Last error: (Error: )?/s, '').replace(/\s*\(\d{4}-\d\d-\d\dT[\d:.]+Z\)/, '').replace(/\.?\s*Resolution note:.*$/s, '').trim();
  // The usual mix-ups, named: TLS to a plaintext server, plaintext to a TLS one, a server that is not HTTP/2.
  const notTls = notTlsReason(last);
  if (notTls) {
    return new SendError(`TLS error with ${host}: the server does not answer TLS (${notTls}); for a plaintext gRPC server use grpc:// instead of grpcs://.`, 'tls');
  }
  if (proxy && !/^Protocol error$/i.test(last)) {
    // grpc-js's last error may be "undefined" (it rejected without an Error): then nothing is quoted.
    const why = last === '' || last === 'undefined' ? '' : ` (${last.split('\n')[0]})`;
    return proxyFailure(proxy, host) ?? new SendError(`could not connect to ${host} through the proxy ${describeProxy(proxy)}${why}: the proxy could not be reached, or would not open a tunnel. ${SETTING_HINT}`, 'proxy');
  }
  const known = connectionErrorByCode(code, host, last);
  if (known) return known;
  if (/^Failed to connect$/i.test(last)) return new SendError(`${host} closed the connection before HTTP/2 was set up; if it is a TLS server, use grpcs:// instead of grpc://.`, 'reset');
  if (/^Protocol error$/i.test(last)) return new SendError(`${host} does not speak HTTP/2 (Protocol error), which gRPC runs over: is it a gRPC server, and the port right?`, 'protocol');
  return new SendError(`could not connect to ${host}: ${last.split('\n')[0]}.`, 'reset');
}

interface Exchange {
  channel: grpc.Channel;
  credentials: grpc.ChannelCredentials;
  host: string;
  def: MethodDefinition<object, object>;
  definition: PackageDefinition;
  callType: CallType;
  requests: Array<{ json: string; bytes: Buffer }>;
  metadata: grpc.Metadata;
  /** A signed request's signs the call for its own path (call-signing.ts). */
  interceptors: grpc.Interceptor[];
  deadline: number | undefined;
  stream: PreparedRequest['stream'];
  signal: AbortSignal | undefined;
  started: number;
  /** A stream's messages are read up to this many MB in all (0: no limit). */
  maxResponseMb: number;
}

/** Runs the call by its type and resolves when its status arrives (or reading stops by the stream rule). */
function exchange(x: Exchange): Promise<Answer> {
  const client = new grpc.Client(x.host, x.credentials, { channelOverride: x.channel, interceptors: x.interceptors });
  const answer: Answer = { status: { code: grpc.status.UNKNOWN, details: '', metadata: new grpc.Metadata() }, gotHeaders: false, connected: false, received: 0, receivedBytes: 0, stoppedEarly: false, cancelled: false };
  const streaming = x.callType !== 'unary';
  const messages = streaming ? new MessageStream(x.stream ?? DEFAULT_STREAM) : undefined;
  answer.stream = messages;
  const identity = (b: Buffer) => b;
  let decoded = 0;
  const read = (bytes: Buffer) => {
    answer.receivedBytes += bytes.length;
    answer.firstAt ??= performance.now();
    if (streamingAnswer(x.callType) && answer.receivedBytes > maxResponseBytes(x.maxResponseMb, Infinity)) {
      answer.broken ??= streamTooLarge(x.maxResponseMb);
      throw answer.broken;
    }
    try {
      return decode(x.def, x.definition, bytes, streamingAnswer(x.callType) ? decoded++ : undefined);
    } catch (error) {
      // grpc-js ends the call INTERNAL ("Response message parsing error"); the request fails with this instead.
      answer.broken ??= error as SendError;
      throw error;
    }
  };
  const options: grpc.CallOptions = x.deadline ? { deadline: x.deadline } : {};
  const ignore = () => {};
  // Every call is made as a stream of answers: grpc-js reads only one message of a unary or
  // client-streaming answer, so a second one sat unread, the status behind it, until the
  // deadline. Read as a stream (the wire is the same), a second message is seen and refused.
  const path = x.def.path;
  const call: grpc.ClientReadableStream<string> | grpc.ClientDuplexStream<Buffer, string> =
    x.callType === 'unary' || x.callType === 'serverStreaming'
      ? client.makeServerStreamRequest(path, identity, read, x.requests[0]!.bytes, x.metadata, options)
      : client.makeBidiStreamRequest(path, identity, read, x.metadata, options);
  for (const r of x.requests) messages?.sent({ text: r.json });
  if (x.callType === 'clientStreaming' || x.callType === 'bidiStreaming') {
    const writable = call as grpc.ClientDuplexStream<Buffer, string>;
    for (const r of x.requests) writable.write(r.bytes);
    writable.end();
  }

  return new Promise<Answer>((resolve) => {
    const finish = () => {
      x.signal?.removeEventListener('abort', onAbort);
      messages?.clear();
      client.close();
      resolve(answer);
    };
    const onAbort = () => {
      answer.cancelled = true;
      call.cancel();
    };
    x.signal?.addEventListener('abort', onAbort, { once: true });
    if (x.signal?.aborted) onAbort();
    call.on('metadata', (headers: grpc.Metadata) => {
      answer.headers = headers;
      answer.gotHeaders = true;
      answer.firstAt ??= performance.now();
      // Not gRPC by its head (a page, a proxy's answer): ended now, sendGrpc saying so (notGrpcAnswer).
      // grpc-js would read the body as frames until it ends, and one kept open never does.
      if (notGrpcHead(headers)) call.cancel();
    });
    const events = call as unknown as NodeJS.EventEmitter;
    events.on('error', ignore); // the status event carries the same facts
    events.on('data', (text: string) => {
      if (!streamingAnswer(x.callType) && answer.received > 0) {
        answer.broken ??= new SendError(`${tooManyMessages(x.callType, path)}.`, 'protocol');
        call.cancel();
        return;
      }
      if (answer.received++ === 0) answer.first = text;
      // The stop rule reads streams of answers; a unary or client-streaming call waits for its status.
      if (messages?.received({ text }) && streamingAnswer(x.callType)) {
        answer.stoppedEarly = true;
        call.cancel();
      }
    });
    // Set when the call's status came: reading ended with it, whatever the stop is called then.
    let ended = false;
    void messages?.done.then((why) => {
      if (!ended && why !== 'closed' && why !== 'event' && why !== 'maxEvents') {
        answer.stoppedEarly = true;
        call.cancel();
      }
    });
    call.on('status', (status: grpc.StatusObject) => {
      answer.connected = isReady(x.channel);
      answer.status = readStatus(status, !streamingAnswer(x.callType), answer.received);
      // A stream the call's own deadline ended stopped at the time limit; the server did not close it.
      ended = true;
      if (!answer.stoppedEarly) {
        if (endedAtDeadline(answer.status)) messages?.stop('timeout');
        else messages?.closed();
      }
      finish();
    });
  });
}

/** Why a unary or client-streaming call's answer of more than one message is refused (without the final period). */
export function tooManyMessages(callType: CallType, path: string): string {
  const type = callType === 'unary' ? 'unary' : 'client-streaming';
  return `the server answered the ${type} call ${path.replace(/^\//, '')} with more than one message; a ${type} call answers with exactly one, so the server broke the gRPC protocol`;
}

/** Whether the server answers with a stream of messages (server streaming, bidirectional). */
export function streamingAnswer(callType: CallType): boolean {
  return callType === 'serverStreaming' || callType === 'bidiStreaming';
}

function withCancel<T>(promise: Promise<T>, signal: AbortSignal | undefined, cancelled: () => Error): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
