#!/usr/bin/env node
// The peers this example workspace talks to, on 127.0.0.1: a WebSocket server (greets, then
// echoes), a Socket.IO server (namespace /math, auth token, `add` with an acknowledgement) and an
// MQTT broker (aedes). They use Ferry's development dependencies: run from the Ferry folder.
//   node examples/protocols/peers.mjs            # ports 4020, 4021, 1883, until Ctrl-C
// Tests import `startPeers` and pass free ports.
import http from 'node:http';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { Aedes } from 'aedes';
import { Server } from 'socket.io';
import { WebSocketServer } from 'ws';

export async function startPeers({ ws = 4020, socketio = 4021, mqtt = 1883 } = {}) {
  const wsHttp = http.createServer();
  const wss = new WebSocketServer({ server: wsHttp, handleProtocols: (protocols) => (protocols.has('chat.v1') ? 'chat.v1' : false) });
  wss.on('connection', (socket) => {
    socket.send(JSON.stringify({ greeting: 'welcome' }));
    socket.on('message', (data) => socket.send(`echo: ${data.toString()}`));
  });

  const ioHttp = http.createServer();
  const io = new Server(ioHttp);
  const math = io.of('/math');
  math.use((socket, next) => (socket.handshake.auth.token === 'demo-token' ? next() : next(new Error('not authorized'))));
  math.on('connection', (socket) => socket.on('add', (a, b, ack) => ack?.(a + b)));

  const broker = await Aedes.createBroker();
  const mqttServer = net.createServer(broker.handle);

  const listen = (server, port) => new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  await Promise.all([listen(wsHttp, ws), listen(ioHttp, socketio), listen(mqttServer, mqtt)]);
  const ports = { ws: wsHttp.address().port, socketio: ioHttp.address().port, mqtt: mqttServer.address().port };
  return {
    ports,
    async close() {
      for (const client of wss.clients) client.terminate();
      io.close();
      wsHttp.closeAllConnections();
      await Promise.all([wsHttp, mqttServer].map((server) => new Promise((resolve) => server.close(resolve))));
      await new Promise((resolve) => broker.close(resolve));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const peers = await startPeers();
  console.log(`WebSocket ws://127.0.0.1:${peers.ports.ws} · Socket.IO http://127.0.0.1:${peers.ports.socketio} · MQTT mqtt://127.0.0.1:${peers.ports.mqtt} (Ctrl-C stops)`);
  process.once('SIGINT', () => void peers.close().then(() => process.exit(0)));
}
