/**
 * A call's status in words: its name, the status message as reports show it (`5 NOT_FOUND: no
 * greeting for x`, as grpcurl prints it), why a request without tests fails on it, and the
 * statuses grpc-js gives without the words a report needs.
 */
import * as grpc from '@grpc/grpc-js';

const STATUS_NAMES = Object.fromEntries(Object.entries(grpc.status).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v, k])) as Record<number, string>;

/** A status code's name (`NOT_FOUND`); `UNKNOWN_N` for a code gRPC does not have. */
export function statusName(code: number): string {
  return STATUS_NAMES[code] ?? `UNKNOWN_${code}`;
}

/**
 * A call's status as Ferry reads it, a send's (call.ts) and a live call's (live.ts) alike: the
 * statuses grpc-js gives without words get them, and a call answering with one message (unary,
 * client-streaming: `oneAnswer`, `received` the messages that came) that ended OK without it is
 * INTERNAL: grpc-js's "No message received" (none, or a frame cut short) is told only to a
 * callback, and it is not an empty answer.
 */
export function readStatus(status: grpc.StatusObject, oneAnswer: boolean, received: number): grpc.StatusObject {
  const read = typeof status.code !== 'number' ? unreadableMessage(status) : Number.isInteger(status.code) ? status : notAStatus(status);
  if (oneAnswer && read.code === grpc.status.OK && received === 0) {
    return { ...read, code: grpc.status.INTERNAL, details: 'the server ended the call with status OK but sent no whole message; a unary or client-streaming call answers with exactly one' };
  }
  return read;
}

/**
 * grpc-js's status when its compression filter refused a message (marked compressed without a
 * grpc-encoding, one it does not know, or bytes that do not inflate): it passes the filter's Error
 * on as the status, without its words: code and details are undefined, and the reports crashed
 * on them. Such a call is INTERNAL, as grpc-js's own refusals of an answer are.
 */
function unreadableMessage(status: grpc.StatusObject): grpc.StatusObject {
  return { code: grpc.status.INTERNAL, details: "the server's message is marked compressed and could not be decompressed", metadata: status.metadata ?? new grpc.Metadata() };
}

/** grpc-js reads a grpc-status that is not a number as NaN; gRPC's clients take it as UNKNOWN. */
function notAStatus(status: grpc.StatusObject): grpc.StatusObject {
  return { ...status, code: grpc.status.UNKNOWN, details: "the server's grpc-status is not a status code" };
}

/** Rich details in a failure's reason are cut past this many characters (the JSON report has them whole). */
const DETAILS_SHOWN = 500;

/** The server's status message; '' when it sent none (grpc-js then fills in the status's name, `OK`). */
export function statusMessage(code: number, details: string): string {
  const name = statusName(code);
  return details === name || details === `${code} ${name}` ? '' : details;
}

/**
 * The status as reports show it: code, name and the status message's first line, as grpcurl
 * prints them (`Code:`, `Message:`): `5 NOT_FOUND: no greeting for x`.
 */
export function statusLabel(code: number, details: string): string {
  const message = statusMessage(code, details).trim().split('\n')[0]!;
  return `${code} ${statusName(code)}${message ? `: ${message}` : ''}`;
}

/** Why a request without tests fails on its status (whose label has the status message), with the rich details as grpcurl prints them (`Details:`). */
export function failedRule(rich?: unknown[]): string {
  const json = rich?.length ? JSON.stringify(rich) : '';
  const shown = json.length > DETAILS_SHOWN ? `${json.slice(0, DETAILS_SHOWN)}… (cut; the JSON report's detail.statusDetails has them all)` : json;
  return `${shown ? `details ${shown}; ` : ''}a gRPC request without tests fails unless its status is 0 OK`;
}
