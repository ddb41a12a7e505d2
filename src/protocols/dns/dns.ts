/**
 * DNS requests (spec 2.8 `dns`): `url` is the name, `method` the record type, `dns.server` where
 * to ask and `dns.recursion` the RD flag. Over UDP a truncated answer (TC) is asked again over TCP.
 * The answer is a response whatever its rcode: NOERROR passes without tests, anything else
 * (NXDOMAIN…) is for tests to judge and fails without them.
 */
import dns from 'node:dns';
import { performance } from 'node:perf_hooks';
import dnsPacket from 'dns-packet';
import { DEFAULT_SETTINGS } from '../../model/index.js';
import type { PreparedRequest } from '../../request/prepared.js';
import { connectionError } from '../connection-errors.js';
import { Deadline } from '../deadline.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { SendError } from '../send-error.js';
import { dnsQuestion, dnsServer, type DnsQuestion, type DnsServer } from './question.js';
import { recordData } from '../../support/dns-rdata.js';
import { recordJson, zoneLine, type DnsRecordJson } from './records.js';
import { systemResolve } from './system.js';
import { httpsQuery, streamQuery, udpQuery, type Wire } from './transports.js';

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];
const rcodeName = (rcode: number) => RCODES[rcode] ?? `RCODE${rcode}`;

interface Answer {
  rcode: number;
  flags: string[];
  answer: DnsRecordJson[];
  authority: DnsRecordJson[];
  additional: DnsRecordJson[];
  transport: string;
  truncated?: boolean;
  size: number;
  remoteAddress?: string;
}

export async function sendDns(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const question = dnsQuestion(prepared);
  const server = dnsServer(prepared);
  const recursion = prepared.options?.recursion !== false;
  const settings = prepared.settings ?? DEFAULT_SETTINGS;
  const deadline = new Deadline(settings.timeoutMs, signal);
  const started = performance.now();
  const wire: Wire = { deadline, started, timings: { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, totalMs: 0 } };
  try {
    const answer = server.transport === 'system' ? await system(question, deadline) : await onTheWire(question, server, recursion, prepared, context, signal, wire, settings.verifyTls);
    wire.timings.totalMs = performance.now() - started;
    if (server.transport === 'system') wire.timings.firstByteMs = wire.timings.totalMs;
    return result(prepared, question, server, answer, wire.timings);
  } catch (error) {
    if (error instanceof SendError) throw error;
    const where = server.transport === 'system' ? 'the system resolver' : server.label;
    throw connectionError(error, where, where) ?? new SendError(`DNS query to ${where} failed: ${(error as Error).message}.`, 'other');
  } finally {
    deadline.clear();
  }
}

async function system(question: DnsQuestion, deadline: Deadline): Promise<Answer> {
  const resolver = new dns.promises.Resolver();
  const answer = await new Promise<Awaited<ReturnType<typeof systemResolve>>>((resolve, reject) => {
    deadline.attach((error) => {
      resolver.cancel();
      reject(error);
    });
    systemResolve(question, resolver).then(resolve, reject);
  });
  return { rcode: answer.rcode, flags: [], answer: answer.records, authority: [], additional: [], transport: 'system', size: 0 };
}

async function onTheWire(
  question: DnsQuestion,
  server: Exclude<DnsServer, { transport: 'system' }>,
  recursion: boolean,
  prepared: PreparedRequest,
  context: SendContext,
  signal: AbortSignal | undefined,
  wire: Wire,
  verifyTls: boolean,
): Promise<Answer> {
  const id = Math.floor(Math.random() * 65536);
  const query = dnsPacket.encode({ type: 'query', id, flags: recursion ? dnsPacket.RECURSION_DESIRED : 0, questions: [{ type: question.type, name: question.name, class: 'IN' }] });
  let raw: Buffer;
  let transport: string = server.transport;
  let truncated = false;
  let remoteAddress: string | undefined;
  if (server.transport === 'https') {
    ({ answer: raw, remoteAddress } = await httpsQuery(query, server.url, prepared, context, signal, wire));
  } else {
    remoteAddress = server.host;
    if (server.transport === 'udp') {
      raw = await udpQuery(query, server.host, server.port, wire);
      // TC: the answer did not fit in a datagram; ask again over TCP for all of it (RFC 7766).
      if (raw.length >= 4 && (raw.readUInt16BE(2) & dnsPacket.TRUNCATED_RESPONSE) !== 0) {
        truncated = true;
        transport = 'tcp';
        raw = await streamQuery(query, server.host, server.port, false, {}, wire);
      }
    } else {
      const secure = server.transport === 'tls';
      // DNS over TLS trusts caFiles and sends the server's client certificate, as https:// does.
      const tlsOptions = secure ? { ...context.agents.targetTls(new URL(`tls://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}`)), rejectUnauthorized: verifyTls } : {};
      raw = await streamQuery(query, server.host, server.port, secure, tlsOptions, wire);
    }
  }
  let packet: dnsPacket.DecodedPacket;
  try {
    packet = dnsPacket.decode(raw);
  } catch (error) {
    throw new SendError(`${server.label} answered something that is not a DNS message (${(error as Error).message}).`, 'protocol');
  }
  if (packet.id !== id && server.transport !== 'https') throw new SendError(`${server.label} answered another query (id ${packet.id}, asked ${id}).`, 'protocol');
  const flags = (['qr', 'aa', 'tc', 'rd', 'ra', 'ad', 'cd'] as const).filter((flag) => (packet as unknown as Record<string, boolean>)[`flag_${flag}`]);
  // Each record with its bytes, in the message's order (OPT included), so CAA and the like are read from them.
  const data = recordData(raw);
  let index = 0;
  const records = (list: dnsPacket.Answer[] | undefined) =>
    (list ?? []).map((r) => [r, data?.[index++]] as const).filter(([r]) => r.type !== 'OPT').map(([r, bytes]) => recordJson(r, bytes));
  return {
    rcode: (packet.flags ?? 0) & 0xf,
    flags,
    answer: records(packet.answers),
    authority: records(packet.authorities),
    additional: records(packet.additionals),
    transport,
    ...(truncated ? { truncated } : {}),
    size: raw.length,
    ...(remoteAddress ? { remoteAddress } : {}),
  };
}

function result(prepared: PreparedRequest, question: DnsQuestion, server: DnsServer, answer: Answer, timings: ProtocolResult['timings']): ProtocolResult {
  const rcode = rcodeName(answer.rcode);
  const body = Buffer.from(JSON.stringify(answer.answer, null, 2));
  return {
    outcome: { status: answer.rcode, text: rcode, ok: answer.rcode === 0, rule: 'a DNS request without tests fails unless the answer is NOERROR' },
    headers: [],
    body,
    bodySize: answer.size,
    size: answer.size,
    url: prepared.url,
    timings,
    ...(answer.remoteAddress ? { remoteAddress: answer.remoteAddress } : {}),
    detail: {
      question: `${question.name}. IN ${question.type}`,
      rcode,
      flags: answer.flags,
      server: server.transport === 'system' ? 'system resolver' : server.label,
      transport: answer.transport,
      ...(answer.truncated ? { truncatedOverUdp: true } : {}),
      answer: answer.answer.map(zoneLine),
      authority: answer.authority.map(zoneLine),
      additional: answer.additional.map(zoneLine),
      records: { answer: answer.answer, authority: answer.authority, additional: answer.additional },
    },
  };
}
