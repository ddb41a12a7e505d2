/**
 * Hand-made WebSocket peers on 127.0.0.1 for hostile-server tests: the upgrade answered by hand
 * (a real 101 with the right accept key), then the raw socket is the test's to write what a `ws`
 * server never would: ping floods, close frames without letting go, cut or oversize frames.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

export interface RawPeer {
  url: string;
  host: string;
  /** Bytes the flood wrote (`flood`). */
  sent: { bytes: number };
  close(): void;
}

export interface RawPeerOptions {
  /** The subprotocol the 101 names: `offered` takes the client's first. Default: none named. */
  protocol?: string;
  /** Headers the 101 also carries, as raw lines. */
  extraLines?: string[];
}

/** Completes the upgrade by hand, then hands the socket to `opened`; reads nothing itself. */
export async function rawPeer(opened: (socket: Duplex, sent: { bytes: number }, request: http.IncomingMessage) => void, options: RawPeerOptions = {}): Promise<RawPeer> {
  const sent = { bytes: 0 };
  const server = http.createServer();
  server.on('upgrade', (req, socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',')[0]!.trim();
    const protocol = options.protocol === 'offered' ? offered : options.protocol;
    const lines = ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${accept}`, ...(protocol ? [`Sec-WebSocket-Protocol: ${protocol}`] : []), ...(options.extraLines ?? [])];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    socket.on('error', () => {});
    opened(socket, sent, req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `ws://${host}/`, host, sent, close: () => { server.closeAllConnections(); server.close(); } };
}

/** An unmasked server frame: FIN set, `opcode`, the payload (any length). */
export function frame(opcode: number, payload: Buffer | string): Buffer {
  const data = Buffer.from(payload);
  const head = data.length < 126 ? Buffer.from([0x80 | opcode, data.length]) : data.length < 65536 ? Buffer.from([0x80 | opcode, 126, data.length >> 8, data.length & 0xff]) : Buffer.concat([Buffer.from([0x80 | opcode, 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(data.length)); return b; })()]);
  return Buffer.concat([head, data]);
}

/** Writes ping frames (125 bytes each) for as long as the socket takes them, never reading the pongs. */
export function floodPings(socket: Duplex, sent: { bytes: number }): void {
  const batch = Buffer.concat(Array.from({ length: 512 }, () => frame(0x9, Buffer.alloc(125, 0x70))));
  const more = () => {
    while (!socket.destroyed && socket.write(batch)) sent.bytes += batch.length;
  };
  socket.on('drain', more);
  more();
}
