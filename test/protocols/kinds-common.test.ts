/** The shared protocol cases (kind-cases.ts) for HTTP and SSE, against real servers on 127.0.0.1. */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { requestKind } from '../../src/protocols/index.js';
import { describeKindCases, type RunningPeer } from './kind-cases.js';
import { testCertificate } from '../support/servers/index.js';

/** An HTTPS server with the self-signed test certificate, answering every request with `answer`. */
async function tlsPeer(answer: (res: import('node:http').ServerResponse) => void): Promise<RunningPeer> {
  const server = https.createServer(await testCertificate(), (_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `https://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

describeKindCases({
  module: requestKind('http'),
  urlFor: (port, secure) => `${secure ? 'https' : 'http'}://127.0.0.1:${port}/`,
  wrongScheme: 'ws://127.0.0.1:1/',
  startTls: () => tlsPeer((res) => res.end('ok')),
  waitsForHandshake: true,
});

describeKindCases({
  module: requestKind('sse'),
  urlFor: (port, secure) => `${secure ? 'https' : 'http'}://127.0.0.1:${port}/events`,
  wrongScheme: 'mqtt://127.0.0.1:1/',
  startTls: () => tlsPeer((res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end('data: hello\n\n');
  }),
  waitsForHandshake: true,
});
