/**
 * The TCP and UDP servers' answer to one message (spec 2.11): the bytes to send and when, from
 * the mode and rules. Text replies are rendered with `{{message}}` and get the `lineEnding`; hex
 * replies are sent as written.
 */
import type { LineEnding, SocketEncoding } from '../../../model/index.js';
import { messageText, type Template, type VariableScope } from '../../../template/index.js';
import type { PushOptions, SendForm } from '../../types.js';
import { type CompiledRule, firstMatch, hexOrThrow, type Mode } from './rules.js';
import { notReading } from './not-reading.js';
import { LINE_ENDING_TEXT } from './payload.js';

export interface SocketState {
  mode: Mode;
  rules: CompiledRule[];
  encoding: SocketEncoding;
  lineEnding: LineEnding;
  variables: VariableScope;
}

export interface Answer {
  bytes: Buffer;
  delayMs: number;
  rule?: number;
}

/** What to send back for `content` (echo: `wire`, the bytes as received), or undefined for nothing. */
export function answerMessage(state: SocketState, content: Buffer, wire: Buffer): Answer | undefined {
  if (state.mode === 'echo') return { bytes: wire, delayMs: 0 };
  if (state.mode !== 'rules') return undefined;
  const text = state.encoding === 'text' ? messageText(content) : '';
  const rule = firstMatch(state.rules, { text, bytes: content });
  if (rule === undefined) return undefined;
  if (Buffer.isBuffer(rule.reply)) return { bytes: rule.reply, delayMs: rule.delayMs, rule: rule.number };
  const reply = (rule.reply as Template).render({ variables: state.variables, message: content }) + LINE_ENDING_TEXT[state.lineEnding];
  return { bytes: Buffer.from(reply, 'utf8'), delayMs: rule.delayMs, rule: rule.number };
}

/**
 * The bytes a send from the traffic panel puts on the wire: hex as the bytes it spells (not
 * templated, spec 8.2), text with its variables filled in and the server's line ending.
 */
export function pushedBytes(state: Pick<SocketState, 'encoding' | 'lineEnding'>, data: string, options: PushOptions): Buffer {
  if (state.encoding === 'hex') return hexOrThrow(data, 'the message');
  return Buffer.from((options.fill ? options.fill(data) : data) + LINE_ENDING_TEXT[state.lineEnding]);
}

/** The traffic panel's send form for the TCP and UDP servers: no event name; hex when the server's encoding is. */
export function socketSendForm(state: SocketState | undefined): SendForm {
  return { event: false, hex: state?.encoding === 'hex' };
}

/**
 * The traffic panel's send for the TCP and UDP servers: `data` made into bytes once
 * (`pushedBytes`) and given to each peer's `send`, or only to the one `options.to` names (a peer's
 * `address:port`), less peers with `waiting` bytes unsent past the limit (not-reading.ts); how
 * many peers it reached.
 */
export function pushToPeers(state: SocketState, data: string, options: PushOptions, peers: Iterable<readonly [peer: string, send: (bytes: Buffer) => void, waiting?: number]>): number {
  const bytes = pushedBytes(state, data, options);
  let count = 0;
  for (const [peer, send, waiting] of peers) {
    if (options.to !== undefined && options.to !== peer) continue;
    if (waiting !== undefined && notReading(peer, waiting, options)) continue;
    send(bytes);
    count++;
  }
  return count;
}
