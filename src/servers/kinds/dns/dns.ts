/**
 * The DNS server (spec 2.11 `dns`): UDP and TCP on one port. Each query is answered from the
 * zone (`zone.ts`); a name without a record is NXDOMAIN or forwarded to the `upstream`. UDP
 * answers over 512 bytes (or the client's EDNS size) are truncated (TC set, records dropped) so
 * the client asks again over TCP; over TCP, answers over the 65,535 bytes a message can be are
 * truncated the same way. At most CONNECTION_CAPS.dnsTcp TCP connections are kept at once.
 */
import dgram from 'node:dgram';
import net, { type Socket } from 'node:net';
import dnsPacket, { type DecodedPacket, type Packet } from 'dns-packet';
import { ServerError } from '../../errors.js';
import { CONNECTION_CAPS, capConnections } from '../../connection-cap.js';
import { bindError, type Listener } from '../../listener.js';
import type { BindOptions, KindContext, KindSettings, ServerKindModule, SocketKindInstance } from '../kind.js';
import { lengthPrefixed } from '../../../support/byte-framing.js';
import { firstQuestion, questionLabels, recordData } from '../../../support/dns-rdata.js';
import { serverDeframer } from '../messages/framing.js';
import { messageRecord } from '../messages/traffic.js';
import { readAfterDrain } from '../stream-listener.js';
import { nameText, typeName } from '../../../support/dns-text.js';
import { answerLine, type DnsDetail, dnsRecord } from './dns-traffic.js';
import { chainQuery, chainRest, forward, parseUpstream, systemUpstream, type Upstream } from './upstream.js';
import { Zone } from './zone.js';
import { kindSection } from '../../../model/index.js';

const UDP_LIMIT = 512;
/** The most one DNS message over TCP can be: its length prefix has two bytes. */
const TCP_LIMIT = 65_535;
const NXDOMAIN = 3;
const SERVFAIL = 2;
const FORMERR = 1;
const NOTIMP = 4;
const REFUSED = 5;
/** The header's opcode bits (RFC 1035 4.1.1): 0 is QUERY, the only kind of message this server answers. */
const OPCODE_BITS = 0x7800;
/**
 * Queries that may wait on the upstream at once; past this a query is answered SERVFAIL without
 * asking (as BIND does past its recursive-clients), so a burst of queries cannot open a socket
 * each without bound (EMFILE) or flood the upstream.
 */
const MAX_FORWARDING = 256;
/** Binding UDP and TCP to the same free port can race with other programs: tries. */
const BIND_TRIES = 5;

/**
 * `tcpIdleMs`: a TCP connection with nothing received or sent for this long is closed (RFC 7766
 * 6.2.3 recommends servers close idle connections; BIND and Knot wait a few seconds to 10 s).
 * A field, not a constant, so tests can shorten it.
 */
export const DNS_TIMINGS = { tcpIdleMs: 10_000 };

interface State {
  zone: Zone;
  upstream: Upstream | 'system' | undefined;
}

class DnsKind implements SocketKindInstance {
  #state: State | undefined;
  /** The bound port, so an upstream that is this server itself is not asked (a loop). */
  #port = 0;
  /** Queries waiting on the upstream now. */
  #forwarding = 0;

  constructor(private readonly context: KindContext) {}

  configure({ server }: KindSettings): void {
    const file = this.context.file;
    if (server.tls?.enabled) throw new ServerError(`${file}: tls: the DNS server has no TLS; set tls.enabled to false.`);
    const section = kindSection(server, 'dns');
    this.#state = { zone: new Zone(section.records, file), upstream: parseUpstream(section.upstream, file) };
  }

  openStreams(): number {
    return 0;
  }

  close(): void {}

  async listen(bind: BindOptions): Promise<Listener> {
    let lastError: unknown;
    for (let i = 0; i < (bind.port === 0 ? BIND_TRIES : 1); i++) {
      try {
        return await this.#bindBoth(bind);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  }

  async #bindBoth(bind: BindOptions): Promise<Listener> {
    const udp = dgram.createSocket({ type: 'udp4' });
    await new Promise<void>((resolve, reject) => {
      udp.once('error', (error: NodeJS.ErrnoException) => reject(bindError(error, bind)));
      udp.bind({ address: bind.host, port: bind.port, exclusive: true }, () => resolve());
    });
    udp.removeAllListeners('error');
    udp.on('error', () => {});
    const port = udp.address().port;
    this.#port = port;
    const sockets = new Set<Socket>();
    const tcp = net.createServer((socket) => this.#tcpClient(socket, sockets));
    const max = CONNECTION_CAPS.dnsTcp;
    const why = `${max.toLocaleString('en-US')} TCP connections are open already, the DNS server's limit; close some (UDP is still answered), or spread the clients over a second server`;
    capConnections(tcp, max, why, (peer, preview) => this.context.traffic.add(messageRecord('dns', this.context.id, 'exchange', { peer, event: 'error', preview }, {})));
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', (error: NodeJS.ErrnoException) => reject(bindError(error, { ...bind, port })));
        tcp.listen({ host: bind.host, port, exclusive: true }, () => resolve());
      });
    } catch (error) {
      await new Promise<void>((r) => udp.close(() => r()));
      throw error;
    }
    tcp.on('error', () => {});
    let closing: Promise<void> | undefined;
    udp.on('message', (query, from) => {
      void this.#answerSafely(query, 'udp', `${from.address}:${from.port}`).then((answer) => {
        // An answer from the upstream can come after the server stopped: sending on the closed
        // socket threw, an unhandled rejection that ended `ferry serve`.
        if (answer !== undefined && closing === undefined) udp.send(answer, from.port, from.address);
      });
    });
    return {
      url: `dns://127.0.0.1:${port}`,
      port,
      connections: () => sockets.size,
      close: () =>
        (closing ??= (async () => {
          for (const socket of sockets) socket.destroy();
          await Promise.all([new Promise<void>((r) => tcp.close(() => r())), new Promise<void>((r) => udp.close(() => r()))]);
        })()),
    };
  }

  /** DNS over TCP: each message has a two-byte length prefix; a client may ask several questions. */
  #tcpClient(socket: Socket, sockets: Set<Socket>): void {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    const start = performance.now();
    const idleMs = DNS_TIMINGS.tcpIdleMs;
    socket.setTimeout(idleMs, () => {
      // Answers still waiting to go out: the client is not reading them (it is not read either).
      const unread = socket.writableLength > 0;
      const note = unread ? `its answers not read for ${idleMs / 1000} s: closed by the server` : `idle for ${idleMs / 1000} s: closed by the server`;
      const level = unread ? { level: 'warning' as const } : {};
      this.context.traffic.add(messageRecord('dns', this.context.id, 'exchange', { peer, event: 'close', preview: '' }, { start, bytesIn: socket.bytesRead, bytesOut: socket.bytesWritten, note, ...level }));
      socket.destroy();
    });
    const deframer = serverDeframer({ framing: 'lengthPrefixed', lengthBytes: 2 });
    // A query begun must be whole within the idle time: a client dripping a byte at a time (or
    // whose length prefix promises more than it sends) kept the connection, and up to 64 KB of it,
    // without end, since each byte restarted the idle time (as Knot's tcp-io-timeout bounds it).
    let unfinished: NodeJS.Timeout | undefined;
    socket.once('close', () => clearTimeout(unfinished));
    const watchUnfinished = () => {
      if (deframer.heldLength === 0) {
        clearTimeout(unfinished);
        unfinished = undefined;
        return;
      }
      unfinished ??= setTimeout(() => {
        unfinished = undefined;
        // Not read for answers the client does not read: unfinished by the server's doing; the
        // idle time closes it if it stays so, and the next read starts this time again.
        if (socket.isPaused()) return;
        const note = `a query not finished in ${idleMs / 1000} s (${deframer.heldLength.toLocaleString('en-US')} of ${deframer.awaitedLength.toLocaleString('en-US')} bytes came): closed by the server`;
        this.context.traffic.add(messageRecord('dns', this.context.id, 'exchange', { peer, event: 'close', preview: '' }, { start, bytesIn: socket.bytesRead, bytesOut: socket.bytesWritten, note, level: 'warning' }));
        socket.destroy();
      }, idleMs);
    };
    socket.on('data', (chunk: Buffer) => {
      let queries;
      try {
        queries = deframer.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      watchUnfinished();
      for (const { content } of queries) {
        void this.#answerSafely(content, 'tcp', peer).then((answer) => {
          if (answer === undefined || socket.destroyed) return;
          // A client that pipelines queries without reading the answers is not read either until
          // they have gone out (as a pipe waits for its reader), so they cannot pile up here.
          if (!socket.write(lengthPrefixed(answer, 2))) readAfterDrain(socket);
        });
      }
    });
  }

  /**
   * `#answer`, but a failure of Ferry's own (a bug, not the query's fault) answers SERVFAIL and says
   * so in the traffic, instead of an unhandled rejection that would end `ferry serve` and every
   * server in it.
   */
  async #answerSafely(raw: Buffer, transport: 'udp' | 'tcp', peer: string): Promise<Buffer | undefined> {
    const start = performance.now();
    try {
      return await this.#answer(raw, transport, peer);
    } catch (error) {
      let answer: Buffer | undefined;
      try {
        if (raw.length >= 2) answer = Buffer.from(dnsPacket.encode({ type: 'response', id: raw.readUInt16BE(0), flags: SERVFAIL, questions: [] }));
      } catch {
        answer = undefined; // the encoder is what failed: the client's own timeout answers it
      }
      const why = `Ferry's DNS server failed unexpectedly answering this query (${String(error)}). This is a bug in Ferry: please report it with the server's file; the server goes on.`;
      this.#record({ peer, transport, name: '', type: '', rcode: 'SERVFAIL', answers: 0, why }, start, raw.length, answer?.length ?? 0);
      return answer;
    }
  }

  /** The answer's bytes, or undefined when the query cannot even be read (no id to answer) or is a response. */
  async #answer(raw: Buffer, transport: 'udp' | 'tcp', peer: string): Promise<Buffer | undefined> {
    const start = performance.now();
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(raw);
    } catch {
      if (raw.length < 2) return undefined;
      const answer = Buffer.from(dnsPacket.encode({ type: 'response', id: raw.readUInt16BE(0), flags: FORMERR, questions: [] }));
      this.#record({ peer, transport, name: '', type: '', rcode: 'FORMERR', answers: 0 }, start, raw.length, answer.length);
      return answer;
    }
    const question = query.questions?.[0];
    const state = this.#state!;
    const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const base = { peer, transport, name: question === undefined ? '' : shownName(raw, question), type: typeName(question?.type) };
    if (query.type === 'response') {
      // A response is not answered (as BIND drops them): two servers answering each other's
      // answers, one address spoofed, would send packets back and forth without end.
      this.#record({ ...base, rcode: 'not answered', answers: 0, why: 'a response (QR set), not a query: answering it could loop between two servers' }, start, raw.length, 0);
      return undefined;
    }
    // A query with EDNS (an OPT record) gets one back in every answer, errors too (RFC 6891 6.1.1:
    // responders MUST include it); without it, resolvers such as systemd-resolved take the server
    // for one that drops EDNS and fall back to plain DNS.
    const edns = answerEdns(query);
    const opcode = (query.flags ?? 0) & OPCODE_BITS;
    if (opcode !== 0) {
      // A dynamic UPDATE or a NOTIFY answered as a query of its zone read as done (knsupdate
      // said so) while nothing changed: NOTIMP, with the opcode kept, as RFC 1035 asks and Knot does.
      const answer = dnsPacket.encode({ type: 'response', id: query.id, flags: opcode | NOTIMP | rd, questions: question === undefined ? [] : [question], ...edns });
      const name = OPCODES[opcode >> 11] ?? `OPCODE ${opcode >> 11}`;
      this.#record({ ...base, type: `${name} ${base.type}`.trim(), rcode: 'NOTIMP', answers: 0, why: `not done: this server answers queries only (opcode QUERY), not ${name}` }, start, raw.length, answer.length);
      return answer;
    }
    // RFC 9619: a query asks one question; answering the first alone (as before) passed the others
    // over in silence. FORMERR, as BIND and Knot answer it.
    const asking = query.questions?.length ?? 0;
    if (question === undefined || asking > 1) {
      const answer = dnsPacket.encode({ type: 'response', id: query.id, flags: FORMERR | rd, questions: [], ...edns });
      const why = asking > 1 ? { why: `${asking} questions in one query; a query asks one (RFC 9619)` } : {};
      this.#record({ ...base, rcode: 'FORMERR', answers: 0, ...why }, start, raw.length, answer.length);
      return answer;
    }
    // The records are of class IN: a question of another class (CH, HS) has none here. It goes to
    // the upstream like a name without records, else is REFUSED (as BIND and Knot answer it).
    const inClass = question.class === undefined || question.class === 'IN' || question.class === 'ANY';
    // A name dns-packet cannot write back as sent (a dot inside a label, bytes that are not UTF-8)
    // is no name of the records: it is answered as one without records, its question as sent.
    const asked = askedQuestion(raw, question);
    const encode = (packet: Packet) => (asked === undefined ? dnsPacket.encode(packet) : withQuestion(dnsPacket.encode(packet), asked));
    const version = (opt(query) as { ednsVersion?: number } | undefined)?.ednsVersion ?? 0;
    if (version > 0) {
      // RFC 6891 6.1.3: a version the responder does not implement MUST get BADVERS (16: the
      // OPT's extended RCODE 1 over the header's 0) and the version it does speak, so the client
      // asks again with version 0.
      const answer = encode({ type: 'response', id: query.id, flags: rd, questions: [question], additionals: [{ ...answerOpt(query), extendedRcode: 1 } as dnsPacket.Answer] });
      this.#record({ ...base, rcode: 'BADVERS', answers: 0, why: `EDNS version ${version} asked; this server speaks version 0` }, start, raw.length, answer.length);
      return answer;
    }
    if (question.type === 'AXFR' || question.type === 'IXFR') {
      // The records are no zone to transfer: refused, as BIND refuses a transfer not allowed (an
      // empty NOERROR left kdig saying the first record "isn't SOA").
      const refused = encode({ type: 'response', id: query.id, flags: REFUSED | rd, questions: [question], ...edns });
      this.#record({ ...base, rcode: 'REFUSED', answers: 0, why: `zone transfers are not served: the records are in ${this.context.file}` }, start, raw.length, refused.length);
      return refused;
    }
    const found = inClass && asked === undefined ? state.zone.lookup(question.name, String(question.type)) : { answers: [], unknown: true, nxdomain: true };
    if ((found.unknown || found.chainEnd !== undefined) && state.upstream !== undefined) {
      const chosen = state.upstream === 'system' ? systemUpstream() : state.upstream;
      const self = chosen !== undefined && isSelf(chosen, this.#port);
      const busy = this.#forwarding >= MAX_FORWARDING;
      const upstream = self || busy ? undefined : chosen;
      // A CNAME chain that leaves the records is completed by the upstream, as a recursive server
      // completes it: a stub resolver (glibc, an app) given only the CNAME finds no address.
      const sent = found.unknown ? raw : chainQuery(found.chainEnd!, question, edns);
      let relayed: Buffer | undefined;
      if (upstream) {
        this.#forwarding++;
        try {
          relayed = await forward(sent, upstream, transport);
        } finally {
          this.#forwarding--;
        }
      }
      if (upstream && relayed && found.unknown) {
        this.#record({ ...base, rcode: rcodeOf(relayed), answers: answerCount(relayed), upstream: upstream.label, records: relayedLines(relayed) }, start, raw.length, relayed.length);
        return relayed;
      }
      const rest = upstream && relayed ? chainRest(relayed, sent) : undefined;
      if (rest !== undefined) return this.#reply(query, question, transport, encode, { answers: [...found.answers, ...rest.answers], rcode: rest.rcode, upstream: upstream!.label, truncated: rest.truncated }, base, start, raw.length);
      const why = chosen === undefined ? 'system (none configured)' : self ? `${chosen.label}, which is this server itself` : busy ? `${chosen.label}, not asked: ${MAX_FORWARDING} queries already wait for it` : chosen.label;
      // What the records hold of the chain goes along with the SERVFAIL, as a resolver sends it.
      const failed = encode({ type: 'response', id: query.id, flags: SERVFAIL | rd, questions: [question], answers: found.answers, ...edns });
      this.#record({ ...base, rcode: 'SERVFAIL', answers: found.answers.length, upstream: why, records: found.answers.map((record) => answerLine(record)) }, start, raw.length, failed.length);
      return failed;
    }
    if (!inClass) {
      const refused = encode({ type: 'response', id: query.id, flags: REFUSED | rd, questions: [question], ...edns });
      this.#record({ ...base, rcode: 'REFUSED', answers: 0 }, start, raw.length, refused.length);
      return refused;
    }
    return this.#reply(query, question, transport, encode, { answers: found.answers, rcode: found.nxdomain ? NXDOMAIN : 0 }, base, start, raw.length);
  }

  /** The answer from the records (and an upstream's end of a CNAME chain), truncated past what the transport carries. */
  #reply(
    query: DecodedPacket,
    question: dnsPacket.Question,
    transport: 'udp' | 'tcp',
    encode: (packet: Packet) => Buffer,
    found: { answers: dnsPacket.Answer[]; rcode: number; upstream?: string; truncated?: boolean },
    base: Pick<DnsDetail, 'peer' | 'transport' | 'name' | 'type'>,
    start: number,
    bytesIn: number,
  ): Buffer {
    const rd = (query.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const edns = answerEdns(query);
    const packet: Packet = { type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | rd | found.rcode, questions: [question], answers: found.answers, ...edns };
    let answer = encode(packet);
    let truncated = found.truncated === true;
    if (truncated || answer.length > (transport === 'udp' ? udpLimit(query) : TCP_LIMIT)) {
      answer = encode({ ...packet, flags: packet.flags! | dnsPacket.TRUNCATED_RESPONSE, answers: [] });
      truncated = true;
    }
    const records = truncated ? [] : found.answers.map((record) => answerLine(record));
    const upstream = found.upstream === undefined ? {} : { upstream: found.upstream };
    this.#record({ ...base, rcode: RCODES[found.rcode] ?? `RCODE ${found.rcode}`, answers: records.length, truncated, records, ...upstream }, start, bytesIn, answer.length);
    return answer;
  }

  #record(detail: DnsDetail, start: number, bytesIn: number, bytesOut: number): void {
    this.context.traffic.add(dnsRecord(this.context.id, detail, start, bytesIn, bytesOut));
  }
}

/**
 * The first question's bytes as the query has them, when dns-packet writes `question` otherwise
 * (it reads labels as UTF-8 and joins them with dots, so `a\\.b` and `\\255` do not come back);
 * undefined when it writes them the same.
 */
function askedQuestion(raw: Buffer, question: dnsPacket.Question): Buffer | undefined {
  const asked = firstQuestion(raw);
  const written = firstQuestion(dnsPacket.encode({ type: 'query', id: 0, questions: [question] }));
  return asked === undefined || written === undefined || asked.equals(written) ? undefined : asked;
}

/**
 * The name asked, for the traffic log, from its bytes as kdig writes it (`a\\.b.test`,
 * `\\255x.test`, `x\\032y.test`; the root `.`): dns-packet joins labels with dots and reads them
 * as UTF-8, so a dot inside a label, a space and bytes that are not UTF-8 came out garbled or
 * looking like another name.
 */
function shownName(raw: Buffer, question: dnsPacket.Question): string {
  const asked = firstQuestion(raw);
  const labels = asked === undefined ? undefined : questionLabels(asked);
  return labels === undefined ? question.name || '.' : nameText(labels);
}

/** An answer (one question, as dns-packet wrote it) with the question as the query sent it. */
function withQuestion(answer: Buffer, asked: Buffer): Buffer {
  const written = firstQuestion(answer);
  return written === undefined ? answer : Buffer.concat([answer.subarray(0, 12), asked, answer.subarray(12 + written.length)]);
}

/** The upstream is this server (a loopback address and its own port): forwarding would loop. */
function isSelf(upstream: Upstream, port: number): boolean {
  return upstream.port === port && (upstream.host.startsWith('127.') || upstream.host === '::1' || upstream.host === '0.0.0.0');
}

/** The OPT record of an EDNS query. */
function opt(query: DecodedPacket): { udpPayloadSize?: number } | undefined {
  return query.additionals?.find((r) => r.type === 'OPT') as { udpPayloadSize?: number } | undefined;
}

/**
 * The OPT record of an answer to an EDNS query: 1232 bytes, the size DNS Flag Day 2020 settled on,
 * no options, and the query's DO bit, which RFC 3225 3 says MUST be copied (systemd-resolved
 * takes a server that drops it for one without DNSSEC support and downgrades).
 */
function answerOpt(query: DecodedPacket): dnsPacket.Answer {
  const flags = ((opt(query) as { flags?: number } | undefined)?.flags ?? 0) & dnsPacket.DNSSEC_OK;
  return { type: 'OPT', name: '.', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags, options: [] } as unknown as dnsPacket.Answer;
}

/** What an answer adds for EDNS: its OPT record when the query had one (RFC 6891 6.1.1), else nothing. */
function answerEdns(query: DecodedPacket): { additionals?: dnsPacket.Answer[] } {
  return opt(query) !== undefined ? { additionals: [answerOpt(query)] } : {};
}

/** 512 bytes, or more when the client says by EDNS (an OPT record) that it takes more. */
function udpLimit(query: DecodedPacket): number {
  return Math.max(UDP_LIMIT, Math.min(opt(query)?.udpPayloadSize ?? 0, 4096));
}

const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'];
/** Opcodes by number (IANA): 0 QUERY, 1 IQUERY, 2 STATUS, 4 NOTIFY, 5 UPDATE, 6 DSO. */
const OPCODES: Record<number, string> = { 1: 'IQUERY', 2: 'STATUS', 4: 'NOTIFY', 5: 'UPDATE', 6: 'DSO' };

function rcodeOf(answer: Buffer): string {
  const code = answer.length >= 4 ? answer.readUInt16BE(2) & 15 : -1;
  return RCODES[code] ?? `RCODE ${code}`;
}

/** The upstream's answer records as lines, from their bytes where dns-packet's reading loses them; none when its answer does not decode. */
function relayedLines(answer: Buffer): string[] {
  try {
    const data = recordData(answer);
    return (dnsPacket.decode(answer).answers ?? []).map((record, i) => answerLine(record, data?.[i]));
  } catch {
    return [];
  }
}

function answerCount(answer: Buffer): number {
  return answer.length >= 8 ? answer.readUInt16BE(6) : 0;
}

export const dnsKind: ServerKindModule = {
  kind: 'dns',
  transport: 'ownSocket',
  create: (context) => new DnsKind(context),
};
