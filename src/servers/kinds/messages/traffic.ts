/**
 * Traffic records of message-speaking kinds (WebSocket, Socket.IO, TCP, UDP, the relay): a client
 * connecting and leaving, and each message in or out, with a bounded preview. Worded here once so
 * `ferry serve` prints them alike for every such kind.
 */
import { performance } from 'node:perf_hooks';
import type { ServerKind } from '../../../model/index.js';
import { epochMsOf } from '../../traffic.js';
import type { TrafficDirection, TrafficRecord } from '../../types.js';

export interface MessageDetail {
  /** The client, `127.0.0.1:53412`. */
  peer: string;
  event: 'connect' | 'close' | 'message' | 'error';
  /** The message's preview (text in quotes, or hex), empty for connect/close. */
  preview: string;
  /** The rule that answered (1-based), for replies. */
  rule?: number;
}

export type MessageRecord = TrafficRecord<MessageDetail>;

const ARROWS: Record<TrafficDirection, string> = { in: '←', out: '→', exchange: '↔' };

/** One record; `start` is a `performance.now()` reading. */
export function messageRecord(
  kind: ServerKind,
  server: string,
  direction: TrafficDirection,
  detail: MessageDetail,
  sizes: { bytesIn?: number; bytesOut?: number; start?: number; note?: string; level?: TrafficRecord['level'] },
): MessageRecord {
  // A message has no duration: one cheap wall-clock read (an echo server makes one record per
  // message). A connection's close reads the monotonic clock for its duration.
  let time: number;
  let durationMs = 0;
  if (sizes.start === undefined) time = Date.now();
  else {
    durationMs = performance.now() - sizes.start;
    time = epochMsOf(sizes.start);
  }
  const summary = summaryOf(direction, detail);
  const level = sizes.level ?? (detail.event === 'error' ? 'error' : 'info');
  const bytesIn = sizes.bytesIn ?? 0;
  const bytesOut = sizes.bytesOut ?? 0;
  // The note in the literal, not added after it: added, it gave every echo's record a second block of properties.
  return sizes.note === undefined
    ? { kind, server, time, direction, summary, level, durationMs, bytesIn, bytesOut, detail }
    : { kind, server, time, direction, summary, level, durationMs, bytesIn, bytesOut, detail, note: sizes.note };
}

/** `← 127.0.0.1:53412 ` of the last record, reused: a client's messages come in runs. */
let prefixDirection: TrafficDirection | undefined;
let prefixPeer = '';
let prefixText = '';

/** `← 127.0.0.1:53412 "hello"`, `↔ 127.0.0.1:53412 close code 1000`, `→ … "pong" (rule 2)` */
function summaryOf(direction: TrafficDirection, detail: MessageDetail): string {
  if (direction !== prefixDirection || detail.peer !== prefixPeer) {
    prefixDirection = direction;
    prefixPeer = detail.peer;
    prefixText = `${ARROWS[direction]} ${detail.peer} `;
  }
  const what = detail.event === 'message' ? detail.preview : detail.preview === '' ? detail.event : `${detail.event} ${detail.preview}`;
  return detail.rule !== undefined ? `${prefixText}${what} (rule ${detail.rule})` : prefixText + what;
}
