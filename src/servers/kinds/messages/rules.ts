/**
 * What a WebSocket, TCP or UDP server answers a message with (spec 2.11 `mode`, `rules`): echo
 * sends it back, `rules` the first enabled rule that matches, `manual` and `discard` nothing.
 * Compiled once per load; text replies are templates with `{{message}}`, hex ones fixed bytes.
 */
import type { SocketEncoding } from '../../../model/index.js';
import { compile, type Template } from '../../../template/index.js';
import { ServerError } from '../../errors.js';
import { checkWait } from '../wait.js';
import { compileMatcher, type MatchKind } from './pattern.js';
import { parseHex, formatHex } from './payload.js';

export type Mode = 'echo' | 'rules' | 'manual' | 'discard';

export interface RuleSource {
  match: MatchKind;
  pattern: string;
  reply: string;
  delayMs: number;
  enabled: boolean;
}

/** A received message as rules see it: its text (trailing CR/LF removed) and bytes. */
export interface Subject {
  text: string;
  bytes: Uint8Array;
}

export interface CompiledRule {
  /** 1-based, as the file lists it, for the traffic log. */
  number: number;
  matches(subject: Subject): boolean;
  /** A text reply (rendered per message) or fixed bytes (hex encoding). */
  reply: Template | Buffer;
  delayMs: number;
}

/**
 * Compiles the enabled rules. In hex encoding patterns and replies are byte pairs: `contains` and
 * `exact` compare bytes, `regex` runs on the message's hex text (`de ad be ef`).
 */
export function compileRules(rules: readonly RuleSource[], section: string, file: string, encoding: SocketEncoding, replyPlace: 'ws.reply' | 'socket.reply'): CompiledRule[] {
  const out: CompiledRule[] = [];
  rules.forEach((rule, i) => {
    if (!rule.enabled) return;
    const where = `${file}: ${section}.rules[${i}]`;
    checkWait(rule.delayMs, `${section}.rules[${i}].delayMs`, file);
    let matches: (s: Subject) => boolean;
    let reply: Template | Buffer;
    if (encoding === 'hex') {
      reply = hexOrThrow(rule.reply, `${where}: reply`);
      if (rule.match === 'regex' || rule.match === 'any') {
        const m = compileMatcher(rule.match, rule.pattern, where);
        matches = (s) => m(formatHex(s.bytes));
      } else {
        const want = hexOrThrow(rule.pattern, `${where}: pattern`);
        matches = rule.match === 'exact' ? (s) => Buffer.from(s.bytes).equals(want) : (s) => Buffer.from(s.bytes).includes(want);
      }
    } else {
      const m = compileMatcher(rule.match, rule.pattern, where);
      matches = (s) => m(s.text);
      reply = compile(rule.reply, replyPlace);
    }
    out.push({ number: i + 1, matches, reply, delayMs: rule.delayMs });
  });
  return out;
}

export function firstMatch(rules: readonly CompiledRule[], subject: Subject): CompiledRule | undefined {
  for (const rule of rules) if (rule.matches(subject)) return rule;
  return undefined;
}

export function hexOrThrow(text: string, where: string): Buffer {
  const bytes = parseHex(text);
  if (typeof bytes === 'string') throw new ServerError(`${where} is not valid hex (encoding is hex): ${bytes}.`);
  return bytes;
}
