/**
 * The two real MQTT brokers the MQTT tests talk to, on 127.0.0.1: aedes in-process (MQTT 3.1.1;
 * plain and TLS), and Debian's mosquitto started as a child process on a free loopback port with
 * a generated config (3.1.1 and 5). Both take anonymous clients and the user `alice`/`wonderland`;
 * a wrong password is refused.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { Aedes } from 'aedes';
import mqttPacket from 'mqtt-packet';
import { freePort } from '../support/servers/index.js';
import { testCertificate } from '../support/servers/index.js';

export const USER = 'alice';
export const PASSWORD = 'wonderland';

export interface Broker {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** aedes on a loopback port; the topic `ferry/kick` makes the broker drop the subscriber (a broker that closes), `ferry/denied` drops it before the SUBACK or PUBACK. */
export async function startAedes(options: { secure?: boolean; closeOnConnect?: boolean } = {}): Promise<Broker> {
  const broker = await Aedes.createBroker({
    authenticate: (_client, username, password, done) => {
      if (username === undefined) return done(null, true);
      if (username === USER && password?.toString() === PASSWORD) return done(null, true);
      done(Object.assign(new Error('bad credentials'), { returnCode: 4 }), false);
    },
  });
  // As AWS IoT does with a topic the client may not use: the subscription is not acknowledged, the client is dropped.
  broker.authorizeSubscribe = (_client, subscription, callback) => (subscription.topic === 'ferry/denied' ? callback(new Error('not allowed'), null) : callback(null, subscription));
  broker.authorizePublish = (_client, packet, callback) => callback(packet.topic === 'ferry/denied' ? new Error('not allowed') : null);
  broker.on('subscribe', (subscriptions, client) => {
    if (subscriptions.some((s) => s.topic === 'ferry/kick')) setTimeout(() => client.close(), 20);
  });
  if (options.closeOnConnect) broker.on('clientReady', (client) => setTimeout(() => client.close(), 20));
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    broker.handle(socket);
  };
  const server = options.secure ? tls.createServer(await testCertificate(), track) : net.createServer(track);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `${options.secure ? 'mqtts' : 'mqtt'}://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

/** Why mosquitto cannot be started here, or undefined when it can. */
export function mosquittoMissing(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v mosquitto || test -x /usr/sbin/mosquitto && echo /usr/sbin/mosquitto'], { encoding: 'utf8' });
  if (!found.stdout.trim()) return 'mosquitto is not installed (apt-get install mosquitto; .ci/install-peers.sh does it)';
  if (spawnSync('sh', ['-c', 'command -v mosquitto_passwd'], { encoding: 'utf8' }).stdout.trim() === '') return 'mosquitto_passwd is not installed';
  return undefined;
}

function mosquittoBinary(): string {
  return spawnSync('sh', ['-c', 'command -v mosquitto || echo /usr/sbin/mosquitto'], { encoding: 'utf8' }).stdout.trim();
}

/** mosquitto with a generated config (anonymous clients allowed, one user in a password file), ready when it says it listens; `extra`: more config lines (max_qos 1…). */
export async function startMosquitto(extra: string[] = []): Promise<Broker> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ferry-mosquitto-'));
  const passwords = path.join(dir, 'passwords');
  writeFileSync(passwords, '');
  const made = spawnSync('mosquitto_passwd', ['-b', passwords, USER, PASSWORD], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
  const port = await freePort();
  const config = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    config,
    [`listener ${port} 127.0.0.1`, `user ${userInfo().username}`, // run as root, mosquitto would become user mosquitto and lose this folder
       'allow_anonymous true', `password_file ${passwords}`, 'persistence false', 'log_dest stderr', 'log_type error', 'log_type warning', 'log_type notice', 'log_type information', ...extra, ''].join('\n'),
  );
  const child: ChildProcess = spawn(mosquittoBinary(), ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/running/.test(log)) {
        child.stderr!.off('data', onData);
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`mosquitto exited (${code}) before it listened: ${log.trim()}`)));
    child.once('error', reject);
  });
  child.stderr!.resume();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A broker written packet by packet (mqtt-packet), for what no real broker does on purpose: each
 * packet a client sends is handed to `answer` with its socket, which writes what it likes (or
 * nothing). `closed` counts the client connections that have ended.
 */
export async function startScriptedBroker(answer: (socket: net.Socket, packet: mqttPacket.Packet) => void): Promise<Broker & { closed: () => number }> {
  const sockets = new Set<net.Socket>();
  let closed = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
    });
    const parser = mqttPacket.parser();
    parser.on('packet', (packet) => answer(socket, packet));
    parser.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => parser.parse(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    closed: () => closed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A CONNACK accepting the connection (MQTT 3.1.1). */
export const CONNACK = mqttPacket.generate({ cmd: 'connack', returnCode: 0, sessionPresent: false });
