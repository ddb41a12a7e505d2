/**
 * The cases every request kind passes (in the style of hono's `common.case.test.ts`): a kind's
 * test file calls `describeKindCases` with its module and how to reach a real peer of it, and
 * gets the same checks as every other kind — URL scheme refusals, connection refused, cancel,
 * the connect/handshake time limit, and TLS verification on and off. All traffic stays on
 * 127.0.0.1; peers bind port 0.
 */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { folderSchema, requestSchema, workspaceSchema, type RequestFile } from '../../src/model/index.js';
import { HttpAgents, SendError, type ProtocolResult, type RequestKindModule, type SendContext } from '../../src/protocols/index.js';
import { PrepareError, prepareRequest } from '../../src/request/index.js';

export interface RunningPeer {
  url: string;
  close(): Promise<void> | void;
}

export interface KindCase {
  module: RequestKindModule;
  /** This kind's URL for a host and port (`ws://127.0.0.1:1234/`). `secure`: its TLS scheme. */
  urlFor(port: number, secure?: boolean): string;
  /** A URL of another kind's scheme, refused before anything is sent. */
  wrongScheme: string;
  /** The request's other fields (kind options, body) a send of this kind needs. */
  fields?: Partial<Record<keyof RequestFile, unknown>>;
  /**
   * A peer of this kind over TLS with a self-signed certificate for 127.0.0.1; absent for kinds
   * without TLS (UDP).
   */
  startTls?: () => Promise<RunningPeer>;
  /**
   * True when a peer that accepts the connection and never answers makes the send wait for its
   * handshake or answer (bounded by `settings.timeoutMs`); false for kinds with no handshake (TCP),
   * which then read until `settings.stream` stops them.
   */
  waitsForHandshake: boolean;
  /**
   * A peer that is there and never answers, for the cancel case; a TCP listener when left out.
   * UDP needs a UDP socket: a datagram to a TCP-only port is refused at once (ICMP port unreachable).
   */
  silentPeer?: () => Promise<{ port: number; close(): Promise<void> }>;
}

const workspace = { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) };

export function requestFor(kindCase: KindCase, url: string, settings: Record<string, unknown> = {}): RequestFile {
  return requestSchema.parse({ name: 'case', kind: kindCase.module.kind, url, ...kindCase.fields, settings });
}

export function sendCase(kindCase: KindCase, request: RequestFile, signal?: AbortSignal): Promise<ProtocolResult> {
  return sendWith(kindCase.module, request, signal);
}

/** Prepares `request` as a run does and sends it with `module`; `extra` adds to the send context (a program policy). */
export async function sendWith(module: RequestKindModule, request: RequestFile, signal?: AbortSignal, extra: Partial<SendContext> = {}): Promise<ProtocolResult> {
  let prepared = await prepareRequest({ request, folders: [], workspace }, { kind: module });
  if (module.shape) prepared = module.shape(prepared);
  const context: SendContext = { agents: new HttpAgents(), maxResponseMb: 50, workspaceRoot: workspace.root, allowFilesOutside: false, ...extra };
  try {
    return await module.send!(prepared, context, signal);
  } finally {
    await context.agents.close();
  }
}

/**
 * Sends `request` with its auth left to inherit: the workspace's `workspaceAuth`, under a folder
 * set to `folderAuth` when given (prepared as a run prepares it).
 */
export async function sendInheriting(module: RequestKindModule, request: RequestFile, workspaceAuth: Record<string, unknown>, folderAuth?: Record<string, unknown>, extra: Partial<SendContext> = {}): Promise<ProtocolResult> {
  const folders = folderAuth ? [{ path: 'Folder', settings: folderSchema.parse({ auth: folderAuth }) }] : [];
  const prepared = await prepareRequest({ request, path: 'Folder/Inherits.yaml', folders, workspace: { root: workspace.root, file: workspaceSchema.parse({ version: 1, auth: workspaceAuth }) } }, { kind: module });
  const context: SendContext = { agents: new HttpAgents(), maxResponseMb: 50, workspaceRoot: workspace.root, allowFilesOutside: false, ...extra };
  try {
    return await module.send!(prepared, context);
  } finally {
    await context.agents.close();
  }
}

/** A TCP listener that accepts connections and never writes: a peer stuck before its handshake. */
async function silentPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** A loopback port with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The error a send fails with (the test fails when it succeeds). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the send to fail');
}

/** The SendError a send fails with (the test fails when it succeeds, or fails otherwise). */
export async function sendFailure(promise: Promise<unknown>): Promise<SendError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(SendError);
  return error as SendError;
}

export function describeKindCases(kindCase: KindCase): void {
  const { module } = kindCase;
  describe(`${module.kind}: the cases every kind passes`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    afterAll(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    it('refuses a URL of another scheme before sending, naming the schemes it takes', async () => {
      const error = await failure(sendCase(kindCase, requestFor(kindCase, kindCase.wrongScheme)));
      expect(error).toBeInstanceOf(PrepareError);
      expect(error.message).toContain(`${module.noun} needs`);
      for (const scheme of module.schemes) expect(error.message).toContain(`${scheme}://`);
    });

    it('a URL without a host is refused before sending, naming it (grpc:// crashed the run, mqtt:// was "refused by :")', async () => {
      for (const scheme of module.schemes) {
        const error = await failure(sendCase(kindCase, requestFor(kindCase, `${scheme}://`, { timeoutMs: 2000 })));
        expect(error).toBeInstanceOf(PrepareError);
        expect(error.message).toContain(`"${scheme}://" has no host; give the server's address (${scheme}://host`);
      }
    });

    it('port 0 is refused before sending, as a port out of range (it was tried, and said to be "refused by 127.0.0.1:0")', async () => {
      const error = await failure(sendCase(kindCase, requestFor(kindCase, kindCase.urlFor(0), { timeoutMs: 2000 })));
      expect(error).toBeInstanceOf(PrepareError);
      expect(error.message).toMatch(/port 0 in ".*" is out of range; give a port from 1 to 65535\.$/);
    });

    it('a refused connection fails with one line naming the address', async () => {
      const port = await closedPort();
      const error = await failure(sendCase(kindCase, requestFor(kindCase, kindCase.urlFor(port), { timeoutMs: 5000 })));
      expect(error).toBeInstanceOf(SendError);
      expect((error as SendError).kind).toBe('refused');
      expect(error.message).toContain(`127.0.0.1:${port}`);
      expect(error.message).not.toContain('\n');
    });

    it('cancelling ends a send in flight at once', async () => {
      const peer = await (kindCase.silentPeer ?? silentPeer)();
      cleanups.push(() => peer.close());
      const controller = new AbortController();
      // Time limits far past the test's own: a cancel that did not end the send fails the test by its timeout.
      const sending = sendCase(kindCase, requestFor(kindCase, kindCase.urlFor(peer.port), { timeoutMs: 120_000, stream: { timeoutMs: 120_000 } }), controller.signal);
      setTimeout(() => controller.abort(), 150);
      const outcome = await sending.then((r) => r, (e: Error) => e);
      if (outcome instanceof Error) {
        expect(outcome).toBeInstanceOf(SendError);
        expect(outcome.message).toContain('cancelled');
      }
    });

    it.runIf(kindCase.waitsForHandshake)('settings.timeoutMs bounds connecting and the handshake', async () => {
      const peer = await silentPeer();
      cleanups.push(() => peer.close());
      const error = await failure(sendCase(kindCase, requestFor(kindCase, kindCase.urlFor(peer.port), { timeoutMs: 300 })));
      expect(error).toBeInstanceOf(SendError);
      expect((error as SendError).kind).toBe('timeout');
      expect(error.message).toContain('300 ms');
    });

    it.runIf(Boolean(kindCase.startTls))('TLS: a self-signed certificate is refused with verifyTls on and accepted with it off', async () => {
      const peer = await kindCase.startTls!();
      cleanups.push(() => peer.close());
      const refused = await failure(sendCase(kindCase, requestFor(kindCase, peer.url, { timeoutMs: 5000, verifyTls: true })));
      expect(refused).toBeInstanceOf(SendError);
      expect((refused as SendError).kind).toBe('tls');
      expect(refused.message).toMatch(/verifyTls|certificate/);
      const accepted = await sendCase(kindCase, requestFor(kindCase, peer.url, { timeoutMs: 5000, verifyTls: false }));
      expect(accepted.outcome.ok).toBe(true);
    });
  });
}
