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

export interface HeaderLimitRelay {
  url: string;
  /** Each call as the relay got it: its path, and its header fields' names (pseudo-headers included), in order. */
  calls: Array<{ path: string; names: string[] }>;
  close(): void;
}

/**
 * The same limit in front of a real gRPC server on 127.0.0.1:`upstream`, for the calls of
 * `limited` (a method's path): one past it, or with `x-costly: yes`, is reset as the peer above
 * resets it, and every other call is passed on to the server (its headers, messages, trailers),
 * whatever its count (without the tests' filler entries `x-h0`, `x-h1`…, which grpc-js's server
 * would refuse past its own 128): a server whose reflection takes more fields than its methods. It
 * records the header fields' names of each call, which grpc-js's server does not show its
 * handlers (grpc-encoding, grpc-timeout, te and the like are taken out).
 */
export async function startHeaderLimitRelay(upstream: number, limited: string): Promise<HeaderLimitRelay> {
  const calls: HeaderLimitRelay['calls'] = [];
  const client = http2.connect(`http://127.0.0.1:${upstream}`);
  client.on('error', () => {});
  const server = http2.createServer({ maxHeaderListPairs: 4 * HEADER_LIMIT, settings: { maxHeaderListSize: 1 << 20 } });
  server.on('stream', (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, _flags: number, raw: string[]) => {
    stream.on('error', () => {});
    const path = String(headers[':path']);
    calls.push({ path, names: raw.filter((_, i) => i % 2 === 0) });
    if (path === limited && (raw.length / 2 > HEADER_LIMIT || headers['x-costly'] === 'yes')) {
      stream.close(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
      return;
    }
    const forwarded: http2.OutgoingHttpHeaders = {};
    // Without the tests' filler entries (x-h0, x-h1…): the server resets a call past 128 fields itself.
    for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':') && !/^x-h\d+$/.test(name)) forwarded[name] = value;
    const out = client.request({ ':method': 'POST', ':path': path, ...forwarded });
    out.on('error', () => {});
    let trailers: http2.IncomingHttpHeaders | undefined;
    out.on('response', (head, flags) => {
      // A trailers-only answer (a status without messages) ends with its headers.
      if (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) stream.respond(head, { endStream: true });
      else stream.respond(head, { waitForTrailers: true });
    });
    out.on('trailers', (got) => void (trailers = got));
    stream.on('wantTrailers', () => (trailers ? stream.sendTrailers(withoutPseudo(trailers)) : stream.close()));
    out.on('close', () => {
      if (out.rstCode) stream.close(out.rstCode);
    });
    stream.pipe(out);
    out.pipe(stream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `grpc://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => {
      client.close();
      server.close();
    },
  };
}

function withoutPseudo(headers: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(':')));
}
