/**
 * A gRPC call kept open in the app (issue 26): the channel and the method come from the same code
 * as `send` (call.ts `openChannel`, `loadMethod`, `encode`). Client-streaming and bidirectional
 * methods: each `send` writes one JSON message (checked against the request type), the `end`
 * operation half-closes. A server-streaming method gets its one request message (the request's
 * body) on connect, then only reads. Unary methods are refused: Send is the way to call them.
 * The response headers, each server message, the trailers and the status arrive as received
 * messages (labelled `headers`, `trailers`, `status`); the status ends the connection.
 */
import * as grpc from '@grpc/grpc-js';
import type { PreparedRequest } from '../../request/prepared.js';
import type { SendContext } from '../kind.js';
import { openLive } from '../live/connection.js';
import type { ConnectHandlers, LiveConnection, OutgoingMessage } from '../live/types.js';
import { SendError } from '../send-error.js';
import type { MessageStream } from '../stream/messages.js';
import { StreamSession } from '../stream/session.js';
import { bodyText, callWhere, decode, encode, failure, isReady, loadMethod, openChannel, streamingAnswer, tooManyMessages, type LoadedMethod } from './call.js';
import { readStatus, statusLabel, statusName } from './status.js';
import { clientEnded, endLabel } from './client-status.js';
import { parseMessages } from './messages.js';
import { metadataPairs, requestMetadata } from './metadata.js';
import { signingInterceptors } from './call-signing.js';
import { tooLargeForUs } from './answer-limit.js';
import { notGrpcAnswer, notGrpcHead } from './answer-type.js';

type LiveCall = grpc.ClientReadableStream<string> | grpc.ClientDuplexStream<Buffer, string>;

export async function connectGrpc(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  // Metadata first: a refused entry must not leave a channel open (as call.ts's sendGrpc).
  const metadata = requestMetadata(prepared.headers);
  const opened = openChannel(prepared, context);
  const { host, credentials, channel, proxy } = opened;
  let loaded: LoadedMethod;
  let first: { json: string; bytes: Buffer } | undefined;
  try {
    loaded = await loadMethod(prepared, context, opened, metadata, signal);
    if (loaded.callType === 'unary') {
      throw new SendError(`${prepared.method} is a unary method (one message each way): there is no stream to keep open; use Send.`, 'unsupported');
    }
    // Checked before connecting, so a bad body is named without opening a call.
    if (loaded.callType === 'serverStreaming') first = encode(loaded.def, loaded.definition, parseMessages(bodyText(prepared), false)[0], undefined);
  } catch (error) {
    channel.close();
    throw error;
  }
  const { def, definition, callType } = loaded;
  const writes = callType === 'clientStreaming' || callType === 'bidiStreaming';
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  /** For the words of a status grpc-js made up (client-status.ts); the call has no deadline. */
  const where = callWhere(opened, metadata, timeoutMs, false);
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  const client = new grpc.Client(host, credentials, { channelOverride: channel, interceptors: signingInterceptors(prepared) });
  let call: LiveCall | undefined;
  let status: grpc.StatusObject | undefined;
  let halfClosed = false;
  /** How the server broke gRPC (a second answer to a client stream), said instead of the status it caused. */
  let broken: string | undefined;
  /** The largest message sent so far: a server refusing it past its limit is not our limit's refusal. */
  let largestSent = 0;
  /** The answer's headers, for the check that it is gRPC at all (answer-type.ts). */
  let headers: grpc.Metadata | undefined;
  /** A message of the answer that is not one of the response type (call.ts `decode`), said instead of grpc-js's 13 INTERNAL. */
  let malformed: SendError | undefined;
  session.onClose(() => {
    call?.cancel();
    client.close();
    channel.close();
  });

  const start = () => {
    const identity = (b: Buffer) => b;
    // Numbered as a send numbers a stream's messages; grpc-js ends the call INTERNAL ("Response message parsing error") on a throw.
    let decoded = 0;
    const read = (bytes: Buffer) => {
      try {
        return decode(def, definition, bytes, streamingAnswer(callType) ? decoded++ : undefined);
      } catch (error) {
        malformed ??= error as SendError;
        throw error;
      }
    };
    const ignore = () => {};
    switch (callType) {
      case 'serverStreaming':
        call = client.makeServerStreamRequest(def.path, identity, read, first!.bytes, metadata, {});
        break;
      default:
        // A client stream too, as call.ts's exchange makes it: grpc-js ended a client stream
        // answered twice as a status 12 UNIMPLEMENTED "Too many responses received" the server
        // never sent; read as a stream, the call is ended saying how the server broke gRPC.
        call = client.makeBidiStreamRequest(def.path, identity, read, metadata, {});
    }
    if (first) {
      largestSent = first.bytes.length;
      session.messages?.sent({ text: first.json });
    }
    const events = call as unknown as NodeJS.EventEmitter;
    events.on('error', ignore); // the status event carries the same facts
    let answers = 0;
    events.on('data', (text: string) => {
      if (callType === 'clientStreaming' && answers > 0) {
        broken ??= tooManyMessages(callType, def.path);
        call?.cancel();
        return;
      }
      answers++;
      session.messages?.received({ text });
    });
    call.on('metadata', (got: grpc.Metadata) => {
      headers = got;
      session.messages?.received({ event: 'headers', text: JSON.stringify(metadataPairs(got)) });
      // Not gRPC by its head (a page, a proxy's answer): ended now, the status below saying so.
      // grpc-js would read the body as frames until it ends, and one kept open never does.
      if (notGrpcHead(got)) call?.cancel();
    });
    call.on('status', (given: grpc.StatusObject) => {
      // Worded as a send words it (status.ts): grpc-js's statuses without words, a client stream ended OK without its answer.
      const got = readStatus(given, callType === 'clientStreaming', answers);
      status = got;
      const messages = session.messages;
      if (!messages) {
        // The call ended before the channel was ready: the connection failed.
        session.fail(failure(statusName(got.code), got.details, host, timeoutMs, isReady(channel), proxy) ?? new SendError(`the call to ${host} ended before it started: ${statusName(got.code)} ${got.details}.`, 'reset'));
        return;
      }
      // How the answer broke gRPC, in a send's words (not as a status the server sent): a message
      // not of the response type, an answer that is not gRPC, a message past maxResponseMb.
      const error = malformed ?? notGrpcAnswer(headers, got, host) ?? tooLargeForUs(got, context.maxResponseMb, largestSent);
      if (error) {
        session.fail(error);
        return;
      }
      const trailers = metadataPairs(got.metadata);
      if (trailers.length > 0) messages.received({ event: 'trailers', text: JSON.stringify(trailers) });
      messages.endWith('closed', { event: 'status', text: broken ?? endLabel(got, where) });
    });
  };

  // Open once the channel is ready, so a server that waits for the first message does not stall
  // connecting; a channel that cannot connect still starts the call, whose status names the failure.
  const watch = () => {
    if (session.isOver) return;
    const state = channel.getConnectivityState(true);
    if (state === grpc.connectivityState.READY) {
      session.open();
      start();
    } else if (state === grpc.connectivityState.TRANSIENT_FAILURE || state === grpc.connectivityState.SHUTDOWN) {
      start();
    } else {
      channel.watchConnectivityState(state, Infinity, watch);
    }
  };
  watch();

  const writable = () => call as grpc.ClientDuplexStream<Buffer, string>;
  const refuseWrite = (what: string) => {
    if (!writes) throw new SendError(`${prepared.method} is server-streaming: its one request message was sent on connect, so ${what}.`, 'unsupported');
    if (halfClosed) throw new SendError(`the call to ${prepared.method} was half-closed (End), so ${what}; connect again to send more.`, 'other');
  };
  return openLive(session, {
    noun: `the gRPC call to ${prepared.method}`,
    info: () => ({ url: prepared.url, headers: [], httpVersion: '2', detail: { service: loaded.service, method: loaded.method, callType } }),
    send: async (message: OutgoingMessage, messages: MessageStream) => {
      refuseWrite('the message was not sent');
      const encoded = encode(def, definition, liveJson(message), undefined);
      largestSent = Math.max(largestSent, encoded.bytes.length);
      await new Promise<void>((resolve, reject) => {
        writable().write(encoded.bytes, (error: Error | null | undefined) => (error ? reject(new SendError(`the message was not sent: ${error.message}.`, 'reset')) : resolve()));
        messages.sent({ text: encoded.json });
      });
    },
    operations: {
      end: async (_params, messages) => {
        refuseWrite('End was not done');
        halfClosed = true;
        writable().end();
        messages.sent({ event: 'end', text: '' });
        return undefined;
      },
    },
    peerEnd: () => broken ?? (status ? (clientEnded(status, where) ? endLabel(status, where) : `the server ended the call: ${statusLabel(status.code, status.details)}`) : 'the server ended the call'),
  });
}

/** The composer's text as one JSON message (an object; its fields are checked by `encode`). */
function liveJson(message: OutgoingMessage): unknown {
  if (message.format !== 'json' && message.format !== 'text') {
    throw new SendError(`a gRPC message is JSON (the request type's fields), not ${message.format}; choose the json format.`, 'invalid');
  }
  try {
    return JSON.parse(message.text);
  } catch (error) {
    throw new SendError(`the message is not valid JSON (${(error as Error).message}); a gRPC message is a JSON object of the request type's fields.`, 'invalid');
  }
}
