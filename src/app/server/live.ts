/**
 * The one live channel: a WebSocket every open page joins; events go to all of them, or to one
 * page (browser tab) when they concern only a call it made (`publish`'s `page`).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveEvent } from '../shared/api.js';

/** A page's id as it gave it (header or query), or undefined when absent or not one the page makes (letters, digits, `-`, at most 64). */
export function pageId(given: string | string[] | null | undefined): string | undefined {
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : undefined;
}

export class LiveChannel {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  /** Notices published while no page listened (the first page load's own reads): the next page to join gets them, once. */
  private waiting: LiveEvent[] = [];
  /** Each socket's page, as it named itself on joining (`/api/live?page=…`, pageId). */
  private readonly pages = new WeakMap<WebSocket, string>();
  /** `changed` events sent so far: a page told more on joining than its tree says missed one (the `joined` event). */
  #changes = 0;

  get changes(): number {
    return this.#changes;
  }

  /** Takes over an upgrade the guard has already let through. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const page = pageId(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('page'));
    this.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      if (page !== undefined) this.pages.set(ws, page);
      // The page only listens; anything it sends is ignored.
      ws.on('message', () => undefined);
      ws.on('error', () => undefined);
      // A change published after the page read its tree and before it joined reached no socket of it.
      ws.send(JSON.stringify({ type: 'joined', changes: this.#changes } satisfies LiveEvent));
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

  /** To every open page; with `page`, only to that page's sockets (none when it is not open now). */
  publish(event: LiveEvent, page?: string): void {
    if (event.type === 'changed') this.#changes++;
    const text = JSON.stringify(event);
    for (const client of this.wss.clients) {
      if (client.readyState === client.OPEN && (page === undefined || this.pages.get(client) === page)) client.send(text);
    }
  }

  close(): void {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }
}
