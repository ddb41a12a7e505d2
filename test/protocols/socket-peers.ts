/**
 * Peers for the TCP, TLS and UDP tests, all on 127.0.0.1 with port 0: servers written here (each
 * connection handed to the test), a silent UDP socket, and Debian's socat/ncat started as a
 * second peer (ready when they print that they listen; no sleeps).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import tls from 'node:tls';
import { testCertificate } from '../support/servers/index.js';
import { freePort } from '../support/servers/index.js';

export interface TcpPeer {
  port: number;
  /** Bytes each connection sent, by connection. */
  received: Buffer[][];
  connections: number;
  close(): Promise<void>;
}

/** A TCP (or TLS) server calling `onConnection` for each client; what clients send is recorded. */
export async function startTcpPeer(onConnection: (socket: net.Socket) => void, secure = false): Promise<TcpPeer & { servername: (string | false | null)[] }> {
  const sockets = new Set<net.Socket>();
  const received: Buffer[][] = [];
  const servername: (string | false | null)[] = [];
  const peer = { port: 0, received, connections: 0, servername, close: async () => {} };
  const handle = (socket: net.Socket) => {
    peer.connections++;
    sockets.add(socket);
    const mine: Buffer[] = [];
    received.push(mine);
    socket.on('data', (chunk: Buffer) => mine.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (secure) servername.push((socket as tls.TLSSocket).servername);
    onConnection(socket);
  };
  const server = secure ? tls.createServer(await testCertificate(), handle) : net.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.port = (server.address() as net.AddressInfo).port;
  peer.close = () => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
  return peer;
}

/** Calls `onLine` with each LF-ended line a socket sends. */
export function onLines(socket: net.Socket, onLine: (line: string) => void): void {
  let pending = '';
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
      onLine(pending.slice(0, at).replace(/\r$/, ''));
      pending = pending.slice(at + 1);
    }
  });
}

/** A UDP socket that reads and never answers (a peer that is there but silent). */
export async function silentUdpPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

/** A UDP echo peer: every datagram goes back to its sender, as is, or as `answer` makes it. */
export async function udpEchoPeer(answer: (datagram: Buffer) => Buffer[] = (d) => [d]): Promise<{ port: number; received: Buffer[]; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  const received: Buffer[] = [];
  socket.on('message', (datagram, from) => {
    received.push(datagram);
    for (const reply of answer(datagram)) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, received, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

export function hasProgram(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/**
 * Starts a program listening on a free loopback port and resolves once its stderr says it
 * listens (`ready`); fails if it exits or says nothing within 10 s.
 */
export async function startProgram(command: string, args: (port: number) => string[], ready: RegExp): Promise<{ port: number; child: ChildProcess; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(command, args(port), { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not say it listens within 10 s: ${said}`)), 10_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (ready.test(said)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before listening: ${said}`));
    });
  });
  return {
    port,
    child,
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
