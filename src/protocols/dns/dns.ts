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
import { typeName } from '../../support/dns-text.js';
import { recordJson, zoneLine, type DnsRecordJson } from './records.js';
import { askedThroughNode, systemResolve } from './system.js';
import { dnsAddressLabel, systemDnsServers } from '../../support/dns-address.js';
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
  /** The system's DNS server that answered, when `dns.server` is empty and the type was asked on the wire. */
  via?: string;
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
    const throughNode = server.transport === 'system' && askedThroughNode(question.type);
    const answer =
      server.transport !== 'system'
        ? await onTheWire(question, server, recursion, prepared, context, signal, wire, settings.verifyTls)
        : throughNode
          ? await system(question, deadline)
          : await systemServers(question, recursion, prepared, context, signal, wire, settings);
    wire.timings.totalMs = performance.now() - started;
    if (throughNode) wire.timings.firstByteMs = wire.timings.totalMs;
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

/**
 * How long one of the system's DNS servers is given before the next is asked: the 5 s that
 * resolv.conf's `timeout` defaults to. The last one has what is left of settings.timeoutMs.
 */
const SYSTEM_SERVER_MS = 5000;

/**
 * A type node's resolver cannot ask (NAPTR, HTTPS, SVCB, DS, DNSKEY, ANY…), with `dns.server`
 * empty: asked of the DNS servers this computer is configured with (resolv.conf, as node read
 * it), in order, over UDP (TCP when truncated) as a named server is, so the answer is the one
 * kdig gets from that server (flags, TTLs, rcode). The first that answers is the answer; one
 * that refuses or stays silent is passed over.
 */
async function systemServers(
  question: DnsQuestion,
  recursion: boolean,
  prepared: PreparedRequest,
  context: SendContext,
  signal: AbortSignal | undefined,
  wire: Wire,
  settings: { timeoutMs: number; verifyTls: boolean },
): Promise<Answer> {
  const servers = systemDnsServers();
  if (servers.length === 0) {
    throw new SendError(`this computer has no DNS server configured (none in /etc/resolv.conf, or the network settings on Windows) to ask for ${question.type} ${question.name}; name one in dns.server.`, 'other');
  }
  const failures: string[] = [];
  let lastKind: SendError['kind'] = 'other';
  for (const [i, { host, port }] of servers.entries()) {
    const label = dnsAddressLabel(host, port);
    const left = settings.timeoutMs > 0 ? Math.max(1, settings.timeoutMs - (performance.now() - wire.started)) : 0;
    const last = i === servers.length - 1;
    const allowedMs = last ? left : left > 0 ? Math.min(left, SYSTEM_SERVER_MS) : SYSTEM_SERVER_MS;
    const attempt = new Deadline(allowedMs, signal);
    try {
      const answer = await onTheWire(question, { transport: 'udp', host, port, label }, recursion, prepared, context, signal, { ...wire, deadline: attempt }, settings.verifyTls);
      return { ...answer, via: label };
    } catch (error) {
      if (signal?.aborted) throw error;
      const failure = error instanceof SendError ? error : connectionError(error, label, label);
      lastKind = failure?.kind ?? 'other';
      failures.push(failure?.kind === 'timeout' ? `${label} did not answer within ${Math.round(allowedMs)} ms` : (failure?.message ?? `${label}: ${(error as Error).message}`).replace(/\.$/, ''));
    } finally {
      attempt.clear();
    }
  }
  const which = servers.length === 1 ? "this computer's DNS server did not answer" : `none of this computer's ${servers.length} DNS servers answered`;
  throw new SendError(`${which} ${question.type} ${question.name} (${failures.join('; ')}); check the network, or name a server in dns.server.`, lastKind);
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
  const query = dnsPacket.encode({ type: 'query', id, flags: recursion ? dnsPacket.RECURSION_DESIRED : 0, questions: [{ type: question.wireType, name: question.name, class: 'IN' }] });
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
        raw = await streamQuery(query, server.host, server.port, false, {}, wire).catch((error: unknown) => {
          // The UDP server answered: without this, a UDP-only server read as one not there at all.
          const failed = error instanceof SendError ? error : connectionError(error, server.label, server.host);
          if (!failed || failed.kind === 'timeout' || signal?.aborted) throw error;
          throw new SendError(`${server.label} answered over UDP with the TC flag (the answer did not fit in a datagram), and asking again over TCP failed: ${failed.message}`, failed.kind);
        });
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
  // A message without QR is a query: an echo service, or a peer that is no DNS server, sends ours back.
  if (!(packet as { flag_qr?: boolean }).flag_qr) throw new SendError(`${server.label} sent back a query, not an answer (its QR flag is not set): is it a DNS server? Check dns.server.`, 'protocol');
  const other = otherQuestion(dnsPacket.decode(query).questions![0]!, packet.questions);
  if (other) throw new SendError(`${server.label} answered another question (${other}) than the one asked (${question.name} ${question.type}).`, 'protocol');
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

/**
 * The answer's question when it is not the one asked (RFC 5452 §9.1: id and question must both
 * match), as `name TYPE`. Letter case may differ (servers echo 0x20 mixing); an answer without
 * a question (a FORMERR may leave it out) is not another question.
 */
function otherQuestion(asked: dnsPacket.Question, got: dnsPacket.Question[] | undefined): string | undefined {
  const answered = got?.[0];
  if (answered === undefined) return undefined;
  const same = answered.name.toLowerCase() === asked.name.toLowerCase() && answered.type === asked.type && answered.class === asked.class;
  return same ? undefined : `${answered.name} ${typeName(answered.type)}${answered.class === 'IN' ? '' : ` ${answered.class}`}`;
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
      server: server.transport !== 'system' ? server.label : answer.via !== undefined ? `system resolver (${answer.via})` : 'system resolver',
      transport: answer.transport,
      ...(answer.truncated ? { truncatedOverUdp: true } : {}),
      answer: answer.answer.map(zoneLine),
      authority: answer.authority.map(zoneLine),
      additional: answer.additional.map(zoneLine),
      records: { answer: answer.answer, authority: answer.authority, additional: answer.additional },
    },
  };
}
