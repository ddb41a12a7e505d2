/**
 * A gRPC call's answer (what `exchange` in call.ts gathered) as the result every kind gives: the
 * status and its words (the server's, or those of a status grpc-js made up: client-status.ts),
 * headers and trailers, the first message as the body, a stream's messages, and the detail.
 */
import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import type { ProtocolResult } from '../kind.js';
import type { SendError } from '../send-error.js';
import type { MessageStream } from '../stream/messages.js';
import { clientEnded, endLabel, type CallWhere } from './client-status.js';
import { metadataPairs } from './metadata.js';
import { STATUS_DETAILS_KEY, statusDetails } from './status-details.js';
import { failedRule, statusLabel, statusMessage, statusName } from './status.js';

export type CallType = 'unary' | 'serverStreaming' | 'clientStreaming' | 'bidiStreaming';

export interface Answer {
  status: grpc.StatusObject;
  headers?: grpc.Metadata;
  gotHeaders: boolean;
  /** Whether the channel was connected when the status came, so the server (or the call's deadline) ended the call, not a failure to connect. */
  connected: boolean;
  /** The first message's text (the body) and how many came: a long stream's other messages are the MessageStream's, bounded there. */
  first?: string;
  received: number;
  receivedBytes: number;
  firstAt?: number;
  stream?: MessageStream;
  stoppedEarly: boolean;
  cancelled: boolean;
  /** How the answer broke gRPC (a malformed message, a second message to a unary call), which fails the request. */
  broken?: SendError;
}


/** `where`: the server and deadline, for the words of a status grpc-js made up (client-status.ts), when the server said nothing. */
export function result(answer: Answer, about: { url: string; service: string; method: string; callType: CallType; started: number; where: CallWhere }): ProtocolResult {
  const totalMs = performance.now() - about.started;
  const stopped = answer.stoppedEarly && !answer.cancelled;
  const byClient = stopped ? undefined : clientEnded(answer.status, about.where);
  const code = stopped ? grpc.status.OK : answer.status.code;
  const first = answer.first ?? '';
  const headers = metadataPairs(answer.headers);
  const trailers = stopped ? [] : metadataPairs(answer.status.metadata);
  const richDetails = stopped ? undefined : statusDetails(answer.status.metadata?.get(STATUS_DETAILS_KEY)[0]);
  const body = Buffer.from(first, 'utf8');
  const headerBytes = headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return {
    outcome: {
      status: code,
      text: statusName(code),
      ok: code === grpc.status.OK,
      label: stopped ? statusLabel(code, '') : endLabel(answer.status, about.where),
      message: stopped || byClient ? '' : statusMessage(code, answer.status.details),
      ...(code === grpc.status.OK ? {} : { rule: failedRule(richDetails) }),
    },
    headers,
    trailers,
    body,
    bodyType: 'application/json',
    bodySize: answer.receivedBytes,
    size: answer.receivedBytes + headerBytes,
    url: about.url,
    timings: { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: answer.firstAt ? answer.firstAt - about.started : totalMs, totalMs },
    httpVersion: '2',
    ...(answer.stream ? { messages: answer.stream.messages, stream: answer.stream.summary() } : {}),
    detail: {
      service: about.service,
      method: about.method,
      callType: about.callType,
      status: code,
      statusName: statusName(code),
      statusMessage: stopped ? `the stream was not read to its end (stopped by ${answer.stream?.stoppedBy}); the server's status was not awaited` : byClient ? '' : answer.status.details,
      ...(byClient ? { endedByClient: `${byClient} (grpc-js: ${answer.status.details})` } : {}),
      trailers,
      ...(richDetails ? { statusDetails: richDetails } : {}),
      ...(about.callType === 'unary' || about.callType === 'clientStreaming' ? {} : { received: answer.received }),
    },
  };
}
