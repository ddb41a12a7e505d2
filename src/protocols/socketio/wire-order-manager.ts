/**
 * socket.io-client's Manager with the server's packets handed on in the order they came.
 * The stock Manager hands each decoded Socket.IO packet (CONNECT, an event, DISCONNECT) to its
 * sockets a tick late (process.nextTick), while a packet that cannot be parsed, an Engine.IO error
 * and the transport closing reach them at once. So when the namespace's CONNECT answer shares one
 * read with what follows it (one long-polling payload, or WebSocket frames in one TCP read), the
 * socket heard the failure or the close before it had connected: a bad packet after connecting
 * was said to be a failed handshake, and events before a close in that read were lost with it.
 */
import { Manager, type ManagerReservedEvents } from 'socket.io-client';

type DecodedPacket = Parameters<ManagerReservedEvents['packet']>[0];

export class WireOrderManager extends Manager {
  constructor(uri: string, opts: ConstructorParameters<typeof Manager>[1]) {
    super(uri, opts);
    // `ondecoded` is the Manager's (private) handler of its decoder's packets, bound when the
    // connection opens: each packet now goes to the sockets at once, before the next is decoded.
    (this as unknown as { ondecoded: (packet: DecodedPacket) => void }).ondecoded = (packet) => this.handOn(packet);
  }

  private handOn(packet: DecodedPacket): void {
    try {
      this.emitReserved('packet', packet);
    } catch (error) {
      // The tick's reason upstream: a listener's exception must not pass for the server's packet
      // failing to parse (the decoder's caller takes any exception for one). It is thrown as the
      // stock Manager's would be, uncaught, outside the decoder.
      process.nextTick(() => {
        throw error;
      });
    }
  }
}
