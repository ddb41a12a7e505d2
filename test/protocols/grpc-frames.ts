/**
 * A TCP relay on 127.0.0.1 in front of a gRPC server that reads what the client sends as the
 * server gets it: the HTTP/2 frames after the connection preface, and the gRPC messages their
 * DATA frames carry (the 5-byte prefix: compressed flag, length), per stream. Headers are HPACK
 * (not decoded here); the bytes are passed on untouched both ways.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SentMessage {
  /** The HTTP/2 stream (one per call). */
  stream: number;
  /** The gRPC prefix's compressed flag. */
  compressed: boolean;
  /** The message's bytes as sent (compressed, if so). */
  payload: Buffer;
}

export interface FrameRelay {
  url: string;
  /** The gRPC messages clients sent through the relay, in order. */
  messages: SentMessage[];
  close(): Promise<void>;
}

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
const DATA = 0x0;
const PADDED = 0x8;

/** Parses one connection's client bytes as they arrive. */
function clientReader(found: SentMessage[]): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let prefaceSeen = false;
  /** Each stream's DATA bytes not yet a whole gRPC message. */
  const data = new Map<number, Buffer>();
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    if (!prefaceSeen) {
      if (pending.length < PREFACE.length) return;
      if (!pending.subarray(0, PREFACE.length).equals(PREFACE)) throw new Error('the client did not start with the HTTP/2 preface');
      pending = pending.subarray(PREFACE.length);
      prefaceSeen = true;
    }
    while (pending.length >= 9) {
      const length = pending.readUIntBE(0, 3);
      if (pending.length < 9 + length) return;
      const [type, flags] = [pending[3]!, pending[4]!];
      const stream = pending.readUInt32BE(5) & 0x7fffffff;
      let payload = pending.subarray(9, 9 + length);
      pending = pending.subarray(9 + length);
      if (type !== DATA) continue;
      if (flags & PADDED) payload = payload.subarray(1, payload.length - payload[0]!);
      let bytes = Buffer.concat([data.get(stream) ?? Buffer.alloc(0), payload]);
      while (bytes.length >= 5 && bytes.length >= 5 + bytes.readUInt32BE(1)) {
        const size = bytes.readUInt32BE(1);
        found.push({ stream, compressed: bytes[0] === 1, payload: Buffer.from(bytes.subarray(5, 5 + size)) });
        bytes = bytes.subarray(5 + size);
      }
      data.set(stream, bytes);
    }
  };
}

/** A relay to the plaintext gRPC server on `port`; its URL is the `grpc://` one to send to. */
export async function startFrameRelay(port: number): Promise<FrameRelay> {
  const messages: SentMessage[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    const read = clientReader(messages);
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('end', () => upstream.end());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `grpc://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
