/**
 * A hand-made Engine.IO 4 server on 127.0.0.1 for hostile Socket.IO server tests: it opens the
 * session, waits for the client's CONNECT to the namespace, then answers it with packets the test
 * gives, all in one read of the client's: one long-polling payload (packets joined by Engine.IO's
 * record separator), or, over WebSocket, the frames written in one socket write. What it sends
 * after is nothing: polls are held open, the WebSocket stays.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { frame, rawPeer } from './raw-websocket-peer.js';

export interface RawEngineIoPeer {
  url: string;
  host: string;
  close(): void;
}

const OPEN = '0{"sid":"e1","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}';
/** Engine.IO's separator between the packets of one long-polling payload. */
const RECORD_SEPARATOR = '\x1e';

/** Serves long-polling only: `packets` (Engine.IO packets as text) answer the poll after the client's CONNECT. */
export async function rawPollingPeer(packets: readonly string[]): Promise<RawEngineIoPeer> {
  let connected: () => void;
  const connect = new Promise<void>((resolve) => (connected = resolve));
  let answered = false;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const text = (body: string) => response.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' }).end(body);
    if (!url.pathname.startsWith('/socket.io/') || url.searchParams.get('transport') !== 'polling') {
      response.writeHead(400).end();
      return;
    }
    if (!url.searchParams.has('sid')) return text(OPEN);
    if (request.method === 'POST') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        if (body.split(RECORD_SEPARATOR).some((packet) => packet.startsWith('40'))) connected();
        text('ok');
      });
      return;
    }
    // The first poll after the handshake gets the packets, once the client has asked to join; later polls wait.
    if (answered) return;
    answered = true;
    void connect.then(() => text(packets.join(RECORD_SEPARATOR)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `http://${host}/`, host, close: () => { server.closeAllConnections(); server.close(); } };
}

/** Serves WebSocket only: once the client's first frame (its CONNECT) comes, `packets` go as text frames in one write. */
export async function rawWebSocketIoPeer(packets: readonly (string | Buffer)[]): Promise<RawEngineIoPeer> {
  const peer = await rawPeer((socket: Duplex) => {
    socket.write(frame(0x1, OPEN));
    socket.once('data', () => socket.write(Buffer.concat(packets.map((packet) => (Buffer.isBuffer(packet) ? packet : frame(0x1, packet))))));
  });
  return { url: peer.url.replace('ws:', 'http:'), host: peer.host, close: peer.close };
}
