/**
 * A gRPC peer on 127.0.0.1 (node:http2) that takes at most 128 header fields a call, as a server
 * on Node or nghttp2 does by default (a grpc-js server: 128 fields pass, 129 are reset with
 * ENHANCE_YOUR_CALM). It counts the fields itself and resets the stream as such a server does,
 * rather than letting nghttp2 refuse the list: Node leaks the memory of a refused header list,
 * and the process aborts when that session is collected (nodejs/node#35233). It records how
 * many fields each call sent, pseudo-headers included; a call with `x-costly: yes` is reset
 * however few it sent (a server finding the call too costly). Others get SayReply "hi", OK.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

export const HEADER_LIMIT = 128;

export interface HeaderLimitPeer {
  port: number;
  /** The header fields of each call, in order. */
  fields: number[];
  close(): void;
}

export async function startHeaderLimitPeer(): Promise<HeaderLimitPeer> {
  const fields: number[] = [];
  // Room for more than the limit, so the count and the reset are this peer's.
  const server = http2.createServer({ maxHeaderListPairs: 4 * HEADER_LIMIT, settings: { maxHeaderListSize: 1 << 20 } });
  server.on('stream', (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, _flags: number, raw: string[]) => {
    stream.on('error', () => {});
    fields.push(raw.length / 2);
    if (raw.length / 2 > HEADER_LIMIT || headers['x-costly'] === 'yes') {
      stream.close(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
      return;
    }
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    // SayReply { text: "hi" } in a gRPC frame.
    stream.end(Buffer.from([0, 0, 0, 0, 4, 0x0a, 0x02, 0x68, 0x69]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, fields, close: () => void server.close() };
}
