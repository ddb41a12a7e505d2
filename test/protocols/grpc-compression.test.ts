/**
 * A request's grpc-encoding header compresses its messages (compression.ts), against a real
 * grpc-js server on 127.0.0.1 behind a relay that reads the messages as the server gets them
 * (grpc-frames.ts): grpc-js's server takes grpc-encoding out of the metadata its handlers see,
 * so the wire says what was sent, and the server's right answer that it read it by that header.
 */
import zlib from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSchema } from '../../src/model/index.js';
import { requestKind, SendError, type ProtocolResult } from '../../src/protocols/index.js';
import { ECHO_PROTO, startGrpcPeer, type GrpcPeer } from './grpc-peer.js';
import { startFrameRelay, type FrameRelay } from './grpc-frames.js';
import { sendWith } from './kind-cases.js';

const grpcKind = requestKind('grpc');
const PROTO = { protoFiles: ['test/fixtures/grpc/echo.proto'] };

const echo = (grpc.loadPackageDefinition(protoLoader.loadSync(ECHO_PROTO, { includeDirs: [path.dirname(ECHO_PROTO)] })) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } }).ferry.test.Echo.service;
/** A SayRequest's fields from its protobuf bytes, as the server reads them. */
const sayRequest = (bytes: Buffer) => echo.Say!.requestDeserialize(bytes) as { text?: string };

function send(url: string, fields: Record<string, unknown>): Promise<ProtocolResult> {
  return sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Say', grpc: PROTO, settings: { timeoutMs: 5000 }, ...fields }));
}

const json = (result: ProtocolResult) => JSON.parse(Buffer.from(result.body).toString('utf8')) as Record<string, unknown>;

describe('gRPC request compression (grpc-encoding)', () => {
  let peer: GrpcPeer;
  let relay: FrameRelay;
  beforeAll(async () => {
    peer = await startGrpcPeer();
    relay = await startFrameRelay(peer.port);
  });
  afterAll(async () => {
    await relay.close();
    await peer.close();
  });

  /** The messages of the calls `run` makes, as sent. */
  async function sentBy(run: () => Promise<unknown>) {
    const before = relay.messages.length;
    await run();
    return relay.messages.slice(before);
  }

  const text = 'compress me, '.repeat(20_000); // 260 KB that gzip makes a few hundred bytes
  for (const [encoding, inflate] of [['gzip', zlib.gunzipSync], ['deflate', zlib.inflateSync], ['GZIP', zlib.gunzipSync]] as const) {
    it(`grpc-encoding: ${encoding} sends the message compressed so (the compressed flag set, its bytes ${encoding.toLowerCase()}), and the server reads it`, async () => {
      let result: ProtocolResult | undefined;
      const sent = await sentBy(async () => {
        result = await send(relay.url, { headers: [{ key: 'grpc-encoding', value: encoding }], body: { type: 'json', text: JSON.stringify({ text }) } });
      });
      expect(result!.outcome).toMatchObject({ status: 0, ok: true });
      expect(json(result!).text).toBe(`hello ${text}`);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.compressed).toBe(true);
      expect(sayRequest(inflate(sent[0]!.payload)).text).toBe(text);
      expect(sent[0]!.payload.length).toBeLessThan(text.length / 10);
      // grpc-encoding is the call's header, not metadata passed on to the server's handler.
      expect(peer.seen.at(-1)!.get('grpc-encoding')).toEqual([]);
    });
  }

  it('each message of a client stream is compressed; the server joins them', async () => {
    let result: ProtocolResult | undefined;
    const sent = await sentBy(async () => {
      result = await send(relay.url, { method: 'ferry.test.Echo/Collect', headers: [{ key: 'grpc-encoding', value: 'gzip' }], body: { type: 'json', text: '[{"text":"a"},{"text":"b"}]' } });
    });
    expect(json(result!)).toMatchObject({ text: 'a+b', index: 2 });
    expect(sent.map((m) => [m.compressed, sayRequest(zlib.gunzipSync(m.payload)).text])).toEqual([[true, 'a'], [true, 'b']]);
  });

  it('without the header, or with identity, messages go uncompressed', async () => {
    for (const headers of [[], [{ key: 'grpc-encoding', value: 'identity' }]]) {
      let result: ProtocolResult | undefined;
      const sent = await sentBy(async () => {
        result = await send(relay.url, { headers, body: { type: 'json', text: '{"text":"plain"}' } });
      });
      expect(json(result!).text).toBe('hello plain');
      expect(sent.map((m) => [m.compressed, sayRequest(m.payload).text])).toEqual([[false, 'plain']]);
    }
  });

  it('without proto files, server reflection\'s calls are compressed too, and the server answers them', async () => {
    let result: ProtocolResult | undefined;
    const sent = await sentBy(async () => {
      result = await send(relay.url, { grpc: {}, headers: [{ key: 'grpc-encoding', value: 'gzip' }], body: { type: 'json', text: '{"text":"by reflection"}' } });
    });
    expect(json(result!).text).toBe('hello by reflection');
    expect(sent.length).toBeGreaterThan(1); // reflection's questions, then the message
    expect(sent.every((m) => m.compressed)).toBe(true);
    expect(sayRequest(zlib.gunzipSync(sent.at(-1)!.payload)).text).toBe('by reflection');
  });

  it('an encoding grpc-js cannot compress with, or two different ones, is refused before anything is sent or a channel opened, naming the header and what it may be', async () => {
    // grpc-js's own list of open channels (channelz), where a channel left open would show.
    const { getChannelzHandlers } = (await import('@grpc/grpc-js/build/src/channelz.js')) as unknown as { getChannelzHandlers(): { GetTopChannels(call: object, callback: (error: unknown, value: { channel: Array<{ data: { target: string } }> }) => void): void } };
    const relayPort = new URL(relay.url).port;
    const open = () => new Promise<number>((resolve) => getChannelzHandlers().GetTopChannels({ request: { start_channel_id: 0, max_results: 100_000 } }, (_error, value) => resolve(value.channel.filter((c) => c.data.target.endsWith(`:${relayPort}`)).length)));
    const channels = await open();
    const calls = peer.seen.length;
    const refused = async (headers: Array<{ key: string; value: string }>) => {
      const error = await send(relay.url, { headers, body: { type: 'json', text: '{}' } }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(SendError);
      expect((error as SendError).kind).toBe('invalid');
      return (error as SendError).message;
    };
    expect(await refused([{ key: 'grpc-encoding', value: 'br' }])).toBe('metadata grpc-encoding is "br", which Ferry cannot compress with: it sends a gRPC request\'s messages compressed with gzip or deflate, or uncompressed with identity; set grpc-encoding to one of those, or remove the header.');
    expect(await refused([{ key: 'Grpc-Encoding', value: 'gzip, deflate' }])).toBe('metadata Grpc-Encoding is "gzip, deflate", which Ferry cannot compress with: it sends a gRPC request\'s messages compressed with gzip or deflate, or uncompressed with identity; set Grpc-Encoding to one of those, or remove the header.');
    expect(await refused([{ key: 'grpc-encoding', value: 'gzip' }, { key: 'grpc-encoding', value: 'deflate' }])).toBe('metadata grpc-encoding is set 2 ways ("gzip", "deflate"); a call\'s messages have one encoding, so keep one grpc-encoding header: gzip, deflate or identity.');
    expect(peer.seen.length).toBe(calls);
    expect(await open()).toBe(channels);
  });
});
