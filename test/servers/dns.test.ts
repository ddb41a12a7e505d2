/** The DNS server against Debian's kdig over UDP and TCP; every record answers loopback addresses. */
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import { describe, expect, it, vi } from 'vitest';
import { DNS_TIMINGS } from '../../src/servers/kinds/dns/dns.js';
import type { DnsRecord } from '../../src/servers/kinds/dns/dns-traffic.js';
import type { MessageRecord } from '../../src/servers/kinds/messages/traffic.js';
import { eventually, makeWorkspace, serve, writeServer } from './helpers.js';
import { runTool } from './kinds/tools.js';

const RECORDS = [
  { name: 'api.example.test', type: 'A', value: '127.0.0.1' },
  { name: 'api.example.test', type: 'AAAA', value: '::1' },
  { name: '*.apps.example.test', type: 'A', value: '127.0.0.2', ttl: 30 },
  { name: 'exact.apps.example.test', type: 'A', value: '127.0.0.3' },
  { name: 'www.example.test', type: 'CNAME', value: 'web.example.test' },
  { name: 'web.example.test', type: 'CNAME', value: 'api.example.test.' },
  { name: 'example.test', type: 'MX', value: '10 mail.example.test' },
  { name: 'example.test', type: 'MX', value: '20 backup.example.test' },
  { name: '_sip._tcp.example.test', type: 'SRV', value: '10 5 5060 sip.example.test' },
  { name: 'example.test', type: 'TXT', value: '"v=spf1 -all" "second"' },
  { name: 'example.test', type: 'CAA', value: '0 issue "letsencrypt.org"' },
  { name: 'example.test', type: 'NS', value: 'ns1.example.test' },
  { name: '1.0.0.127.in-addr.arpa', type: 'PTR', value: 'api.example.test' },
  { name: 'off.example.test', type: 'A', value: '127.0.0.9', enabled: false },
  ...Array.from({ length: 40 }, (_, i) => ({ name: 'many.example.test', type: 'A', value: `127.0.1.${i + 1}` })),
];

async function dnsServer(dns: Record<string, unknown>) {
  const root = await makeWorkspace({ servers: { names: { name: 'Names', kind: 'dns', dns } } });
  const handle = await serve(root);
  return { handle, server: handle.servers[0], failures: handle.failures };
}

async function kdig(port: number, name: string, type: string, ...flags: string[]): Promise<string> {
  const { stdout } = await runTool('kdig', [`@127.0.0.1`, '-p', String(port), '+retry=0', '+time=3', ...flags, name, type]);
  return stdout.toString();
}

/** One datagram to the server over a real UDP socket, and its answer. */
async function udpAsk(port: number, query: Buffer): Promise<Buffer> {
  const client = dgram.createSocket('udp4');
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      client.once('message', resolve);
      client.once('error', reject);
      client.send(query, port, '127.0.0.1');
    });
  } finally {
    client.close();
  }
}

/** Runs `work` with the server's TCP idle time set to `ms` (10 s otherwise). */
async function withTcpIdle(ms: number, work: () => Promise<void>): Promise<void> {
  const saved = DNS_TIMINGS.tcpIdleMs;
  DNS_TIMINGS.tcpIdleMs = ms;
  try {
    await work();
  } finally {
    DNS_TIMINGS.tcpIdleMs = saved;
  }
}

/** A raw TCP client of the server on 127.0.0.1, connected. */
async function rawTcpClient(port: number): Promise<net.Socket> {
  const raw = net.connect(port, '127.0.0.1');
  raw.on('error', () => {});
  await new Promise<void>((resolve) => raw.once('connect', () => resolve()));
  return raw;
}

/** A DNS message as DNS over TCP sends it: its length in two bytes first. */
const tcpFramed = (message: Buffer) => Buffer.concat([Buffer.from([message.length >> 8, message.length & 255]), message]);

const short = async (port: number, name: string, type: string, ...flags: string[]) => (await kdig(port, name, type, '+short', ...flags)).trim().split('\n').filter(Boolean);

describe('DNS server', () => {
  it('answers A, AAAA, MX, SRV, TXT, CAA, NS, PTR over UDP and TCP (kdig)', async () => {
    const { server } = await dnsServer({ records: RECORDS });
    const port = server!.port;
    for (const transport of ['+notcp', '+tcp']) {
      expect(await short(port, 'api.example.test', 'A', transport)).toEqual(['127.0.0.1']);
      expect(await short(port, 'API.Example.Test.', 'AAAA', transport)).toEqual(['::1']);
      expect(await short(port, 'example.test', 'MX', transport)).toEqual(['10 mail.example.test.', '20 backup.example.test.']);
      expect(await short(port, '_sip._tcp.example.test', 'SRV', transport)).toEqual(['10 5 5060 sip.example.test.']);
      expect(await short(port, 'example.test', 'TXT', transport)).toEqual(['"v=spf1 -all" "second"']);
      expect(await short(port, 'example.test', 'CAA', transport)).toEqual(['0 issue "letsencrypt.org"']);
      expect(await short(port, 'example.test', 'NS', transport)).toEqual(['ns1.example.test.']);
      expect(await short(port, '1.0.0.127.in-addr.arpa', 'PTR', transport)).toEqual(['api.example.test.']);
    }
  });

  it("shows TXT bytes that are not UTF-8 in its traffic as kdig shows them (\\DDD), not as U+FFFD", async () => {
    const { server, handle } = await dnsServer({ records: [{ name: 'bytes.example.test', type: 'TXT', value: '"a\\255b\\"q" "été"' }] });
    const answered = await short(server!.port, 'bytes.example.test', 'TXT');
    const records = handle.traffic.recent() as DnsRecord[];
    expect(records.at(-1)!.detail.records).toEqual(['bytes.example.test 60 IN TXT "a\\255b\\"q" "été"']);
    // kdig escapes every byte over 127; Ferry keeps UTF-8 letters as letters.
    expect(answered).toEqual(['"a\\255b\\"q" "\\195\\169t\\195\\169"']);
  });

  it('answers an EDNS query with an OPT record of its own (RFC 6891), and a plain query without', async () => {
    const { server } = await dnsServer({ records: RECORDS });
    for (const transport of ['+notcp', '+tcp']) {
      const edns = await kdig(server!.port, 'api.example.test', 'A', '+edns', transport);
      expect(edns).toMatch(/EDNS PSEUDOSECTION:[\s\S]*UDP size: 1232 B/);
      expect(edns).toMatch(/ANSWER: 1; AUTHORITY: 0; ADDITIONAL: 1/);
      expect(await kdig(server!.port, 'api.example.test', 'A', '+noedns', transport)).toMatch(/ADDITIONAL: 0/);
    }
    // A truncated answer and an NXDOMAIN keep it too.
    expect(await kdig(server!.port, 'many.example.test', 'A', '+edns', '+bufsize=512', '+notcp', '+ignore')).toMatch(/Flags: qr aa tc rd;[\s\S]*EDNS PSEUDOSECTION/);
    expect(await kdig(server!.port, 'nothing.example.test', 'A', '+edns')).toMatch(/NXDOMAIN[\s\S]*EDNS PSEUDOSECTION/);
  });

  it("copies the query's DO bit into its OPT record (RFC 3225 3: MUST), errors too, and leaves it off when not asked", async () => {
    const { server } = await dnsServer({ records: RECORDS });
    for (const transport of ['+notcp', '+tcp']) {
      for (const [name, klass] of [['api.example.test', 'IN'], ['nothing.example.test', 'IN'], ['api.example.test', 'CH']]) {
        const asked = await kdig(server!.port, name!, 'A', '-c', klass!, '+dnssec', transport);
        expect(asked, `${name} ${klass} ${transport}`).toMatch(/EDNS PSEUDOSECTION:\s*;; Version: 0; flags: do; UDP size: 1232 B/);
      }
      expect(await kdig(server!.port, 'api.example.test', 'A', '+edns', transport)).toMatch(/EDNS PSEUDOSECTION:\s*;; Version: 0; flags: ; UDP size: 1232 B/);
    }
    expect(await kdig(server!.port, 'api.example.test', 'A', '+dnssec', '+edns=1')).toMatch(/status: BADVERS[\s\S]*Version: 0; flags: do;/);
  });

  it('answers SERVFAIL, REFUSED and NOTIMP to an EDNS query with an OPT record too (RFC 6891 6.1.1), and without one to a plain query', async () => {
    // Port 1 on loopback: nothing listens, so the upstream fails at once (SERVFAIL without waiting).
    const { server } = await dnsServer({ records: RECORDS, upstream: '127.0.0.1:1' });
    const port = server!.port;
    const plain = (await dnsServer({ records: RECORDS })).server!.port;
    for (const transport of ['+notcp', '+tcp']) {
      const answers = [
        await kdig(port, 'nothing.example.test', 'A', '+edns', transport),
        await kdig(plain, 'api.example.test', 'A', '-c', 'CH', '+edns', transport),
      ];
      expect(answers[0]).toMatch(/status: SERVFAIL/);
      expect(answers[1]).toMatch(/status: REFUSED/);
      for (const answer of answers) expect(answer).toMatch(/ADDITIONAL: 1[\s\S]*EDNS PSEUDOSECTION:[\s\S]*Version: 0[\s\S]*UDP size: 1232 B/);
      expect(await kdig(port, 'nothing.example.test', 'A', '+noedns', transport)).toMatch(/status: SERVFAIL[\s\S]*ADDITIONAL: 0/);
    }
    // A NOTIFY (opcode 4) and a zone transfer with EDNS, from dns-packet: NOTIMP and REFUSED carry the OPT record as well.
    const withOpt = { additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as dnsPacket.Answer] };
    const notify = Buffer.from(dnsPacket.encode({ type: 'query', id: 7, flags: 4 << 11, questions: [{ name: 'example.test', type: 'SOA' }], ...withOpt }));
    const axfr = Buffer.from(dnsPacket.encode({ type: 'query', id: 8, questions: [{ name: 'example.test', type: 'AXFR' }], ...withOpt }));
    const answers = [dnsPacket.decode(await udpAsk(plain, notify)), dnsPacket.decode(await udpAsk(plain, axfr))];
    expect(answers.map((a) => [(a as { rcode?: string }).rcode, a.additionals?.map((r) => r.type)])).toEqual([['NOTIMP', ['OPT']], ['REFUSED', ['OPT']]]);
  });

  it('answers BADVERS (with an OPT of version 0) to an EDNS version it does not speak, as RFC 6891 6.1.3 requires', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS });
    for (const transport of ['+notcp', '+tcp']) {
      const answer = await kdig(server!.port, 'api.example.test', 'A', '+edns=1', transport);
      expect(answer).toMatch(/status: BADVERS/);
      expect(answer).toMatch(/ANSWER: 0;[\s\S]*EDNS PSEUDOSECTION:[\s\S]*Version: 0/);
    }
    const records = (handle.traffic.recent() as DnsRecord[]).map((r) => [r.summary, r.level, r.note]);
    expect(records[0]).toEqual(['A api.example.test → BADVERS, 0 answers (udp)', 'warning', 'EDNS version 1 asked; this server speaks version 0']);
  });

  it('answers NOTIMP to what is not a query (a dynamic UPDATE, a NOTIFY), not NOERROR as if it were done (knsupdate)', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS, upstream: '' });
    // knsupdate took the answer of a query for its zone as the update's: "done", nothing changed.
    const script = `server 127.0.0.1 ${server!.port}\nzone api.example.test\nupdate add new.api.example.test 60 A 127.0.0.5\nsend\n`;
    const update = await runTool('knsupdate', [], script);
    expect(update.code).not.toBe(0);
    expect(update.stderr).toMatch(/NOTIMP/);
    expect(await kdig(server!.port, 'new.api.example.test', 'A')).toMatch(/status: NXDOMAIN/);
    // The answer keeps the opcode, id and zone asked (RFC 1035 4.1.1), over TCP too.
    const notify = dnsPacket.encode({ type: 'query', id: 4242, flags: 4 << 11, questions: [{ type: 'SOA', name: 'example.test' }] }); // opcode 4: NOTIFY
    const raw = net.connect(server!.port, '127.0.0.1');
    raw.on('error', () => {});
    raw.end(tcpFramed(notify));
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const answer = dnsPacket.decode(Buffer.concat(chunks).subarray(2)) as dnsPacket.DecodedPacket & { opcode?: string; rcode?: string };
    expect([answer.id, answer.opcode, answer.rcode, answer.questions?.[0]?.name, answer.answers?.length]).toEqual([4242, 'NOTIFY', 'NOTIMP', 'example.test', 0]);
    const records = (handle.traffic.recent() as DnsRecord[]).filter((r) => r.summary.includes('NOTIMP'));
    expect(records.map((r) => [r.summary, r.level])).toEqual([
      ['UPDATE SOA api.example.test → NOTIMP, 0 answers (udp)', 'warning'],
      ['NOTIFY SOA example.test → NOTIMP, 0 answers (tcp)', 'warning'],
    ]);
    expect(records[0]!.note).toBe('not done: this server answers queries only (opcode QUERY), not UPDATE');
  });

  it('refuses a zone transfer (AXFR, IXFR), as BIND does one not allowed, rather than an empty NOERROR kdig cannot read', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS });
    for (const type of ['AXFR', 'IXFR=1']) {
      const { stdout, stderr } = await runTool('kdig', ['@127.0.0.1', '-p', String(server!.port), '+retry=0', '+time=3', 'example.test', type]);
      expect(`${stdout.toString()}${stderr}`).toMatch(/REFUSED/);
      expect(stderr).not.toMatch(/isn't SOA/);
    }
    const records = (handle.traffic.recent() as DnsRecord[]).map((r) => [r.summary, r.level, r.note]);
    const note = 'zone transfers are not served: the records are in servers/names.yaml';
    expect(records).toEqual([
      ['AXFR example.test → REFUSED, 0 answers (tcp)', 'warning', note],
      ['IXFR example.test → REFUSED, 0 answers (tcp)', 'warning', note],
    ]);
  });

  it('answers FORMERR to a query of two questions (RFC 9619), as BIND and Knot do, rather than the first alone', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS });
    const two = Buffer.from(dnsPacket.encode({ type: 'query', id: 9, flags: dnsPacket.RECURSION_DESIRED, questions: [{ name: 'api.example.test', type: 'A' }, { name: 'example.test', type: 'MX' }] }));
    const answer = dnsPacket.decode(await udpAsk(server!.port, two));
    expect([answer.id, (answer as { rcode?: string }).rcode, answer.answers?.length]).toEqual([9, 'FORMERR', 0]);
    const record = handle.traffic.recent()[0] as DnsRecord;
    expect([record.summary, record.note]).toEqual(['A api.example.test → FORMERR, 0 answers (udp)', '2 questions in one query; a query asks one (RFC 9619)']);
    expect(await short(server!.port, 'api.example.test', 'A')).toEqual(['127.0.0.1']);
  });

  it('does not answer a response (QR set), as BIND drops them: two servers answering each other would loop', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS });
    const client = dgram.createSocket('udp4');
    const got: Buffer[] = [];
    client.on('message', (message) => got.push(message));
    await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', () => resolve()));
    try {
      const response = dnsPacket.encode({ type: 'response', id: 77, flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: [{ type: 'A', name: 'api.example.test' }], answers: [{ type: 'A', name: 'api.example.test', data: '127.0.0.1' }] });
      const query = dnsPacket.encode({ type: 'query', id: 78, questions: [{ type: 'A', name: 'api.example.test' }] });
      client.send(response, server!.port, '127.0.0.1');
      await new Promise((r) => setTimeout(r, 300));
      client.send(query, server!.port, '127.0.0.1');
      await eventually(async () => got.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(got.map((m) => dnsPacket.decode(m).id)).toEqual([78]);
      const records = (handle.traffic.recent() as DnsRecord[]).map((r) => [r.summary, r.level, r.note]);
      expect(records[0]).toEqual(['A api.example.test → not answered, 0 answers (udp)', 'warning', 'a response (QR set), not a query: answering it could loop between two servers']);
      expect(records).toHaveLength(2);
    } finally {
      client.close();
    }
  });

  it('matches *. wildcards below the name (an exact name wins) and follows CNAME chains', async () => {
    const { server } = await dnsServer({ records: RECORDS });
    const port = server!.port;
    expect(await short(port, 'one.apps.example.test', 'A')).toEqual(['127.0.0.2']);
    expect(await short(port, 'a.b.apps.example.test', 'A')).toEqual(['127.0.0.2']);
    expect(await short(port, 'exact.apps.example.test', 'A')).toEqual(['127.0.0.3']);
    expect(await short(port, 'apps.example.test', 'A')).toEqual([]);
    const full = await kdig(port, 'www.example.test', 'A');
    expect(full).toMatch(/www\.example\.test\.\s+60\s+IN\s+CNAME\s+web\.example\.test\./);
    expect(full).toMatch(/web\.example\.test\.\s+60\s+IN\s+CNAME\s+api\.example\.test\./);
    expect(full).toMatch(/api\.example\.test\.\s+60\s+IN\s+A\s+127\.0\.0\.1/);
    expect(await kdig(port, 'x.apps.example.test', 'A')).toMatch(/\s30\s+IN\s+A\s+127\.0\.0\.2/);
  });

  it('answers a name with records only below it NOERROR without records, not NXDOMAIN (RFC 8020: resolvers take NXDOMAIN to mean nothing below exists)', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS });
    const port = server!.port;
    // _tcp.example.test is there for _sip._tcp.example.test; apps.example.test for *.apps.example.test; test for all.
    for (const [name, type] of [['_tcp.example.test', 'SRV'], ['apps.example.test', 'A'], ['test', 'A'], ['in-addr.arpa', 'PTR']]) {
      const answer = await kdig(port, name!, type!);
      expect(answer, name).toMatch(/status: NOERROR/);
      expect(answer, name).toMatch(/ANSWER: 0/);
    }
    expect(await kdig(port, 'nothing._tcp.example.test', 'SRV')).toMatch(/status: NXDOMAIN/);
    expect(await kdig(port, 'example', 'A')).toMatch(/status: NXDOMAIN/);
    expect((handle.traffic.recent() as DnsRecord[]).map((r) => r.summary)).toEqual([
      'SRV _tcp.example.test → NOERROR, 0 answers (udp)', 'A apps.example.test → NOERROR, 0 answers (udp)', 'A test → NOERROR, 0 answers (udp)',
      'PTR in-addr.arpa → NOERROR, 0 answers (udp)', 'SRV nothing._tcp.example.test → NXDOMAIN, 0 answers (udp)', 'A example → NXDOMAIN, 0 answers (udp)',
    ]);
  });

  it('gives each CNAME of a loop once, and the rcode of where a chain ends: NXDOMAIN at a name without records (RFC 6604)', async () => {
    const records = [
      { name: 'loop1.example.test', type: 'CNAME', value: 'loop2.example.test' },
      { name: 'loop2.example.test', type: 'CNAME', value: 'loop1.example.test' },
      { name: 'dangling.example.test', type: 'CNAME', value: 'gone.example.test' },
      { name: 'to-parent.example.test', type: 'CNAME', value: 'b.example.test' },
      { name: 'a.b.example.test', type: 'A', value: '127.0.0.5' },
    ];
    const { server } = await dnsServer({ records });
    const port = server!.port;
    const loop = await kdig(port, 'loop1.example.test', 'A');
    expect(loop).toMatch(/status: NOERROR[\s\S]*ANSWER: 2;/);
    expect(loop.match(/IN\s+CNAME/g)).toHaveLength(2);
    const dangling = await kdig(port, 'dangling.example.test', 'A');
    expect(dangling).toMatch(/status: NXDOMAIN/);
    expect(dangling).toMatch(/dangling\.example\.test\.\s+60\s+IN\s+CNAME\s+gone\.example\.test\./);
    // A chain ending at a name with records below it ends at a name that exists: NOERROR.
    expect(await kdig(port, 'to-parent.example.test', 'A')).toMatch(/status: NOERROR[\s\S]*ANSWER: 1;/);
  });

  it('completes through the upstream a CNAME chain that leaves the records (as a recursive server does), over UDP and TCP', async () => {
    const upstream = await dnsServer({
      records: [
        { name: 'real.example.com', type: 'A', value: '127.0.0.44' },
        { name: 'alias.example.com', type: 'CNAME', value: 'nowhere.example.com' },
      ],
    });
    const records = [
      { name: 'app.example.test', type: 'CNAME', value: 'real.example.com' },
      { name: 'gone.example.test', type: 'CNAME', value: 'alias.example.com' },
    ];
    const { server, handle } = await dnsServer({ records, upstream: `127.0.0.1:${upstream.server!.port}` });
    const port = server!.port;
    for (const transport of ['+notcp', '+tcp']) {
      // A stub resolver (glibc, an app) given only the CNAME would find no address.
      expect(await short(port, 'app.example.test', 'A', transport)).toEqual(['real.example.com.', '127.0.0.44']);
      const gone = await kdig(port, 'gone.example.test', 'A', transport);
      expect(gone).toMatch(/status: NXDOMAIN/);
      expect(gone).toMatch(/alias\.example\.com\.\s+60\s+IN\s+CNAME\s+nowhere\.example\.com\./);
    }
    expect((upstream.handle.traffic.recent() as DnsRecord[]).map((r) => r.summary).slice(0, 3)).toEqual([
      'A real.example.com → NOERROR, 1 answer (udp)', 'A alias.example.com → NXDOMAIN, 1 answer (udp)', 'A real.example.com → NOERROR, 1 answer (tcp)',
    ]);
    const first = handle.traffic.recent()[0] as DnsRecord;
    expect([first.summary, first.note, first.detail.records]).toEqual([
      'A app.example.test → NOERROR, 2 answers (udp)', `from upstream 127.0.0.1:${upstream.server!.port}`,
      ['app.example.test 60 IN CNAME real.example.com', 'real.example.com 60 IN A 127.0.0.44'],
    ]);
  });

  it('answers SERVFAIL with the records\' part of a chain when its upstream does not answer its end', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', () => resolve()));
    try {
      const { server } = await dnsServer({ records: [{ name: 'app.example.test', type: 'CNAME', value: 'real.example.com' }], upstream: `127.0.0.1:${silent.address().port}` });
      const answer = await kdig(server!.port, 'app.example.test', 'A');
      expect(answer).toMatch(/status: SERVFAIL/);
      expect(answer).toMatch(/app\.example\.test\.\s+60\s+IN\s+CNAME\s+real\.example\.com\./);
    } finally {
      silent.close();
    }
  });

  it('says NXDOMAIN for names without a record (and disabled ones), NOERROR with no answer for a missing type', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS });
    expect(await kdig(server!.port, 'nothing.example.test', 'A')).toMatch(/status: NXDOMAIN/);
    expect(await kdig(server!.port, 'off.example.test', 'A')).toMatch(/status: NXDOMAIN/);
    const nodata = await kdig(server!.port, 'api.example.test', 'MX');
    expect(nodata).toMatch(/status: NOERROR/);
    expect(nodata).toMatch(/ANSWER: 0/);
    const summaries = (handle.traffic.recent() as DnsRecord[]).map((r) => r.summary);
    expect(summaries[0]).toBe('A nothing.example.test → NXDOMAIN, 0 answers (udp)');
    // Types dns-packet has no name for are logged as dig names them: HTTPS and SVCB (browsers ask
    // for HTTPS with every name), else TYPEnn (RFC 3597), not UNKNOWN_65.
    for (const type of ['HTTPS', 'SVCB', 'TYPE4242']) expect(await kdig(server!.port, 'api.example.test', type)).toMatch(/status: NOERROR/);
    // Another class than IN (CH, HS) has no records here: REFUSED, as BIND and Knot answer, not
    // the IN records under a CH question.
    expect(await kdig(server!.port, 'api.example.test', 'A', '-c', 'CH')).toMatch(/status: REFUSED[\s\S]*ANSWER: 0/);
    const refused = handle.traffic.recent().at(-1) as DnsRecord;
    expect([refused.summary, refused.level]).toEqual(['A api.example.test → REFUSED, 0 answers (udp)', 'warning']);
    const types = (handle.traffic.recent() as DnsRecord[]).slice(-4, -1).map((r) => r.summary);
    expect(types).toEqual(['HTTPS api.example.test → NOERROR, 0 answers (udp)', 'SVCB api.example.test → NOERROR, 0 answers (udp)', 'TYPE4242 api.example.test → NOERROR, 0 answers (udp)']);
  });

  it('truncates answers over 512 bytes on UDP; kdig then asks over TCP', async () => {
    const { server, handle } = await dnsServer({ records: RECORDS });
    const truncated = await kdig(server!.port, 'many.example.test', 'A', '+notcp', '+ignore');
    expect(truncated).toMatch(/Flags: qr aa tc rd;/);
    expect(await short(server!.port, 'many.example.test', 'A')).toHaveLength(40);
    const records = handle.traffic.recent() as DnsRecord[];
    expect(records.map((r) => `${r.detail.transport} ${r.detail.answers} ${r.note ?? ''}`)).toEqual([
      'udp 0 truncated: over 512 bytes on UDP', 'udp 0 truncated: over 512 bytes on UDP', 'tcp 40 ',
    ]);
  });

  it('answers TC, and keeps running, when an answer is over the 65,535 bytes a DNS message holds on TCP', async () => {
    const huge = Array.from({ length: 300 }, (_, i) => ({ name: 'huge.example.test', type: 'TXT', value: `"${'y'.repeat(250)} ${i}"` }));
    const { server, handle } = await dnsServer({ records: [...huge, { name: 'api.example.test', type: 'A', value: '127.0.0.1' }] });
    expect(await kdig(server!.port, 'huge.example.test', 'TXT', '+tcp', '+ignore')).toMatch(/Flags: qr aa tc rd;/);
    expect(await short(server!.port, 'api.example.test', 'A', '+tcp')).toEqual(['127.0.0.1']);
    const first = handle.traffic.recent()[0] as DnsRecord;
    expect([first.detail.transport, first.detail.truncated, first.note]).toEqual(['tcp', true, 'truncated: over 65,535 bytes, the most one DNS message holds']);
  });

  it('forwards names without a record to an upstream server', async () => {
    const upstream = await dnsServer({ records: [{ name: 'elsewhere.test', type: 'A', value: '127.0.0.7' }] });
    const { server, handle } = await dnsServer({ records: RECORDS, upstream: `127.0.0.1:${upstream.server!.port}` });
    expect(await short(server!.port, 'elsewhere.test', 'A')).toEqual(['127.0.0.7']);
    expect(await short(server!.port, 'api.example.test', 'A')).toEqual(['127.0.0.1']);
    expect((handle.traffic.recent()[0] as DnsRecord).note).toBe(`from upstream 127.0.0.1:${upstream.server!.port}`);
  });

  it('upstream system forwards to the first server of this computer\'s resolver (read at each query)', async () => {
    const upstream = await dnsServer({ records: [{ name: 'elsewhere.test', type: 'A', value: '127.0.0.8' }] });
    const { server, handle } = await dnsServer({ records: RECORDS, upstream: 'system' });
    const before = dns.getServers();
    try {
      // The server runs in this process: Node's resolver settings are this computer's resolver for it.
      dns.setServers([`127.0.0.1:${upstream.server!.port}`]);
      expect(await short(server!.port, 'elsewhere.test', 'A')).toEqual(['127.0.0.8']);
      expect((handle.traffic.recent()[0] as DnsRecord).note).toBe('from upstream system');
    } finally {
      dns.setServers(before);
    }
  });

  it("writes an upstream's CAA values in its traffic as kdig shows them (\\DDD), not as U+FFFD", async () => {
    const upstream = await dnsServer({ records: [{ name: 'elsewhere.test', type: 'CAA', value: '0 issue "a\\255b\\"c"' }, { name: 'elsewhere.test', type: 'TXT', value: '"x\\255"' }] });
    const { server, handle } = await dnsServer({ records: [], upstream: `127.0.0.1:${upstream.server!.port}` });
    expect((await short(server!.port, 'elsewhere.test', 'CAA')).map((line) => line.trimEnd())).toEqual(['0 issue "a\\255b\\"c"']);
    expect(await short(server!.port, 'elsewhere.test', 'TXT')).toEqual(['"x\\255"']);
    const lines = (handle.traffic.recent() as DnsRecord[]).map((r) => r.detail.records);
    expect(lines).toEqual([['elsewhere.test 60 IN CAA 0 issue "a\\255b\\"c"'], ['elsewhere.test 60 IN TXT "x\\255"']]);
  });

  it('forwards over TCP what a client asked over TCP, so an answer over 512 bytes comes whole (kdig +tcp)', async () => {
    const upstream = await dnsServer({ records: RECORDS });
    const { server } = await dnsServer({ records: [], upstream: `127.0.0.1:${upstream.server!.port}` });
    // Without EDNS the upstream truncates on UDP: a client on TCP could never get the 40 records.
    const whole = await kdig(server!.port, 'many.example.test', 'A', '+tcp', '+noedns');
    expect(whole).not.toMatch(/Flags:[^;]* tc/);
    expect(await short(server!.port, 'many.example.test', 'A', '+tcp', '+noedns')).toHaveLength(40);
    // On UDP the truncated answer is passed on, and kdig asks again over TCP.
    expect(await kdig(server!.port, 'many.example.test', 'A', '+notcp', '+noedns', '+ignore')).toMatch(/Flags: qr aa tc rd;/);
    expect(await short(server!.port, 'many.example.test', 'A', '+noedns')).toHaveLength(40);
    const transports = (upstream.handle.traffic.recent() as DnsRecord[]).map((r) => r.detail.transport);
    expect(transports).toEqual(['tcp', 'tcp', 'udp', 'udp', 'tcp']);
  });

  it('asks a silent upstream at most 256 queries at a time; past that answers SERVFAIL at once, saying why', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
    let asked = 0;
    silent.on('message', () => asked++);
    const client = dgram.createSocket('udp4');
    try {
      const upstream = `127.0.0.1:${silent.address().port}`;
      const { server, handle } = await dnsServer({ records: [], upstream });
      await new Promise<void>((r) => client.bind(0, '127.0.0.1', () => r()));
      const answers: number[] = [];
      client.on('message', (m) => answers.push(m.readUInt16BE(2) & 15));
      // 50 at a time, so the kernel's receive buffers do not drop any.
      for (let id = 1; id <= 600; id++) {
        client.send(dnsPacket.encode({ type: 'query', id, questions: [{ type: 'A', name: `n${id}.elsewhere.test` }] }), server!.port, '127.0.0.1');
        if (id % 50 === 0) await new Promise((r) => setTimeout(r, 10));
      }
      // The answers past the limit come at once; a busy machine (a full run beside others) may take
      // seconds to read 600 datagrams, so the wait is long: what it checks is the count asked.
      await eventually(async () => answers.length >= 600 - 256, 10_000);
      // Every datagram was read: no more than 256 waited on the upstream, the rest were answered.
      expect(asked).toBeLessThanOrEqual(256);
      expect(answers.every((rcode) => rcode === 2)).toBe(true);
      const record = (handle.traffic.recent() as DnsRecord[]).find((r) => r.detail.rcode === 'SERVFAIL')!;
      expect(record.detail.upstream).toBe(`${upstream}, not asked: 256 queries already wait for it`);
    } finally {
      client.close();
      silent.close();
    }
  });

  it('takes an IPv6 upstream written alone (::1, 2001:db8::1), as resolv.conf and node write it, and asks it on port 53', async () => {
    // Read as host ":" and port 1, these were refused at load, and `system` with such a server failed.
    expect((await dnsServer({ records: [], upstream: '2001:db8::1' })).failures).toEqual([]);
    const { server, handle, failures } = await dnsServer({ records: [], upstream: '::1' });
    expect(failures).toEqual([]);
    await kdig(server!.port, 'elsewhere.test', 'A');
    // Asked at [::1]:53: SERVFAIL at once when nothing listens there, else that server's answer.
    expect((handle.traffic.recent().at(-1) as DnsRecord).detail.upstream).toBe('::1');
  });

  it('stops while a query waits on the upstream without failing when the wait ends', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
    const asked = new Promise((r) => silent.once('message', r));
    // What failing looked like: the late SERVFAIL sent on the closed socket threw, unhandled.
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const { server, handle } = await dnsServer({ records: [], upstream: `127.0.0.1:${silent.address().port}` });
      const answer = kdig(server!.port, 'late.test', 'A', '+notcp');
      await asked;
      await handle.stop();
      // kdig gives up after 3 s: by then the upstream's wait (2 s) has ended, after the stop, and
      // its SERVFAIL was not sent on the closed socket.
      expect(await answer).not.toMatch(/status: /);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
      silent.close();
    }
  });

  it('does not forward to itself (a loop): SERVFAIL at once', async () => {
    const root = await makeWorkspace({ servers: { names: { name: 'Names', kind: 'dns', port: 0, dns: { records: [] } } } });
    const handle = await serve(root);
    const port = handle.servers[0]!.port;
    await writeServer(root, 'names', { name: 'Names', kind: 'dns', port, dns: { records: [], upstream: `127.0.0.1:${port}` } });
    for (let i = 0; i < 200 && !handle.notices.some((n) => n.message.includes('new settings')); i++) await new Promise((r) => setTimeout(r, 25));
    const started = performance.now();
    expect(await kdig(port, 'loop.test', 'A')).toMatch(/status: SERVFAIL/);
    expect(performance.now() - started).toBeLessThan(1500);
    expect((handle.traffic.recent().at(-1) as DnsRecord).detail.upstream).toBe(`127.0.0.1:${port}, which is this server itself`);
  });

  it('TXT in zone-file form: words after quoted strings are strings too, \\DDD and \\" are escapes; an unclosed quote is refused at load', async () => {
    const records = [
      { name: 'a.test', type: 'TXT', value: '"quote \\" inside" "semi;colon" plain\\032word last' },
      { name: 'b.test', type: 'TXT', value: 'unquoted text is one string' },
      { name: 'c.test', type: 'TXT', value: '"caf\\195\\169"' },
    ];
    const { server } = await dnsServer({ records });
    expect(await short(server!.port, 'a.test', 'TXT')).toEqual(['"quote \\" inside" "semi;colon" "plain word" "last"']);
    expect(await short(server!.port, 'b.test', 'TXT')).toEqual(['"unquoted text is one string"']);
    expect(await short(server!.port, 'c.test', 'TXT')).toEqual(['"caf\\195\\169"']);
    const unclosed = await dnsServer({ records: [{ name: 'd.test', type: 'TXT', value: '"one" "two' }] });
    expect(unclosed.failures[0]!.message).toMatch(/d\.test.*value "\\"one\\" \\"two" is not TXT text in zone-file form, such as "v=spf1 -all" "second string": a quote is not closed\./);
    const byte = await dnsServer({ records: [{ name: 'e.test', type: 'TXT', value: '"\\300"' }] });
    expect(byte.failures[0]!.message).toMatch(/\\300 is not a byte/);
  });

  it('CAA in zone-file form: \\DDD and \\X escapes are bytes, flags are kept as written; kdig and the traffic log show them as a zone file does', async () => {
    const records = [
      { name: 'caa.test', type: 'CAA', value: '0 issue "a\\255b"' },
      { name: 'caa.test', type: 'CAA', value: '129 issue "ca.test; q=\\"x\\""' },
      { name: 'caa.test', type: 'CAA', value: '0 iodef mailto:x\\064y.test' },
    ];
    const { server, handle } = await dnsServer({ records });
    for (const transport of ['+notcp', '+tcp']) {
      expect((await short(server!.port, 'caa.test', 'CAA', transport)).map((line) => line.trimEnd())).toEqual(['0 issue "a\\255b"', '129 issue "ca.test; q=\\"x\\""', '0 iodef "mailto:x@y.test"']);
    }
    const traffic = handle.traffic.recent() as DnsRecord[];
    expect(traffic.at(-1)!.detail.records).toEqual([
      'caa.test 60 IN CAA 0 issue "a\\255b"', 'caa.test 60 IN CAA 129 issue "ca.test; q=\\"x\\""', 'caa.test 60 IN CAA 0 iodef "mailto:x@y.test"',
    ]);
    const bad = await dnsServer({ records: [{ name: 'd.test', type: 'CAA', value: '0 issue "unclosed' }] });
    expect(bad.failures[0]!.message).toMatch(/d\.test CAA\): value .* is not "flags tag value"/);
    const byte = await dnsServer({ records: [{ name: 'e.test', type: 'CAA', value: '0 issue "\\300"' }] });
    expect(byte.failures[0]!.message).toMatch(/\\300 is not a byte/);
  });

  it('TXT without quotes is one string with its escapes undone (\\DDD, \\X), as in a zone file', async () => {
    const { server } = await dnsServer({ records: [{ name: 'u.test', type: 'TXT', value: 'a\\255b \\"c\\" d\\\\e' }] });
    expect(await short(server!.port, 'u.test', 'TXT')).toEqual(['"a\\255b \\"c\\" d\\\\e"']);
  });

  it('refuses at load what it cannot serve as written: long or empty labels, a long name, an IPv6 zone, data over 65,535 bytes, a TTL over 2^31-1', async () => {
    const failure = async (record: Record<string, unknown>) => (await dnsServer({ records: [{ name: 'x.test', ...record }] })).failures[0]?.message ?? 'started';
    expect(await failure({ type: 'CNAME', value: `${'a'.repeat(64)}.test` })).toMatch(/x\.test CNAME\): value "a{64}\.test" is not a host name: its label "a{64}" is 64 bytes; a label holds at most 63\./);
    expect(await failure({ type: 'MX', value: '10 a..b.test' })).toMatch(/is not a host name: it has an empty label \(two dots in a row\)/);
    expect(await failure({ type: 'SRV', value: `1 1 1 ${Array.from({ length: 5 }, () => 'b'.repeat(60)).join('.')}` })).toMatch(/is not a host name: it is 306 bytes; a name holds at most 255/);
    // A label beyond ASCII is measured as queries ask it, in its IDNA form (xn--…): 32 é are 38 bytes so, 1 é and 60 a are 68.
    expect((await dnsServer({ records: [{ name: `*.é${'a'.repeat(60)}.test`, type: 'A', value: '127.0.0.1' }] })).failures[0]!.message).toMatch(
      /\(\*\.éa{60}\.test A\): name "\*\.éa{60}\.test" is not a name a query can ask: its label "xn--a{60}-9hf" is 68 bytes; a label holds at most 63\./,
    );
    expect((await dnsServer({ records: [{ name: `*.${'é'.repeat(32)}.test`, type: 'A', value: '127.0.0.1' }] })).failures).toEqual([]);
    expect(await failure({ type: 'AAAA', value: 'fe80::1%eth0' })).toMatch(/is not an IPv6 address such as ::1/);
    expect(await failure({ type: 'TXT', value: 'x'.repeat(70_000) })).toMatch(/x\.test TXT\): value "x{20}.*" is 70,275 bytes of record data; a record holds at most 65,535 \(split it into several records\)\./);
    expect(await failure({ type: 'CAA', value: `0 issue "${'x'.repeat(70_000)}"` })).toMatch(/is 70,007 bytes of record data/);
    expect(await failure({ type: 'A', value: '127.0.0.1', ttl: 4_294_967_296 })).toMatch(/ttl.*2147483647/);
    // Names at the limits are served, and a null MX (".") is one.
    const { server } = await dnsServer({ records: [
      { name: 'x.test', type: 'CNAME', value: `${'a'.repeat(63)}.test` },
      { name: 'x.test', type: 'MX', value: '0 .' },
      { name: 'x.test', type: 'TXT', value: 'y'.repeat(60_000) },
    ] });
    expect(await short(server!.port, 'x.test', 'CNAME')).toEqual([`${'a'.repeat(63)}.test.`]);
    expect(await short(server!.port, 'x.test', 'MX')).toEqual(['0 .']);
    expect((await short(server!.port, 'x.test', 'TXT', '+tcp'))[0]!.length).toBe(60_000 + 2 * 236 + 235);
  });

  it('echoes a question it cannot read back as sent (a dot inside a label, bytes not UTF-8) byte for byte, with no record for it', async () => {
    const { server } = await dnsServer({ records: [{ name: '*.w.test', type: 'TXT', value: 'hi' }, { name: 'a.b.test', type: 'A', value: '127.0.0.1' }] });
    for (const name of ['a\\.b.test', '\\255x.w.test', 'a\\.b.w.test']) {
      const { stdout, stderr } = await runTool('kdig', ['@127.0.0.1', '-p', String(server!.port), '+retry=0', '+time=3', name, 'TXT']);
      const full = stdout.toString();
      expect(stderr + full).not.toMatch(/question sections are different/);
      expect(full).toMatch(/status: NXDOMAIN[\s\S]*ANSWER: 0/);
    }
    // A name with a space (\032) reads back the same: answered as usual.
    expect(await short(server!.port, 'x\\032y.w.test', 'TXT')).toEqual(['"hi"']);
  });

  it('names what was asked in its traffic as kdig writes it (\\., \\DDD), not garbled into another name; no final dot, the root as "."', async () => {
    const { server, handle } = await dnsServer({ records: [{ name: '*.w.test', type: 'TXT', value: 'hi' }, { name: 'a.b.test', type: 'A', value: '127.0.0.1' }] });
    const names = ['a\\.b.test', '\\255x.w.test', 'x\\032y.w.test', 'semi\\;colon\\#hash\\007bell.test', 'Caf\\195\\169.test', '.'];
    for (const name of names) await runTool('kdig', ['@127.0.0.1', '-p', String(server!.port), '+retry=0', '+time=3', '+noidn', name, 'TXT']);
    expect((handle.traffic.recent() as DnsRecord[]).map((r) => r.summary)).toEqual([
      // Read as dns-packet reads it, the first was "a.b.test", a name with a record.
      'TXT a\\.b.test → NXDOMAIN, 0 answers (udp)',
      'TXT \\255x.w.test → NXDOMAIN, 0 answers (udp)',
      'TXT x\\032y.w.test → NOERROR, 1 answer (udp)',
      'TXT semi\\;colon\\035hash\\007bell.test → NXDOMAIN, 0 answers (udp)',
      'TXT Café.test → NXDOMAIN, 0 answers (udp)',
      'TXT . → NXDOMAIN, 0 answers (udp)',
    ]);
    // The answer's owner (the wildcard's, so the name asked) is written the same way.
    expect((handle.traffic.recent() as DnsRecord[])[2]!.detail.records).toEqual(['x\\032y.w.test 60 IN TXT "hi"']);
    // What kdig itself writes for such a question (UTF-8 letters aside, which Ferry keeps).
    const { stdout } = await runTool('kdig', ['@127.0.0.1', '-p', String(server!.port), '+retry=0', '+time=3', '+noidn', 'semi\\;colon\\#hash\\007bell.test', 'TXT']);
    expect(stdout.toString()).toContain(';; semi\\;colon\\035hash\\007bell.test.');
  });

  it('refuses bad values at load, naming the record; records are never templated', async () => {
    expect((await dnsServer({ records: [{ name: 'a.test', type: 'MX', value: 'mail.test' }] })).failures[0]!.message).toMatch(
      /servers\/names\.yaml:7:14: dns\.records\[0\] \(a\.test MX\): value "mail\.test" is not "priority host"/,
    );
    expect((await dnsServer({ records: [{ name: 'a.test', type: 'A', value: '{{ip}}' }] })).failures[0]!.message).toMatch(/is not an IPv4 address/);
    // Which part is wrong, and the form wanted, not just "not in zone-file form".
    expect((await dnsServer({ records: [{ name: 'a.test', type: 'MX', value: 'high mail.test' }] })).failures[0]!.message).toMatch(
      /value "high mail\.test" is not "priority host", such as "10 mail\.example\.test": "high" is not a number from 0 to 65535\./,
    );
    expect((await dnsServer({ records: [{ name: 'a.test', type: 'SRV', value: '10 5 70000 sip.test' }] })).failures[0]!.message).toMatch(
      /is not "priority weight port target", such as "10 5 5060 sip\.example\.test": "70000" is not a number from 0 to 65535\./,
    );
    expect((await dnsServer({ upstream: 'dns.google' })).failures[0]!.message).toMatch(/dns\.upstream: "dns\.google" is not empty, system, or a server address/);
  });
  it('closes a TCP client that drips one query a byte at a time (slowloris, a lying length prefix) once it is not finished in the idle time, and answers others meanwhile', async () => {
    await withTcpIdle(400, async () => {
      const { handle, server } = await dnsServer({ records: RECORDS });
      const raw = await rawTcpClient(server!.port);
      const closed = new Promise<number>((resolve) => raw.once('close', () => resolve(performance.now())));
      // The prefix promises 60,000 bytes; one comes every 100 ms, each well within the idle time.
      raw.write(Buffer.from([60_000 >> 8, 60_000 & 255]));
      const started = performance.now();
      const drip = setInterval(() => raw.writable && raw.write('a'), 100);
      try {
        expect(await short(server!.port, 'api.example.test', 'A', '+tcp')).toEqual(['127.0.0.1']);
        const at = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 3000))]);
        expect(at).toBeGreaterThan(0);
        expect(at - started).toBeLessThan(1500);
      } finally {
        clearInterval(drip);
      }
      const close = (handle.traffic.recent() as unknown as MessageRecord[]).find((r) => r.detail.event === 'close')!;
      expect([close.level, close.note]).toEqual(['warning', expect.stringMatching(/^a query not finished in 0\.4 s \(\d+ of 60,002 bytes came\): closed by the server$/)]);
    });
  });

  it('closes a TCP connection idle for the idle time (RFC 7766 6.2.3), not one still asking, and records it', async () => {
    await withTcpIdle(400, async () => {
      const { handle, server } = await dnsServer({ records: RECORDS });
      const opened = performance.now();
      const raw = await rawTcpClient(server!.port);
      const local = `${raw.localAddress}:${raw.localPort}`;
      let received = Buffer.alloc(0);
      raw.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
      const closed = new Promise<number>((resolve) => raw.once('close', () => resolve(performance.now())));
      const query = dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'api.example.test' }] });
      const prefixed = tcpFramed(query);
      // A question every 250 ms for a second: shorter pauses than the idle time keep it open.
      for (let i = 0; i < 4; i++) {
        raw.write(prefixed);
        await new Promise((r) => setTimeout(r, 250));
      }
      const asked = performance.now();
      const at = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
      expect(at).toBeGreaterThan(0);
      expect(at - opened).toBeGreaterThan(1000);
      expect(at - asked).toBeLessThan(2000);
      expect(dnsPacket.decode(received.subarray(2)).answers?.[0]).toMatchObject({ type: 'A', data: '127.0.0.1' });
      const records = handle.traffic.recent();
      expect(records.filter((r) => (r as DnsRecord).detail.name === 'api.example.test')).toHaveLength(4);
      const close = records.at(-1) as unknown as MessageRecord;
      expect([close.kind, close.detail.peer, close.detail.event, close.note]).toEqual(['dns', local, 'close', 'idle for 0.4 s: closed by the server']);
      expect(close.bytesIn).toBe(4 * prefixed.length);
      expect(close.bytesOut).toBe(received.length);
    });
  });
  it('stops reading a TCP client that pipelines queries and never reads the answers, then closes it with a log line', async () => {
    await withTcpIdle(1500, async () => {
      const { handle, server } = await dnsServer({ records: RECORDS });
      const raw = await rawTcpClient(server!.port);
      raw.pause(); // never reads
      const query = dnsPacket.encode({ type: 'query', id: 9, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'many.example.test' }] });
      const prefixed = tcpFramed(query);
      // 64 KB of queries at a time (each answered with 40 records), while the server takes them:
      // 16 MB at most, 5 s at most. A write not taken within 500 ms means it stopped reading.
      const batch = Buffer.concat(Array.from({ length: Math.floor(65_536 / prefixed.length) }, () => prefixed));
      let taken = 0;
      let stalled = false;
      const until = Date.now() + 5000;
      while (taken < 256 && Date.now() < until) {
        if (!raw.write(batch)) {
          const drained = await Promise.race([new Promise<boolean>((r) => raw.once('drain', () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), 500))]);
          if (!drained) {
            stalled = true;
            break;
          }
        }
        taken++;
      }
      expect(stalled).toBe(true);
      // The kernel's buffers hold a few MB of answers; not every answer to 16 MB of queries.
      expect(taken * batch.length).toBeLessThan(4 * 1024 * 1024);
      const closed = new Promise<void>((resolve) => raw.once('close', () => resolve()));
      await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
      expect(raw.destroyed).toBe(true);
      const close = handle.traffic.recent().at(-1) as unknown as MessageRecord;
      expect([close.detail.event, close.level, close.note]).toEqual(['close', 'warning', 'its answers not read for 1.5 s: closed by the server']);
    });
  });
  it("a failure of Ferry's own while answering (made by the encoder throwing once) answers SERVFAIL with an error line, and the server goes on", async () => {
    const { server, handle } = await dnsServer({ records: RECORDS, upstream: '' });
    const query = dnsPacket.encode({ type: 'query', id: 777, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'api.example.test' }] });
    const encode = vi.spyOn(dnsPacket, 'encode').mockImplementationOnce(() => {
      throw new TypeError('made to fail');
    });
    try {
      const answer = dnsPacket.decode(await udpAsk(server!.port, query)) as dnsPacket.DecodedPacket & { rcode?: string };
      expect([answer.id, answer.rcode]).toEqual([777, 'SERVFAIL']);
    } finally {
      encode.mockRestore();
    }
    // Before, the rejection went unhandled and ended ferry serve: the next query is answered.
    expect(await short(server!.port, 'api.example.test', 'A', '+tcp')).toEqual(['127.0.0.1']);
    const failed = (handle.traffic.recent() as DnsRecord[]).find((r) => r.summary.includes('SERVFAIL'));
    expect([failed?.level, failed?.note]).toEqual([
      'error',
      "Ferry's DNS server failed unexpectedly answering this query (TypeError: made to fail). This is a bug in Ferry: please report it with the server's file; the server goes on.",
    ]);
  });
});
