/**
 * DNS requests against the local fixture (test/support/dns-fixture.ts; loopback answers only)
 * over UDP, TCP (when a UDP answer is truncated, and asked for), DoT and DoH, cross-checked with
 * Debian's kdig asking the same fixture; the system resolver for `localhost` only; bad input
 * refused before anything is sent.
 */
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSchema, workspaceSchema } from '../../src/model/index.js';
import { HttpAgents, requestKind, SendError, type ProtocolResult } from '../../src/protocols/index.js';
import dns from 'node:dns';
import { reverseName } from '../../src/protocols/dns/question.js';
import { zoneLine } from '../../src/protocols/dns/records.js';
import { systemResolve } from '../../src/protocols/dns/system.js';
import { PrepareError, prepareRequest } from '../../src/request/index.js';
import { sendInheriting } from './kind-cases.js';
import { systemDnsServers } from '../../src/support/dns-address.js';
import { startDnsFixture, type DnsFixture } from '../support/dns-fixture.js';
import { testCertificate } from '../support/servers/index.js';
import { hasProgram } from './socket-peers.js';

const dnsKind = requestKind('dns');
let fixture: DnsFixture;

const longText = 'x'.repeat(200);
/** A CAA record's data: flags, the tag, then the value's bytes (not a character-string: no length byte). */
const caaData = (flags: number, tag: string, value: Buffer) => Buffer.concat([Buffer.from([flags, tag.length]), Buffer.from(tag), value]);
const characterStrings = (...parts: Buffer[]) => Buffer.concat(parts.flatMap((p) => [Buffer.from([p.length]), p]));
/** Not UTF-8 (0xff), a quote, a backslash, a line feed, a space. */
const notUtf8 = Buffer.from([0x61, 0xff, 0x62, 0x22, 0x5c, 0x0a, 0x20]);
beforeAll(async () => {
  fixture = await startDnsFixture(
    { 'api.ferry.test': '127.0.0.7', localhost: '127.0.0.1' },
    {
      tls: await testCertificate(),
      raw: [
        { name: 'bytes.ferry.test', type: 'CAA', rdata: caaData(0, 'issue', notUtf8) },
        { name: 'utf8.ferry.test', type: 'CAA', rdata: caaData(128, 'iodef', Buffer.from('mailto:été@ferry.test')) },
        { name: 'bytes.ferry.test', type: 'HINFO', rdata: characterStrings(Buffer.from([0x61, 0xff, 0x22]), Buffer.from('Unix')) },
        {
          name: 'bytes.ferry.test', type: 'NAPTR',
          // order 100, preference 10, flags, services, a regexp with a byte that is not UTF-8, replacement "." (the root).
          rdata: Buffer.concat([Buffer.from([0, 100, 0, 10]), characterStrings(Buffer.from('U'), Buffer.from('E2U+sip'), Buffer.concat([Buffer.from('!^.*$!sip:'), Buffer.from([0xff]), Buffer.from('@ferry.test!')])), Buffer.from([0])]),
        },
        // HTTPS (RFC 9460), which dns-packet has no name for: priority 1, target "." (the owner), alpn=h2.
        { name: 'svc.ferry.test', type: 'HTTPS', rdata: Buffer.from('0001000001000302683' + '2', 'hex') },
      ],
      records: [
        { name: 'api.ferry.test', type: 'AAAA', ttl: 30, data: '::1' },
        { name: 'ferry.test', type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mail.ferry.test' } },
        { name: 'ferry.test', type: 'TXT', ttl: 300, data: ['v=spf1 -all'] },
        { name: 'www.ferry.test', type: 'CNAME', ttl: 60, data: 'api.ferry.test' },
        { name: '_api._tcp.ferry.test', type: 'SRV', ttl: 60, data: { priority: 1, weight: 5, port: 8443, target: 'api.ferry.test' } },
        { name: 'ferry.test', type: 'CAA', ttl: 60, data: { flags: 0, tag: 'issue', value: 'ca.ferry.test' } },
        { name: '7.0.0.127.in-addr.arpa', type: 'PTR', ttl: 60, data: 'api.ferry.test' },
        // A string that is not UTF-8 (0xff, a quote, a backslash, a line feed), then a plain one.
        { name: 'bytes.ferry.test', type: 'TXT', ttl: 60, data: [Buffer.from([0x61, 0xff, 0x62, 0x22, 0x5c, 0x0a]), 'plain'] },
        { name: 'utf8.ferry.test', type: 'TXT', ttl: 60, data: ['été\nlines'] },
        { name: 'ferry.test', type: 'DS', ttl: 60, data: { keyTag: 12345, algorithm: 8, digestType: 2, digest: Buffer.alloc(32, 0xab) } },
        { name: 'sip.ferry.test', type: 'NAPTR', ttl: 60, data: { order: 100, preference: 10, flags: 'S', services: 'SIP+D2U', regexp: '', replacement: '_sip._udp.ferry.test' } },
        // Four 200-byte strings: over 512 bytes, so a UDP answer is truncated.
        ...[1, 2, 3, 4].map((n) => ({ name: 'big.ferry.test', type: 'TXT' as const, ttl: 60, data: [`${n}${longText}`] })),
      ],
    },
  );
});
afterAll(() => fixture?.close());

async function ask(name: string, type: string, dns: Record<string, unknown> = {}, settings: Record<string, unknown> = {}): Promise<ProtocolResult> {
  const request = requestSchema.parse({ name: 'q', kind: 'dns', url: name, method: type, dns: { server: `127.0.0.1:${fixture.port}`, ...dns }, settings: { timeoutMs: 5000, ...settings } });
  const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: dnsKind });
  const agents = new HttpAgents();
  try {
    return await dnsKind.send!(prepared, { agents, maxResponseMb: 50, workspaceRoot: process.cwd(), allowFilesOutside: false });
  } finally {
    await agents.close();
  }
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the query to fail');
}

const json = (r: ProtocolResult) => JSON.parse(Buffer.from(r.body).toString()) as Array<{ name: string; type: string; ttl: number; data: unknown }>;

describe('dns: over UDP', () => {
  it('A: NOERROR, flags, the records as JSON (pm.response.json()) and in zone-file form, the server that answered', async () => {
    const r = await ask('api.ferry.test', 'a');
    expect(r.outcome).toMatchObject({ status: 0, text: 'NOERROR', ok: true });
    expect(json(r)).toEqual([{ name: 'api.ferry.test', type: 'A', class: 'IN', ttl: 60, data: '127.0.0.7' }]);
    expect(r.detail).toMatchObject({
      question: 'api.ferry.test. IN A',
      rcode: 'NOERROR',
      flags: ['qr', 'aa', 'rd', 'ra'],
      server: `127.0.0.1:${fixture.port}`,
      transport: 'udp',
      answer: ['api.ferry.test. 60 IN A 127.0.0.7'],
    });
    expect(r.remoteAddress).toBe('127.0.0.1');
  });

  it('method "" asks A: the DNS kind\'s methodWhenEmpty, given to the prepared request (reports show A), not a second default in the client', async () => {
    const request = requestSchema.parse({ name: 'q', kind: 'dns', url: 'api.ferry.test', method: '', dns: { server: `127.0.0.1:${fixture.port}` }, settings: { timeoutMs: 5000 } });
    const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: dnsKind });
    expect(prepared.method).toBe(dnsKind.methodWhenEmpty);
    const r = await ask('api.ferry.test', '');
    expect(r.detail).toMatchObject({ question: 'api.ferry.test. IN A', answer: ['api.ferry.test. 60 IN A 127.0.0.7'] });
    expect(json(r)).toEqual([{ name: 'api.ferry.test', type: 'A', class: 'IN', ttl: 60, data: '127.0.0.7' }]);
  });

  it('an auth set on the request itself is refused (a DNS query carries none, it was silently left out); one inherited is left out and the query answered', async () => {
    const request = requestSchema.parse({ name: 'q', kind: 'dns', url: 'api.ferry.test', method: 'A', dns: { server: `127.0.0.1:${fixture.port}` }, settings: { timeoutMs: 5000 } });
    const own = await failure(prepareRequest({ request: { ...request, auth: { type: 'bearer', token: 't' } }, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: dnsKind }));
    expect(own).toBeInstanceOf(PrepareError);
    expect(own.message).toBe(`request "q": Bearer auth is not sent by DNS requests: they carry no credentials of their own. Set this request's auth to none (or inherit).`);
    const inherited = await sendInheriting(dnsKind, request, { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'c', clientSecret: 's' });
    expect(json(inherited)).toEqual([{ name: 'api.ferry.test', type: 'A', class: 'IN', ttl: 60, data: '127.0.0.7' }]);
  });

  it('recursion: false leaves RD unset', async () => {
    const r = await ask('api.ferry.test', 'A', { recursion: false });
    expect(r.detail!.flags).toEqual(['qr', 'aa', 'ra']);
  });

  it('each record type in zone-file form', async () => {
    const lines = async (name: string, type: string) => (await ask(name, type)).detail!.answer as string[];
    expect(await lines('api.ferry.test', 'AAAA')).toEqual(['api.ferry.test. 30 IN AAAA ::1']);
    expect(await lines('ferry.test', 'MX')).toEqual(['ferry.test. 300 IN MX 10 mail.ferry.test.']);
    expect(await lines('ferry.test', 'TXT')).toEqual(['ferry.test. 300 IN TXT "v=spf1 -all"']);
    expect(await lines('www.ferry.test', 'CNAME')).toEqual(['www.ferry.test. 60 IN CNAME api.ferry.test.']);
    expect(await lines('_api._tcp.ferry.test', 'SRV')).toEqual(['_api._tcp.ferry.test. 60 IN SRV 1 5 8443 api.ferry.test.']);
    expect(await lines('ferry.test', 'CAA')).toEqual(['ferry.test. 60 IN CAA 0 issue "ca.ferry.test"']);
    expect((await lines('ferry.test', 'ANY')).length).toBe(4);
    // A type without a zone-file form here is shown as its bytes (RFC 3597), not as its JSON's.
    expect(await lines('ferry.test', 'DS')).toEqual([`ferry.test. 60 IN DS \\# 36 30390802${'ab'.repeat(32)}`]);
  });

  it('HTTPS and SVCB (the app offers them; dns-packet has no name for them) and TYPE<n> are asked, and answered as their bytes (RFC 3597)', async () => {
    for (const method of ['HTTPS', 'https', 'TYPE65']) {
      const r = await ask('svc.ferry.test', method);
      expect(r.detail).toMatchObject({ question: 'svc.ferry.test. IN HTTPS', rcode: 'NOERROR', answer: ['svc.ferry.test. 60 IN HTTPS \\# 10 00010000010003026832'] });
      expect(json(r)).toEqual([{ name: 'svc.ferry.test', type: 'HTTPS', class: 'IN', ttl: 60, data: '00010000010003026832' }]);
    }
    // The name has no SVCB record: an empty NOERROR, the question as asked.
    expect((await ask('svc.ferry.test', 'SVCB')).detail).toMatchObject({ question: 'svc.ferry.test. IN SVCB', rcode: 'NOERROR', answer: [] });
    expect((await failure(ask('svc.ferry.test', 'TYPE70000'))).message).toContain('"TYPE70000" is not a DNS record type');
    expect((await failure(ask('svc.ferry.test', 'UNKNOWN_65'))).message).toContain('is not a DNS record type');
  });

  it('TXT bytes that are not UTF-8 show as \\DDD escapes, as kdig shows them, in the JSON and the zone-file form', async () => {
    const r = await ask('bytes.ferry.test', 'TXT');
    expect(r.detail!.answer).toEqual(['bytes.ferry.test. 60 IN TXT "a\\255b\\"\\\\\\010" "plain"']);
    expect(json(r)[0]!.data).toEqual(['a\\255b\\"\\\\\\010', 'plain']);
    expect(JSON.stringify(r.detail!.records)).not.toContain('\ufffd');
    // UTF-8 text stays text in the JSON; the zone-file line escapes its line feed to stay one line.
    const utf8 = await ask('utf8.ferry.test', 'TXT');
    expect(json(utf8)[0]!.data).toEqual(['été\nlines']);
    expect(utf8.detail!.answer).toEqual(['utf8.ferry.test. 60 IN TXT "été\\010lines"']);
  });

  it('CAA, HINFO and NAPTR bytes that are not UTF-8 show as \\DDD escapes, as kdig shows them, not as U+FFFD; UTF-8 stays text', async () => {
    const caa = await ask('bytes.ferry.test', 'CAA');
    expect(caa.detail!.answer).toEqual(['bytes.ferry.test. 60 IN CAA 0 issue "a\\255b\\"\\\\\\010 "']);
    expect(json(caa)[0]!.data).toMatchObject({ flags: 0, tag: 'issue', value: 'a\\255b\\"\\\\\\010 ' });
    const hinfo = await ask('bytes.ferry.test', 'HINFO');
    expect(hinfo.detail!.answer).toEqual(['bytes.ferry.test. 60 IN HINFO "a\\255\\"" "Unix"']);
    expect(json(hinfo)[0]!.data).toEqual({ cpu: 'a\\255\\"', os: 'Unix' });
    const naptr = await ask('bytes.ferry.test', 'NAPTR');
    expect(naptr.detail!.answer).toEqual(['bytes.ferry.test. 60 IN NAPTR 100 10 "U" "E2U+sip" "!^.*$!sip:\\255@ferry.test!" .']);
    expect(json(naptr)[0]!.data).toMatchObject({ order: 100, preference: 10, flags: 'U', services: 'E2U+sip', regexp: '!^.*$!sip:\\255@ferry.test!' });
    for (const r of [caa, hinfo, naptr]) expect(JSON.stringify([r.detail!.records, r.detail!.answer])).not.toContain('\ufffd');
    // A CAA value that is UTF-8 is its text; the issuer-critical flag is kept.
    const utf8 = await ask('utf8.ferry.test', 'CAA');
    expect(json(utf8)[0]!.data).toMatchObject({ flags: 128, tag: 'iodef', value: 'mailto:été@ferry.test' });
    expect(utf8.detail!.answer).toEqual(['utf8.ferry.test. 60 IN CAA 128 iodef "mailto:été@ferry.test"']);
    const sip = await ask('sip.ferry.test', 'NAPTR');
    expect(sip.detail!.answer).toEqual(['sip.ferry.test. 60 IN NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.ferry.test.']);
  });

  it("the system resolver's CAA values are their bytes too: UTF-8 text, else \\DDD (node hands them over as Latin-1)", async () => {
    const resolver = new dns.promises.Resolver({ timeout: 3000, tries: 1 });
    resolver.setServers([`127.0.0.1:${fixture.port}`]);
    const bytes = await systemResolve({ name: 'bytes.ferry.test', type: 'CAA' }, resolver);
    expect(bytes.records.map(zoneLine)).toEqual(['bytes.ferry.test. 0 IN CAA 0 issue "a\\255b\\"\\\\\\010 "']);
    expect(bytes.records[0]!.data).toMatchObject({ flags: 0, tag: 'issue', value: 'a\\255b\\"\\\\\\010 ' });
    const utf8 = await systemResolve({ name: 'utf8.ferry.test', type: 'CAA' }, resolver);
    expect(utf8.records.map(zoneLine)).toEqual(['utf8.ferry.test. 0 IN CAA 128 iodef "mailto:été@ferry.test"']);
    expect(utf8.records[0]!.data).toMatchObject({ flags: 128, tag: 'iodef', value: 'mailto:été@ferry.test' });
  });

  it("the system resolver's TXT strings are their bytes too: UTF-8 text, else \\DDD (node hands them over as Latin-1)", async () => {
    // The system resolver's path, asking the fixture (its own code takes the servers the computer is configured with).
    const resolver = new dns.promises.Resolver({ timeout: 3000, tries: 1 });
    resolver.setServers([`127.0.0.1:${fixture.port}`]);
    const bytes = await systemResolve({ name: 'bytes.ferry.test', type: 'TXT' }, resolver);
    expect(bytes.records.map((r) => r.data)).toEqual([['a\\255b\\"\\\\\\010', 'plain']]);
    expect(bytes.records.map(zoneLine)).toEqual(['bytes.ferry.test. 0 IN TXT "a\\255b\\"\\\\\\010" "plain"']);
    const utf8 = await systemResolve({ name: 'utf8.ferry.test', type: 'TXT' }, resolver);
    expect(utf8.records.map((r) => r.data)).toEqual([['été\nlines']]);
  });

  it.runIf(hasProgram('kdig'))('a name beyond ASCII is asked in its IDNA form (xn--), as kdig asks it; Ferry\'s DNS server holds a record so written under that form (both sent and matched raw UTF-8, which no other DNS client sends)', async () => {
    const { makeWorkspace, serve } = await import('../servers/helpers.js');
    const handle = await serve(await makeWorkspace({ servers: { names: { name: 'Names', kind: 'dns', dns: { records: [{ name: 'München.example.test', type: 'A', value: '127.0.0.9' }, { name: '*.ünï.example.test', type: 'A', value: '127.0.0.10' }] } } } }));
    const port = handle.servers[0]!.port;
    const kdigShort = async (name: string) => (await promisify(execFile)('kdig', ['@127.0.0.1', '-p', String(port), '+timeout=3', '+retry=0', '+short', name, 'A'], { encoding: 'utf8' })).stdout.trim();
    expect(await kdigShort('münchen.example.test')).toBe('127.0.0.9');
    expect(await kdigShort('xn--mnchen-3ya.example.test')).toBe('127.0.0.9');
    expect(await kdigShort('a.ünï.example.test')).toBe('127.0.0.10');
    for (const name of ['münchen.example.test', 'MÜNCHEN.example.test', 'xn--mnchen-3ya.example.test']) {
      const r = await ask(name, 'A', { server: `127.0.0.1:${port}` });
      expect(r.detail).toMatchObject({ question: 'xn--mnchen-3ya.example.test. IN A', rcode: 'NOERROR' });
      expect(json(r)).toEqual([{ name: 'xn--mnchen-3ya.example.test', type: 'A', class: 'IN', ttl: 60, data: '127.0.0.9' }]);
    }
    // ASCII labels keep their letter case as typed; only the label beyond ASCII changes.
    expect((await ask('A.ünï.Example.test', 'A', { server: `127.0.0.1:${port}` })).detail).toMatchObject({ question: 'A.xn--n-nga1b.Example.test. IN A', answer: ['A.xn--n-nga1b.Example.test. 60 IN A 127.0.0.10'] });
    const bad = await failure(ask('a\u200db.example.test', 'A', { server: `127.0.0.1:${port}` }));
    expect(bad.message).toBe('the label "a\u200db" of "a\u200db.example.test" cannot be written as an internationalized DNS name (IDNA); check the name.');
  });

  it('PTR takes an IP address and asks its reverse name', async () => {
    const r = await ask('127.0.0.7', 'PTR');
    expect(r.detail!.question).toBe('7.0.0.127.in-addr.arpa. IN PTR');
    expect(json(r)[0]!.data).toBe('api.ferry.test');
    expect(reverseName('::1')).toBe(`1.${'0.'.repeat(31)}ip6.arpa`);
    expect(reverseName('2001:db8::2')).toBe(`2.${'0.'.repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`);
  });

  it('NXDOMAIN is a response (status 3), not an error; without tests it does not pass', async () => {
    const r = await ask('nope.ferry.test', 'A');
    expect(r.outcome).toMatchObject({ status: 3, text: 'NXDOMAIN', ok: false });
    expect(json(r)).toEqual([]);
  });

  it('a truncated UDP answer is asked again over TCP', async () => {
    const before = fixture.transports.length;
    const r = await ask('big.ferry.test', 'TXT');
    expect(fixture.transports.slice(before)).toEqual(['udp', 'tcp']);
    expect(r.detail).toMatchObject({ transport: 'tcp', truncatedOverUdp: true });
    expect(json(r)).toHaveLength(4);
  });
});

/** A UDP peer on 127.0.0.1 answering each query with what `answer` makes of it. */
async function udpPeer(answer: (query: Buffer) => Buffer): Promise<{ server: string; close(): void }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, from) => socket.send(answer(query), from.port, from.address));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${socket.address().port}`, close: () => socket.close() };
}

describe('dns: peers that do not answer the question asked', () => {
  it('a peer sending the query back (a UDP echo: QR unset) is not a NOERROR answer without records: it fails saying so, as kdig warns', async () => {
    const peer = await udpPeer((query) => query);
    try {
      const error = await failure(ask('api.ferry.test', 'A', { server: peer.server }));
      expect(error).toBeInstanceOf(SendError);
      expect(error.message).toBe(`${peer.server} sent back a query, not an answer (its QR flag is not set): is it a DNS server? Check dns.server.`);
    } finally {
      peer.close();
    }
  });

  it('an answer to another question (same id) is not taken as the answer: records for evil.test would pass as api.ferry.test\'s', async () => {
    const peer = await udpPeer((query) => {
      const { id } = dnsPacket.decode(query);
      return dnsPacket.encode({ type: 'response', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: 'evil.test' }], answers: [{ type: 'A', name: 'evil.test', ttl: 60, data: '192.0.2.66' }] });
    });
    try {
      const error = await failure(ask('api.ferry.test', 'A', { server: peer.server }));
      expect(error).toBeInstanceOf(SendError);
      expect(error.message).toBe(`${peer.server} answered another question (evil.test A) than the one asked (api.ferry.test A).`);
    } finally {
      peer.close();
    }
  });

  it("a peer answering only with another query's id times out as before, and the timeout says it answered so (it read as silence)", async () => {
    const peer = await udpPeer((query) => {
      const answer = Buffer.from(query);
      answer.writeUInt16BE((query.readUInt16BE(0) + 1) & 0xffff, 0);
      answer.writeUInt16BE(0x8180, 2);
      return answer;
    });
    try {
      const error = await failure(ask('api.ferry.test', 'A', { server: peer.server }, { timeoutMs: 300 }));
      expect((error as SendError).kind).toBe('timeout');
      expect(error.message).toMatch(new RegExp(`^timed out after 300 ms \\(settings\\.timeoutMs\\); ${peer.server} answered 1 time, but with another query's id \\(got \\d+, asked \\d+\\), so not this query; is another program answering on that port\\?$`));
    } finally {
      peer.close();
    }
  });

  it('a truncated UDP answer from a server with no TCP: the retry over TCP is named as such, not as a server that is not there', async () => {
    const peer = await udpPeer((query) => {
      const answer = Buffer.from(query);
      answer.writeUInt16BE(0x8180 | dnsPacket.TRUNCATED_RESPONSE, 2);
      return answer;
    });
    try {
      const error = await failure(ask('api.ferry.test', 'A', { server: peer.server }));
      expect((error as SendError).kind).toBe('refused');
      expect(error.message).toBe(`${peer.server} answered over UDP with the TC flag (the answer did not fit in a datagram), and asking again over TCP failed: connection refused by ${peer.server}: nothing is listening there. Is the server running, and is the port right?`);
    } finally {
      peer.close();
    }
  });

  it('the question comes back in any letter case (0x20 mixing) and that is the answer; a FORMERR without the question is one too', async () => {
    const mixed = await udpPeer((query) => {
      const { id } = dnsPacket.decode(query);
      return dnsPacket.encode({ type: 'response', id, flags: 0, questions: [{ type: 'A', name: 'API.Ferry.TEST' }], answers: [{ type: 'A', name: 'API.Ferry.TEST', ttl: 60, data: '127.0.0.7' }] });
    });
    const formerr = await udpPeer((query) => dnsPacket.encode({ type: 'response', id: dnsPacket.decode(query).id, flags: 1 }));
    try {
      expect((await ask('api.ferry.test', 'A', { server: mixed.server })).outcome.text).toBe('NOERROR');
      expect((await ask('api.ferry.test', 'A', { server: formerr.server })).outcome.text).toBe('FORMERR');
    } finally {
      mixed.close();
      formerr.close();
    }
  });
});

describe('dns: TCP, DoT, DoH', () => {
  it('tcp://', async () => {
    const r = await ask('api.ferry.test', 'A', { server: `tcp://127.0.0.1:${fixture.port}` });
    expect(r.detail).toMatchObject({ transport: 'tcp', answer: ['api.ferry.test. 60 IN A 127.0.0.7'] });
  });

  it('tls:// (DNS over TLS): verifyTls refuses the self-signed fixture, and off it answers', async () => {
    const server = `tls://127.0.0.1:${fixture.tlsPort}`;
    const refused = await failure(ask('api.ferry.test', 'A', { server }));
    expect((refused as SendError).kind).toBe('tls');
    const r = await ask('api.ferry.test', 'A', { server }, { verifyTls: false });
    expect(r.detail).toMatchObject({ transport: 'tls', server, answer: ['api.ferry.test. 60 IN A 127.0.0.7'] });
    expect(r.timings.tlsMs).toBeGreaterThan(0);
  });

  it('https:// (DNS over HTTPS) through the HTTP client', async () => {
    const before = fixture.transports.length;
    const r = await ask('ferry.test', 'MX', { server: fixture.dohUrl }, { verifyTls: false });
    expect(fixture.transports.slice(before)).toEqual(['https']);
    expect(r.detail).toMatchObject({ transport: 'https', answer: ['ferry.test. 300 IN MX 10 mail.ferry.test.'] });
    const wrong = await failure(ask('ferry.test', 'MX', { server: fixture.dohUrl!.replace('/dns-query', '/other') }, { verifyTls: false }));
    expect(wrong.message).toContain('HTTP 404');
  });

  it('tls:// to a peer that accepts TCP and never finishes the TLS handshake (a plaintext DNS server over TCP waits for the 5,635 bytes the ClientHello\'s first two bytes announce): the time limit says the handshake did not finish and what to check', async () => {
    const net = await import('node:net');
    const silent = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as import('node:net').AddressInfo;
    try {
      for (const target of [port, fixture.port]) {
        const error = await failure(ask('api.ferry.test', 'A', { server: `tls://127.0.0.1:${target}` }, { timeoutMs: 500 }));
        expect((error as SendError).kind).toBe('timeout');
        expect(error.message).toBe(`timed out after 500 ms (settings.timeoutMs); 127.0.0.1:${target} accepted the connection but had not finished the TLS handshake by then; it may be a plaintext DNS server: use tcp:// (or the bare address, for UDP) in dns.server, or check the port (DNS over TLS is usually 853).`);
      }
    } finally {
      silent.close();
    }
  });

  it('a server that is not there: refused over TCP, naming it', async () => {
    const { freePort } = await import('../support/servers/index.js');
    const port = await freePort();
    const refused = await failure(ask('a.test', 'A', { server: `tcp://127.0.0.1:${port}` }));
    expect((refused as SendError).kind).toBe('refused');
    expect(refused.message).toContain(`127.0.0.1:${port}`);
  });
});

describe('dns: the system resolver (localhost only)', () => {
  it('dns.server empty asks this computer\'s resolver', async () => {
    const r = await ask('localhost', 'A', { server: '' });
    expect(r.outcome.text).toBe('NOERROR');
    expect(json(r).map((record) => record.data)).toContain('127.0.0.1');
    expect(r.detail).toMatchObject({ server: 'system resolver', transport: 'system' });
  });
});

describe("dns: the system resolver's servers, for types node's resolver cannot ask (NAPTR, HTTPS, DS…)", () => {
  /** Sets this process's DNS servers (what node read from resolv.conf) for one test, then puts them back. */
  async function withServers<T>(servers: string[], body: () => Promise<T>): Promise<T> {
    const saved = dns.getServers();
    dns.setServers(servers);
    try {
      return await body();
    } finally {
      dns.setServers(saved);
    }
  }
  /** A loopback UDP port nothing listens on: a server there refuses at once (ICMP port unreachable). */
  async function silentPort(): Promise<number> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return port;
  }
  const system = { server: '' };

  it('reads the servers as node writes them: IPv6 alone (::1) is an address, not host ":" and port 1', async () => {
    await withServers(['::1', '[::1]:5353', '127.0.0.1', '127.0.0.1:5300'], async () => {
      expect(systemDnsServers()).toEqual([{ host: '::1', port: 53 }, { host: '::1', port: 5353 }, { host: '127.0.0.1', port: 53 }, { host: '127.0.0.1', port: 5300 }]);
    });
  });

  it('asks the first configured server that answers, on the wire: flags, TTLs and records as that server gives them', async () => {
    const refusing = await silentPort();
    await withServers([`127.0.0.1:${refusing}`, `127.0.0.1:${fixture.port}`], async () => {
      const ds = await ask('ferry.test', 'DS', system);
      expect(ds.outcome).toMatchObject({ status: 0, text: 'NOERROR', ok: true });
      expect(ds.detail).toMatchObject({ server: `system resolver (127.0.0.1:${fixture.port})`, transport: 'udp', flags: ['qr', 'aa', 'rd', 'ra'] });
      expect(ds.detail!.answer).toEqual([`ferry.test. 60 IN DS \\# 36 30390802${'ab'.repeat(32)}`]);
      expect(ds.remoteAddress).toBe('127.0.0.1');
      const naptr = await ask('sip.ferry.test', 'NAPTR', system);
      expect(naptr.detail!.answer).toEqual(['sip.ferry.test. 60 IN NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp.ferry.test.']);
      // A name without records: the server's NXDOMAIN, a response as with a named server.
      expect((await ask('nope.ferry.test', 'HTTPS', system)).outcome).toMatchObject({ status: 3, text: 'NXDOMAIN' });
      // Over 512 bytes: truncated on UDP, asked again over TCP.
      const big = await ask('big.ferry.test', 'ANY', system);
      expect(big.detail).toMatchObject({ transport: 'tcp', truncatedOverUdp: true });
      expect(json(big)).toHaveLength(4);
    });
  });

  it.runIf(hasProgram('kdig'))("gives what kdig gets from the same server, Ferry's own DNS server among them", async () => {
    const { makeWorkspace, serve } = await import('../servers/helpers.js');
    const handle = await serve(await makeWorkspace({ servers: { names: { name: 'Names', kind: 'dns', dns: { records: [{ name: 'api.example.test', type: 'A', value: '127.0.0.1' }] } } } }));
    const ferryPort = handle.servers[0]!.port;
    const kdigAt = async (port: number, ...args: string[]) =>
      (await promisify(execFile)('kdig', ['@127.0.0.1', '-p', String(port), '+timeout=3', '+retry=0', ...args], { encoding: 'utf8' })).stdout;
    const status = (out: string) => /status: (\w+)/.exec(out)?.[1];
    const flags = (out: string) => /Flags: ([a-z ]+);/.exec(out)?.[1]!.trim().split(' ').sort();
    await withServers([`127.0.0.1:${ferryPort}`], async () => {
      for (const [name, type] of [['api.example.test', 'HTTPS'], ['api.example.test', 'SVCB'], ['nope.example.test', 'DNSKEY']] as const) {
        const r = await ask(name, type, system);
        const out = await kdigAt(ferryPort, name, type);
        expect([r.outcome.text, [...(r.detail!.flags as string[])].sort(), r.detail!.answer]).toEqual([status(out), flags(out), []]);
      }
    });
    await withServers([`127.0.0.1:${fixture.port}`], async () => {
      for (const [name, type] of [['ferry.test', 'DS'], ['bytes.ferry.test', 'NAPTR']] as const) {
        const data = (await ask(name, type, system)).detail!.answer as string[];
        const out = (await kdigAt(fixture.port, '+short', '+generic', name, type)).trim().split('\n');
        if (type === 'DS') expect(data.map((line) => line.split(' ').slice(4).join(' '))).toEqual(out.map((line) => line.replace(/\s+/g, ' ').toLowerCase()));
        else expect(data.map((line) => line.split(' ').slice(4).join(' '))).toEqual((await kdigAt(fixture.port, '+short', name, type)).trim().split('\n'));
      }
    });
  });

  it('says which servers did not answer, and what to do, when none does', async () => {
    const [one, two] = [await silentPort(), await silentPort()];
    await withServers([`127.0.0.1:${one}`, `127.0.0.1:${two}`], async () => {
      const error = await failure(ask('ferry.test', 'DS', system));
      expect(error).toBeInstanceOf(SendError);
      expect(error.message).toMatch(new RegExp(`^none of this computer's 2 DNS servers answered DS ferry\\.test \\(connection refused by 127\\.0\\.0\\.1:${one}.*; connection refused by 127\\.0\\.0\\.1:${two}.*\\); check the network, or name a server in dns\\.server\\.$`));
      expect((error as SendError).kind).toBe('refused');
    });
    await withServers([], async () => {
      expect((await failure(ask('ferry.test', 'DS', system))).message).toBe(
        'this computer has no DNS server configured (none in /etc/resolv.conf, or the network settings on Windows) to ask for DS ferry.test; name one in dns.server.',
      );
    });
  });
});

describe('dns: refused before asking', () => {
  it('unknown record type, a name over 253, a label over 63, a bad server', async () => {
    const before = fixture.asked.length;
    expect((await failure(ask('a.test', 'AXYZ'))).message).toContain('"AXYZ" is not a DNS record type');
    // Without method a request has HTTP's GET (spec 2.3): said as such, with the field and the types.
    const request = requestSchema.parse({ name: 'q', kind: 'dns', url: 'a.test', dns: { server: `127.0.0.1:${fixture.port}` } });
    const missing = await failure(prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: dnsKind }));
    expect(missing).toBeInstanceOf(PrepareError);
    expect(missing.message).toBe(
      'request "q": method: "GET" is HTTP\'s method, which a request without method gets; for a DNS request, method is the record type to ask for: A, AAAA, CNAME, MX, NS, TXT, SOA, SRV, PTR, CAA, HTTPS, SVCB, NAPTR, DS, DNSKEY or ANY. Set it, such as method: A.',
    );
    expect((await failure(ask('a.test', 'get'))).message).toContain('"get" is HTTP\'s method');
    expect((await failure(ask(`${'a.'.repeat(126)}abc`, 'A'))).message).toContain('255 characters; DNS names have at most 253');
    expect((await failure(ask(`${'l'.repeat(64)}.test`, 'A'))).message).toContain('64 characters; a DNS label has at most 63');
    expect((await failure(ask('a..test', 'A'))).message).toContain('empty label');
    expect((await failure(ask('a.test', 'A', { server: '127.0.0.1:99999' }))).message).toContain('port 99999 is out of range');
    expect((await failure(ask('a.test', 'A', { server: 'dns.example' }))).message).toContain('not an IP address');
    expect((await failure(ask('a.test', 'A', { server: 'quic://127.0.0.1' }))).message).toContain('quic://');
    expect(fixture.asked.length).toBe(before);
  });
});

describe.runIf(hasProgram('kdig'))('dns: answers cross-checked with kdig asking the same fixture', () => {
  // Asynchronously: the fixture answers from this same process.
  const kdig = async (...args: string[]) => {
    const out = await promisify(execFile)('kdig', ['@127.0.0.1', '-p', String(fixture.port), '+short', '+timeout=3', '+retry=0', ...args], { encoding: 'utf8' });
    return out.stdout.trim().split('\n').filter(Boolean);
  };
  const data = (r: ProtocolResult) => (r.detail!.answer as string[]).map((line) => line.split(' ').slice(4).join(' '));

  for (const [name, type] of [['api.ferry.test', 'A'], ['api.ferry.test', 'AAAA'], ['ferry.test', 'MX'], ['ferry.test', 'TXT'], ['bytes.ferry.test', 'TXT'], ['_api._tcp.ferry.test', 'SRV'], ['www.ferry.test', 'CNAME'], ['ferry.test', 'CAA'],
    ['bytes.ferry.test', 'CAA'], ['bytes.ferry.test', 'HINFO'], ['bytes.ferry.test', 'NAPTR'], ['sip.ferry.test', 'NAPTR']] as const) {
    it(`${type} ${name}: the same data as kdig`, async () => {
      expect(data(await ask(name, type))).toEqual(await kdig(name, type));
    });
  }

  for (const [name, type] of [['ferry.test', 'DS'], ['svc.ferry.test', 'HTTPS']] as const) {
    it(`${type}, a type without a zone-file form here: its bytes as kdig +generic gives them (RFC 3597)`, async () => {
      const generic = (await kdig('+generic', name, type)).map((line) => line.replace(/\s+/g, ' ').toLowerCase());
      expect(data(await ask(name, type))).toEqual(generic);
    });
  }

  it('the truncated TXT over TCP and DoT give what kdig +tcp gives', async () => {
    const expected = await kdig('+tcp', 'big.ferry.test', 'TXT');
    expect(expected).toHaveLength(4);
    expect(data(await ask('big.ferry.test', 'TXT'))).toEqual(expected);
    expect(data(await ask('big.ferry.test', 'TXT', { server: `tls://127.0.0.1:${fixture.tlsPort}` }, { verifyTls: false }))).toEqual(expected);
  });
});
