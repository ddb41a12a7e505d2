/**
 * `ferry run` with a TCP, a UDP and DNS requests in a small workspace, scripts and tests included,
 * against peers on 127.0.0.1 (a line echo server, a UDP echo, the DNS fixture): the JSON report
 * and the terminal's verdicts come from the same kind-neutral runner as HTTP's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { startDnsFixture, type DnsFixture } from '../support/dns-fixture.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { onLines, startTcpPeer, udpEchoPeer, type TcpPeer } from '../protocols/socket-peers.js';

let tcp: TcpPeer;
let udp: Awaited<ReturnType<typeof udpEchoPeer>>;
let dns: DnsFixture;
let ws: TempWorkspace;

beforeAll(async () => {
  tcp = await startTcpPeer((socket) => onLines(socket, (line) => socket.write(`${line.toUpperCase()}\n`)));
  udp = await udpEchoPeer((d) => [Buffer.from(`pong ${d}`)]);
  dns = await startDnsFixture({ 'api.ferry.test': '127.0.0.7' });
  const test = (name: string, check: string) => `pm.test(${JSON.stringify(name)}, () => { ${check} });`;
  ws = await makeWorkspace({
    'requests/Sockets/Shout.yaml': {
      name: 'Shout', kind: 'tcp', url: 'tcp://127.0.0.1:{{tcpPort}}',
      body: { type: 'text', text: 'hello {{who}}' },
      socket: { framing: 'line', lineEnding: 'lf' },
      settings: { stream: { maxEvents: 1, timeoutMs: 5000 } },
      scripts: { postResponse: test('shouted back', "pm.expect(pm.response.text()).to.equal('HELLO CLI');") },
    },
    'requests/Sockets/Ping.yaml': {
      name: 'Ping', kind: 'udp', url: 'udp://127.0.0.1:{{udpPort}}',
      body: { type: 'text', text: 'ping' },
      settings: { stream: { maxEvents: 1, timeoutMs: 5000 } },
      scripts: { postResponse: test('pong', "pm.expect(pm.response.text()).to.equal('pong ping');") },
    },
    'requests/DNS/Api.yaml': {
      name: 'Api', kind: 'dns', method: 'A', url: 'api.{{zone}}', dns: { server: '127.0.0.1:{{dnsPort}}' },
      scripts: { postResponse: test('loopback address', "pm.expect(pm.response.json()[0].data).to.equal('127.0.0.7'); pm.expect(pm.response.code).to.equal(0);") },
    },
    'requests/DNS/Gone tested.yaml': {
      name: 'Gone tested', kind: 'dns', method: 'A', url: 'gone.{{zone}}', dns: { server: '127.0.0.1:{{dnsPort}}' },
      scripts: { postResponse: test('no such name', "pm.expect(pm.response.status).to.equal('NXDOMAIN');") },
    },
    'requests/DNS/Gone.yaml': { name: 'Gone', kind: 'dns', method: 'A', url: 'gone.{{zone}}', dns: { server: '127.0.0.1:{{dnsPort}}' } },
  });
  process.env.FERRY_DATA_DIR = ws.dataDir;
});

afterAll(async () => {
  await tcp?.close();
  await udp?.close();
  await dns?.close();
  await ws?.cleanup();
});

const vars = () => ['--var', `tcpPort=${tcp.port}`, '--var', `udpPort=${udp.port}`, '--var', `dnsPort=${dns.port}`, '--var', 'who=cli', '--var', 'zone=ferry.test'];

describe('ferry run: TCP, UDP and DNS requests', () => {
  it('runs each kind with its scripts and tests; NXDOMAIN passes with a test for it and fails without', async () => {
    const result = await ferry(['-w', ws.root, 'run', ...vars(), '-r', 'json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { results: Array<{ path: string; kind: string; passed: boolean; status: number; statusText: string; tests: Array<{ name: string; passed: boolean }>; messages?: Array<{ direction: string; text: string }>; stream?: unknown; detail?: Record<string, unknown>; error: string | null }> };
    const by = Object.fromEntries(report.results.map((r) => [r.path, r]));
    expect(by['Sockets/Shout.yaml']).toMatchObject({ kind: 'tcp', passed: true, error: null, tests: [{ name: 'shouted back', passed: true }], stream: { events: 1, stoppedBy: 'maxEvents' } });
    expect(by['Sockets/Shout.yaml']!.messages!.map((m) => [m.direction, m.text])).toEqual([['sent', 'hello cli\n'], ['received', 'HELLO CLI']]);
    expect(by['Sockets/Ping.yaml']).toMatchObject({ kind: 'udp', passed: true, tests: [{ name: 'pong', passed: true }] });
    expect(by['DNS/Api.yaml']).toMatchObject({ kind: 'dns', passed: true, status: 0, statusText: 'NOERROR', detail: { answer: ['api.ferry.test. 60 IN A 127.0.0.7'] } });
    expect(by['DNS/Gone tested.yaml']).toMatchObject({ passed: true, status: 3, statusText: 'NXDOMAIN' });
    expect(by['DNS/Gone.yaml']).toMatchObject({ passed: false, status: 3, statusText: 'NXDOMAIN', error: null });
  });

  it('the terminal names the DNS verdict rule for a request without tests', async () => {
    const result = await ferry(['-w', ws.root, 'run', 'DNS/Gone', ...vars()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('status 3 NXDOMAIN: a DNS request without tests fails unless the answer is NOERROR');
  });

  it('ferry ls tags each kind', async () => {
    const result = await ferry(['-w', ws.root, 'ls']);
    expect(result.stdout).toMatch(/tcp/);
    expect(result.stdout).toMatch(/dns A/);
  });
});
