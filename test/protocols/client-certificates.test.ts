/**
 * Client certificates and extra CAs (issue 20) over real sockets: a TLS server whose certificate
 * a private CA signed and that requires a client certificate from that CA. Accepted with the
 * right one; refused with none or a wrong one, each saying why; a key that does not match its
 * certificate and a wrong passphrase are caught before connecting.
 */
import { promises as fs } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { Aedes } from 'aedes';
import dnsPacket from 'dns-packet';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { requestSchema } from '../../src/model/index.js';
import { requestKind } from '../../src/protocols/index.js';
import { readSettings, setSetting, settingsFile } from '../../src/appdata/index.js';
import { HttpAgents, SendError, sendHttp } from '../../src/protocols/http/http.js';
import { loadClientTls } from '../../src/request/client-tls-files.js';
import { listenLoopback, type Listening } from '../support/servers/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { sendWith } from './kind-cases.js';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { runLoadTest } from '../../src/load/index.js';
import { openedWorkspace } from '../runner/workspace.js';
import { preparedRequest } from './prepared.js';
import { ECHO_PROTO } from './grpc-peer.js';

type Pems = { key: string; cert: string };
const ec = { keyType: 'ec', algorithm: 'sha256', days: 2 } as const;

async function issue(cn: string, ca?: Pems, extensions: unknown[] = [], passphrase?: string): Promise<Pems> {
  const made = await selfsigned.generate([{ name: 'commonName', value: cn }], { ...ec, ...(ca ? { ca } : {}), extensions, ...(passphrase ? { passphrase } : {}) } as never);
  return { key: made.private, cert: made.cert };
}

describe('client certificates and a private CA', () => {
  let ca: Pems;
  let client: Pems;
  let stranger: Pems;
  let server: Listening;
  let wssServer: Listening;
  let dir: string;
  const seenBy: string[] = [];

  beforeAll(async () => {
    ca = await issue('Ferry Test CA', undefined, [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }]);
    const site = await issue('localhost', ca, [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }]);
    client = await issue('ferry-client', ca, [{ name: 'extKeyUsage', clientAuth: true }]);
    stranger = await issue('stranger', undefined, [{ name: 'extKeyUsage', clientAuth: true }]);
    const tlsServer = https.createServer({ ...site, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      seenBy.push(String(peer.subject?.CN ?? ''));
      res.end(`hello ${peer.subject?.CN}`);
    });
    server = await listenLoopback(tlsServer, 'https', 'localhost');
    // The same private CA and client-certificate rule for wss://: the echo names the certificate it saw.
    const wsTls = https.createServer({ ...site, ca: ca.cert, requestCert: true, rejectUnauthorized: true });
    new WebSocketServer({ server: wsTls }).on('connection', (socket, req) => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      socket.send(`hello ${peer.subject?.CN}`);
    });
    wssServer = await listenLoopback(wsTls, 'https', 'localhost');
    dir = await fs.mkdtemp(path.join((await import('node:os')).tmpdir(), 'ferry-certs-'));
    await Promise.all([
      fs.writeFile(path.join(dir, 'ca.pem'), ca.cert),
      fs.writeFile(path.join(dir, 'client.pem'), client.cert),
      fs.writeFile(path.join(dir, 'client-key.pem'), client.key),
      fs.writeFile(path.join(dir, 'stranger.pem'), stranger.cert),
      fs.writeFile(path.join(dir, 'stranger-key.pem'), stranger.key),
    ]);
  });
  afterAll(async () => {
    await server.close();
    await wssServer.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const file = (name: string) => path.join(dir, name);
  async function send(settings: { caFiles?: string[]; clientCertificates?: Array<Record<string, string>> }, url = `${server.url}/`) {
    const tls = await loadClientTls({ caFiles: settings.caFiles ?? [], clientCertificates: settings.clientCertificates ?? [] } as never);
    const agents = new HttpAgents({ tls });
    try {
      return await sendHttp(preparedRequest(url), { agents });
    } finally {
      await agents.close();
    }
  }
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as SendError);

  it('a load test uses them too: the private CA trusted, the client certificate sent, a bad one refused before sending', async () => {
    const loadTest = { name: 'T', model: 'arrivalRate', targets: [{ request: 'A.yaml' }], stages: [{ durationSecs: 0, target: 10 }, { durationSecs: 0.5, target: 10 }] };
    const { ws, data } = await openedWorkspace({ 'loadtests/t.yaml': loadTest, 'requests/A.yaml': { name: 'A', url: `${server.url}/load` } });
    const settings = { ...DEFAULT_SETTINGS, caFiles: [file('ca.pem')], clientCertificates: [{ host: 'localhost', certPath: file('client.pem'), keyPath: file('client-key.pem') }] };
    const before = seenBy.length;
    const trusted = await runLoadTest({ workspace: ws, id: 't', data, settings, workers: 1 });
    expect(trusted.overall.count).toBeGreaterThan(0);
    expect(trusted.overall.errors.total).toBe(0);
    expect(trusted.overall.statuses).toEqual({ 200: trusted.overall.count });
    expect(seenBy.slice(before).every((cn) => cn === 'ferry-client')).toBe(true);
    // Without the CA the same test fails its TLS handshakes.
    const untrusted = await runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1 });
    expect(untrusted.overall.errors.tls).toBe(untrusted.overall.count);
    // A client certificate whose key does not fit: refused at planning, naming it.
    const mismatched = { ...settings, clientCertificates: [{ host: 'localhost', certPath: file('client.pem'), keyPath: file('stranger-key.pem') }] };
    await expect(runLoadTest({ workspace: ws, id: 't', data, settings: mismatched, workers: 1 })).rejects.toThrow(/loadtests\/t\.yaml: A\.yaml: the client certificate for localhost .* the key does not belong to the certificate/);
  });

  it('the private CA is not trusted by default; caFiles adds it to the system authorities', async () => {
    const untrusted = await failure(send({ clientCertificates: [{ host: 'localhost', certPath: file('client.pem'), keyPath: file('client-key.pem') }] }));
    expect(untrusted?.message).toMatch(/^TLS error with localhost:\d+: .*(self-signed|unable to verify|issuer)/i);
    const result = await send({ caFiles: [file('ca.pem')], clientCertificates: [{ host: 'localhost', certPath: file('client.pem'), keyPath: file('client-key.pem') }] });
    expect(result.status).toBe(200);
    expect(Buffer.from(result.body).toString()).toBe('hello ferry-client');
  });

  it('wss:// WebSocket: caFiles trusted and the client certificate sent, as for https://', async () => {
    const tls = await loadClientTls({ caFiles: [file('ca.pem')], clientCertificates: [{ host: 'localhost', certPath: file('client.pem'), keyPath: file('client-key.pem') }] } as never);
    const url = wssServer.url.replace('https://', 'wss://');
    const request = requestSchema.parse({ name: 'wss', kind: 'websocket', url, settings: { timeoutMs: 5000, stream: { maxEvents: 1 } } });
    const result = await sendWith(requestKind('websocket'), request, undefined, { agents: new HttpAgents({ tls }) });
    expect(result.messages?.map((m) => m.text)).toEqual(['hello ferry-client']);
    // Without the certificate the server refuses the handshake.
    const none = await sendWith(requestKind('websocket'), request, undefined, { agents: new HttpAgents({ tls: await loadClientTls({ caFiles: [file('ca.pem')], clientCertificates: [] } as never) }) }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(none?.message).toMatch(/certificate required/);
    // A certificate that cannot be used is said before connecting, as for https://.
    const mismatch = await loadClientTls({ caFiles: [file('ca.pem')], clientCertificates: [{ host: 'localhost', certPath: file('client.pem'), keyPath: file('stranger-key.pem') }] } as never);
    const refused = await sendWith(requestKind('websocket'), request, undefined, { agents: new HttpAgents({ tls: mismatch }) }).then(
      () => undefined,
      (error: unknown) => error as SendError,
    );
    expect(refused?.kind).toBe('tls');
    expect(refused?.message).toContain('the key does not belong to the certificate');
  });

  it('grpcs://, mqtts://, tls:// (TCP) and DNS over TLS: caFiles trusted and the client certificate sent, as for https://', async () => {
    const site = await issue('localhost', ca, [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }]);
    const mutual = { ...site, ca: ca.cert, requestCert: true, rejectUnauthorized: true };
    const cn = (socket: import('node:tls').TLSSocket) => String(socket.getPeerCertificate().subject?.CN ?? '');
    // TCP: greets with the certificate's name.
    const tcp = tls.createServer(mutual, (socket) => socket.end(`hello ${cn(socket)}\n`));
    // DNS over TLS: every question answered with 127.0.0.5.
    const dot = tls.createServer(mutual, (socket) => {
      socket.once('data', (data: Buffer) => {
        const query = dnsPacket.decode(data.subarray(2));
        const answer = dnsPacket.streamEncode({ type: 'response', id: query.id, flags: 0, questions: query.questions, answers: [{ type: 'A', name: query.questions![0]!.name, ttl: 5, data: '127.0.0.5' }] });
        socket.end(answer);
      });
    });
    // MQTT: aedes behind the same TLS rule.
    const broker = await Aedes.createBroker();
    const mqttTls = tls.createServer(mutual, (socket) => broker.handle(socket));
    // gRPC: the test service's Say, on credentials that check the client's certificate.
    const definition = protoLoader.loadSync(ECHO_PROTO, { includeDirs: [path.dirname(ECHO_PROTO)] });
    const echo = (grpc.loadPackageDefinition(definition) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } }).ferry.test.Echo;
    const grpcServer = new grpc.Server();
    grpcServer.addService(echo.service, { Say: (call: grpc.ServerUnaryCall<{ text: string }, unknown>, done: grpc.sendUnaryData<unknown>) => done(null, { text: `hello ${call.request.text}` }) });
    const grpcPort = await new Promise<number>((resolve, reject) =>
      grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createSsl(Buffer.from(ca.cert), [{ private_key: Buffer.from(site.key), cert_chain: Buffer.from(site.cert) }], true), (e, p) => (e ? reject(e) : resolve(p))),
    );
    const portOf = async (server: import('node:net').Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as import('node:net').AddressInfo).port;
    };
    const [tcpPort, dotPort, mqttPort] = [await portOf(tcp), await portOf(dot), await portOf(mqttTls)];
    const certificate = (host: string) => ({ host, certPath: file('client.pem'), keyPath: file('client-key.pem') });
    const trusted = await loadClientTls({ caFiles: [file('ca.pem')], clientCertificates: [certificate('localhost'), certificate('127.0.0.1')] } as never);
    const requests = {
      tcp: requestSchema.parse({ name: 't', kind: 'tcp', url: `tls://localhost:${tcpPort}`, settings: { timeoutMs: 5000, stream: { maxEvents: 1 } } }),
      dns: requestSchema.parse({ name: 'd', kind: 'dns', method: 'A', url: 'x.test', dns: { server: `tls://127.0.0.1:${dotPort}` }, settings: { timeoutMs: 5000 } }),
      mqtt: requestSchema.parse({ name: 'm', kind: 'mqtt', url: `mqtts://localhost:${mqttPort}`, settings: { timeoutMs: 5000, stream: { timeoutMs: 1 } } }),
      grpc: requestSchema.parse({ name: 'g', kind: 'grpc', url: `grpcs://localhost:${grpcPort}`, method: 'ferry.test.Echo/Say', grpc: { protoFiles: ['test/fixtures/grpc/echo.proto'] }, body: { type: 'json', text: '{"text":"mtls"}' }, settings: { timeoutMs: 5000 } }),
    };
    try {
      const sent = async (kind: keyof typeof requests, agents?: HttpAgents) => sendWith(requestKind(kind), requests[kind], undefined, agents ? { agents } : {});
      expect(Buffer.from((await sent('tcp', new HttpAgents({ tls: trusted }))).body).toString()).toBe('hello ferry-client\n');
      expect(JSON.parse(Buffer.from((await sent('dns', new HttpAgents({ tls: trusted }))).body).toString())[0].data).toBe('127.0.0.5');
      expect((await sent('mqtt', new HttpAgents({ tls: trusted }))).outcome.text).toBe('Connection Accepted');
      expect(JSON.parse(Buffer.from((await sent('grpc', new HttpAgents({ tls: trusted }))).body).toString()).text).toBe('hello mtls');
      // Without the settings the private CA is not trusted: each fails on TLS.
      for (const kind of ['tcp', 'dns', 'mqtt', 'grpc'] as const) {
        const error = await sent(kind).then(() => undefined, (e: unknown) => e as Error);
        expect(error?.message, kind).toMatch(/self-signed|unable to verify|issuer|certificate/i);
      }
    } finally {
      grpcServer.forceShutdown();
      for (const server of [tcp, dot, mqttTls]) server.close();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    }
  });


  it('host patterns: a wildcard and a port choose the certificate', async () => {
    const port = new URL(server.url).port;
    const pick = (host: string) => send({ caFiles: [file('ca.pem')], clientCertificates: [{ host, certPath: file('client.pem'), keyPath: file('client-key.pem') }] });
    expect((await pick(`localhost:${port}`)).status).toBe(200);
    // Another port: no certificate is sent, and the server refuses.
    expect((await failure(pick('localhost:1')))?.message).toContain('it may need a client certificate');
  });

  it('without a certificate: the server refused the handshake, it may need a client certificate', async () => {
    const error = await failure(send({ caFiles: [file('ca.pem')] }));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.kind).toBe('tls');
    expect(error!.message).toMatch(/^TLS error with localhost:\d+: the server refused the handshake \([a-z ]+\); it may need a client certificate\. Set one with ferry config set clientCertificates/);
  });

  it('with a certificate from another CA: the server does not accept that certificate', async () => {
    const error = await failure(send({ caFiles: [file('ca.pem')], clientCertificates: [{ host: 'localhost', certPath: file('stranger.pem'), keyPath: file('stranger-key.pem') }] }));
    // Node's server sends an "unknown ca" alert that the client does not always read before the close.
    expect(error!.kind).toBe('tls');
    expect(error!.message).toMatch(/(after Ferry sent the client certificate|it may not accept the client certificate Ferry sent \()/);
    expect(error!.message).toContain(`${file('stranger.pem')} + ${file('stranger-key.pem')}`);
  });

  it('a key that does not match, a missing file, a CA file that is not PEM: clear messages before connecting', async () => {
    const before = seenBy.length;
    const mismatch = await failure(send({ caFiles: [file('ca.pem')], clientCertificates: [{ host: 'localhost', certPath: file('client.pem'), keyPath: file('stranger-key.pem') }] }));
    expect(mismatch!.message).toBe(`the client certificate for localhost (${file('client.pem')} + ${file('stranger-key.pem')}) cannot be used: the key does not belong to the certificate. Check certPath and keyPath.`);
    const missing = await failure(send({ clientCertificates: [{ host: 'localhost', certPath: file('nope.pem'), keyPath: file('client-key.pem') }] }));
    // Said with where the setting is kept and what to do.
    expect(missing!.message).toBe(`the client certificate for localhost cannot be used: clientCertificates (localhost) in ${settingsFile()} names ${file('nope.pem')}, but it does not exist. Change it with ferry config set clientCertificates JSON, or clear it with ferry config set clientCertificates none.`);
    await expect(loadClientTls({ caFiles: [file('client-key.pem')], clientCertificates: [] })).rejects.toThrow(`caFiles in ${settingsFile()} names ${file('client-key.pem')}, but it holds no PEM certificate`);
    expect(seenBy.length).toBe(before);
  });

  it('an encrypted key: the passphrase given to ferry config goes to the secret store', async () => {
    await isolatedDataDir();
    const locked = await issue('locked-client', ca, [{ name: 'extKeyUsage', clientAuth: true }], 'open sesame');
    const certDir = await tempDir();
    await fs.writeFile(path.join(certDir, 'c.pem'), locked.cert);
    await fs.writeFile(path.join(certDir, 'k.pem'), locked.key);
    const entry = { host: 'localhost', certPath: path.join(certDir, 'c.pem'), keyPath: path.join(certDir, 'k.pem') };
    await setSetting('caFiles', file('ca.pem'));
    await setSetting('clientCertificates', JSON.stringify([{ ...entry, passphrase: 'open sesame' }]));
    expect(await fs.readFile(path.join(process.env.FERRY_DATA_DIR!, 'settings.json'), 'utf8')).not.toContain('sesame');
    const settings = await readSettings();
    expect(settings.clientCertificates).toEqual([entry]);
    const agents = new HttpAgents({ tls: await loadClientTls(settings) });
    try {
      const result = await sendHttp(preparedRequest(`${server.url}/`), { agents });
      expect(Buffer.from(result.body).toString()).toBe('hello locked-client');
    } finally {
      await agents.close();
    }
    // Without the passphrase: said before connecting.
    await setSetting('clientCertificates', JSON.stringify([entry]));
    const problem = (await loadClientTls(await readSettings()))!.certificates[0]!.problem;
    expect(problem).toContain('the passphrase is wrong or missing');
  });

  it('ferry config refuses a certificate entry without its files', async () => {
    await isolatedDataDir();
    await expect(setSetting('clientCertificates', '[{"host":"a.test","certPath":"c.pem"}]')).rejects.toThrow('Setting clientCertificates (item 1): each client certificate takes certPath and keyPath, or pfxPath.');
    await expect(setSetting('clientCertificates', 'nope')).rejects.toThrow(/takes JSON/);
  });
});
