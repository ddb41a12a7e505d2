/**
 * A live gRPC call through the app's connection routes (issue 26), on a real @grpc/grpc-js
 * server on 127.0.0.1: the composer the page draws, a bidi echo message by message on the live
 * channel, End and the status ending it; a wrong field and a unary method refused in one line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { ConnectionView, LiveEvent, StreamMessage } from '../../src/app/shared/api.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { startGrpcPeer, type GrpcPeer } from '../protocols/grpc-peer.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { ApiClient, until } from './api-client.js';

describe('ferry app: live gRPC calls', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let peer: GrpcPeer;
  let client: ApiClient;
  let events: LiveEvent[];
  let closeLive: () => void;
  const api = async (method: string, urlPath: string, body?: unknown) => {
    const { status, body: answer } = await client.call(method, urlPath, body);
    return { status, body: answer };
  };
  const messagesOf = (id: string): StreamMessage[] => events.flatMap((e) => (e.type === 'connectionMessages' && e.connectionId === id ? e.messages : []));

  beforeEach(async () => {
    peer = await startGrpcPeer();
    ws = await makeWorkspace({
      'requests/Chat.yaml': { name: 'Chat', kind: 'grpc', url: peer.url, method: 'ferry.test.Echo/Chat' },
      'requests/Say.yaml': { name: 'Say', kind: 'grpc', url: peer.url, method: 'ferry.test.Echo/Say' },
    });
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
    client = new ApiClient(app.port);
    await client.login(app.token);
    ({ events, close: closeLive } = await client.live());
  });

  afterEach(async () => {
    closeLive();
    await app.close();
    await peer.close();
    await ws.cleanup();
  });

  it('bidi: the composer, messages both ways, End and the status', async () => {
    const kinds = (await api('GET', '/api/connections/kinds')).body as Record<string, { formats: string[]; operations: Array<{ name: string; params: string[] }> }>;
    expect(kinds.grpc).toMatchObject({ formats: ['json'], operations: [{ name: 'end', params: [] }] });

    const opened = await api('POST', '/api/connections', { path: 'Chat.yaml' });
    expect(opened.status).toBe(200);
    const view = opened.body as ConnectionView;
    expect(view).toMatchObject({ kind: 'grpc', path: 'Chat.yaml' });
    expect((await api('POST', '/api/connections/send', { id: view.id, message: { format: 'json', text: '{"text": "one"}' } })).status).toBe(200);
    await until('the echo', () => messagesOf(view.id).some((m) => m.direction === 'received' && !m.event));
    expect(JSON.parse(messagesOf(view.id).find((m) => m.direction === 'received' && !m.event)!.text)).toMatchObject({ text: 'hello one' });

    expect(await api('POST', '/api/connections/send', { id: view.id, message: { format: 'json', text: '{"inner": {"level": "deep"}}' } })).toEqual({ status: 400, body: { error: 'the message field inner.level is a number (int32), not "deep".' } });

    expect(await api('POST', '/api/connections/call', { id: view.id, operation: 'end', params: {} })).toEqual({ status: 200, body: { result: null } });
    const ended = await until('the end event', () => events.find((e) => e.type === 'connectionEnded' && e.connectionId === view.id));
    expect(ended).toMatchObject({ end: { by: 'peer', message: 'the server ended the call: 0 OK' } });
    expect(messagesOf(view.id).filter((m) => m.event).map((m) => m.event)).toEqual(['headers', 'end', 'status']);
  });

  it('a unary method is refused with one line', async () => {
    expect(await api('POST', '/api/connections', { path: 'Say.yaml' })).toEqual({ status: 400, body: { error: 'ferry.test.Echo/Say is a unary method (one message each way): there is no stream to keep open; use Send.' } });
  });
});
