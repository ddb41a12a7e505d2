/** The one live channel: a WebSocket every open page joins; events go to all of them. */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveEvent } from '../shared/api.js';

export class LiveChannel {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  /** Notices published while no page listened (the first page load's own reads): the next page to join gets them, once. */
  private waiting: LiveEvent[] = [];

  /** Takes over an upgrade the guard has already let through. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      // The page only listens; anything it sends is ignored.
      ws.on('message', () => undefined);
      ws.on('error', () => undefined);
      for (const event of this.waiting) ws.send(JSON.stringify(event));
      this.waiting = [];
    });
  }

  /** A notice for the user (a damaged data file set aside): to the pages open now, else to the next page that joins. */
  notify(message: string): void {
    const event: LiveEvent = { type: 'notice', message };
    if ([...this.wss.clients].some((client) => client.readyState === client.OPEN)) this.publish(event);
    else if (this.waiting.length < 20) this.waiting.push(event);
  }

  publish(event: LiveEvent): void {
    const text = JSON.stringify(event);
    for (const client of this.wss.clients) if (client.readyState === client.OPEN) client.send(text);
  }

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }
}
