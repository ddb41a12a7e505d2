/**
 * The one adapter from any kind's answer (`ProtocolResult`) to what a run reports (`RequestResult`)
 * and what post-response scripts read (`pm.response`).
 */
import type { ProtocolResult } from '../protocols/index.js';
import type { ScriptResponse } from '../scripts/index.js';
import type { RequestResult } from './events.js';

export function recordAnswer(result: RequestResult, answer: ProtocolResult): void {
  result.status = answer.outcome.status;
  result.statusText = answer.outcome.text;
  result.statusOk = answer.outcome.ok;
  if (answer.outcome.rule) result.statusRule = answer.outcome.rule;
  if (answer.outcome.label) result.statusLabel = answer.outcome.label;
  if (answer.outcome.noCode) result.statusNoCode = true;
  result.durationMs = Math.round(answer.timings.totalMs);
  result.size = answer.size;
  if (answer.httpVersion) result.httpVersion = answer.httpVersion;
  if (answer.remoteAddress) result.remoteAddress = answer.remoteAddress;
  result.timings = answer.timings;
  if (answer.stream) result.stream = answer.stream;
  if (answer.messages) result.messages = answer.messages;
  if (answer.detail) result.detail = answer.detail;
}

export function scriptResponse(answer: ProtocolResult): ScriptResponse {
  return {
    code: answer.outcome.status,
    status: answer.outcome.text,
    headers: answer.headers,
    ...(answer.trailers ? { trailers: answer.trailers } : {}),
    ...(answer.outcome.message !== undefined ? { statusMessage: answer.outcome.message } : {}),
    bodyBytes: answer.body,
    responseTime: Math.round(answer.timings.totalMs),
    responseSize: answer.bodySize,
    ...(answer.messages ? { messages: answer.messages } : {}),
  };
}

/** A result's status as reports show it: the kind's label (gRPC `5 NOT_FOUND: no such user`), else `status statusText`; '' when nothing answered. */
export function statusShown(r: Pick<RequestResult, 'status' | 'statusText' | 'statusLabel'>): string {
  if (r.status === undefined) return '';
  return r.statusLabel ?? `${r.status}${r.statusText ? ` ${r.statusText}` : ''}`;
}

/**
 * Why a request without tests failed on its status, one wording for every report (the terminal's
 * failure line, JUnit's failure message): `status 5 NOT_FOUND: no greeting for x: a gRPC request
 * without tests fails unless its status is 0 OK`.
 */
export function statusReason(r: Pick<RequestResult, 'status' | 'statusText' | 'statusLabel' | 'statusRule'>): string {
  return `status ${statusShown(r)}: ${r.statusRule ?? 'a request without tests fails at 400 and above'}`;
}
