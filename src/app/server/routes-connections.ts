/**
 * Live connections of the app (issue 26): a saved or unsaved request of a streaming kind opened
 * through `Session.connect`, its messages (both ways) to the page on the live channel in batches,
 * the last `CONNECTION_MESSAGES_KEPT` of each kept for a page that opens later, send, kind
 * operations (MQTT subscribe…) and close by id. No kind is named here: the kind table says which
 * kinds connect and what their composer offers. Closing the app closes every connection.
 */
import { allRequestKinds, SendError, type ConnectionEnd, type StreamMessage } from '../../protocols/index.js';
import { ConnectError, SelectError } from '../../runner/index.js';
import { UnknownConnectionError, type Session } from '../../session/index.js';
import { CONNECTION_MESSAGES_KEPT, type ConnectionView, type LiveKindView } from '../shared/api.js';
import type { LiveChannel } from './live.js';
import { ApiError, field, type Routes } from './router.js';
import { requestFrom } from './routes-workspace.js';
import type { WorkspaceState } from './workspace-state.js';

/** Ended connections kept (with their messages) so the page can still show them. */
const ENDED_KEPT = 20;
/** Messages go to the page at most this often per connection, and at most `BATCH_MAX` at a time. */
const BATCH_MS = 50;
const BATCH_MAX = 500;

interface Tracked {
  view: ConnectionView;
  session: Session;
  release: () => Promise<void>;
  /** The newest messages, oldest first (a ring would save a copy; 1,000 shifts are cheap). */
  kept: StreamMessage[];
  pending: StreamMessage[];
  skipped: number;
  timer?: NodeJS.Timeout;
}

/** Each kind that connects, with its composer and option section: the page draws the composer from this. */
export function liveKinds(): Record<string, LiveKindView> {
  return Object.fromEntries(allRequestKinds().filter((k) => k.connect && k.composer).map((k) => [k.kind, { ...k.composer!, ...(k.options ? { options: k.options } : {}) }]));
}

export class AppConnections {
  private readonly tracked = new Map<string, Tracked>();
  private closing = false;

  constructor(private readonly state: WorkspaceState, private readonly live: LiveChannel) {}

  /** `signal`: the page gave up (Cancel, another request opened): connecting stops. */
  async open(body: unknown, signal?: AbortSignal): Promise<ConnectionView> {
    if (this.closing) throw new ApiError(409, 'The app is closing.');
    const requestPath = field(body, 'path');
    const target = (body as { request?: unknown }).request === undefined ? requestPath : { request: requestFrom(body), path: requestPath };
    // Messages can arrive before `connect` resolves (a server greeting): held until the id is known.
    let entry: Tracked | undefined;
    const early: StreamMessage[] = [];
    let earlyEnd: ConnectionEnd | undefined;
    const { value: opened, session, release } = await this.state
      .hold((s) =>
        s.connect(target, {
          onMessage: (message) => (entry ? this.record(entry, message) : early.push(message)),
          onEnd: (end) => (entry ? this.ended(entry, end) : (earlyEnd = end)),
          signal,
        }),
      )
      .catch(refusal);
    entry = { view: { ...opened, messageCount: 0 }, session, release, kept: [], pending: [], skipped: 0 };
    this.tracked.set(opened.id, entry);
    for (const message of early) this.record(entry, message);
    if (earlyEnd) this.ended(entry, earlyEnd);
    return { ...entry.view };
  }

  list(): ConnectionView[] {
    return [...this.tracked.values()].map((t) => ({ ...t.view }));
  }

  /** The kept messages and the place of the last one (`upTo`, every message counted), so the page can tell them from the live channel's batches. */
  messages(id: string): { messages: StreamMessage[]; upTo: number } {
    const entry = this.find(id);
    return { messages: entry.kept, upTo: entry.view.messageCount };
  }

  async send(body: unknown): Promise<{ sent: true }> {
    const entry = this.find(field(body, 'id'));
    await entry.session.sendMessage(entry.view.id, (body as { message?: unknown }).message).catch(refusal);
    return { sent: true };
  }

  async call(body: unknown): Promise<{ result: unknown }> {
    const entry = this.find(field(body, 'id'));
    const params = (body as { params?: unknown }).params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new ApiError(400, '"params" must be a JSON object.');
    const result = await entry.session.callOperation(entry.view.id, field(body, 'operation'), params as Record<string, unknown>).catch(refusal);
    return { result: result ?? null };
  }

  async close(id: string): Promise<ConnectionView[]> {
    const entry = this.find(id);
    if (!entry.view.ended) await entry.session.disconnect(id).catch(refusal);
    return this.list();
  }

  /** The app is closing: every connection is closed, and the sessions they held are let go. */
  async closeAll(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.tracked.values()].filter((t) => !t.view.ended).map((t) => t.session.disconnect(t.view.id)));
    await Promise.allSettled([...this.tracked.values()].map((t) => t.release()));
    for (const t of this.tracked.values()) clearTimeout(t.timer);
  }

  private find(id: string): Tracked {
    const entry = this.tracked.get(id);
    if (!entry) throw new ApiError(404, `No connection ${JSON.stringify(id)} in this app (it was closed long ago or never opened); connect again.`);
    return entry;
  }

  private record(entry: Tracked, message: StreamMessage): void {
    entry.view.messageCount++;
    entry.kept.push(message);
    if (entry.kept.length > CONNECTION_MESSAGES_KEPT) entry.kept.shift();
    entry.pending.push(message);
    if (entry.pending.length > BATCH_MAX) {
      entry.pending.shift();
      entry.skipped++;
    }
    entry.timer ??= setTimeout(() => this.flush(entry), BATCH_MS);
  }

  private flush(entry: Tracked): void {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.pending.length === 0 && entry.skipped === 0) return;
    this.live.publish({ type: 'connectionMessages', connectionId: entry.view.id, messages: entry.pending, skipped: entry.skipped, upTo: entry.view.messageCount });
    entry.pending = [];
    entry.skipped = 0;
  }

  private ended(entry: Tracked, end: ConnectionEnd): void {
    this.flush(entry);
    entry.view.ended = end;
    this.live.publish({ type: 'connectionEnded', connectionId: entry.view.id, end });
    void entry.release();
    const ended = [...this.tracked.values()].filter((t) => t.view.ended);
    for (const old of ended.slice(0, Math.max(0, ended.length - ENDED_KEPT))) this.tracked.delete(old.view.id);
  }
}

/** The user's to fix (a refused connection, a bad message, a kind without connect): 400; an unknown id: 404. */
function refusal(error: unknown): never {
  if (error instanceof UnknownConnectionError) throw new ApiError(404, error.message);
  if (error instanceof ConnectError || error instanceof SendError || error instanceof SelectError) throw new ApiError(400, error.message);
  throw error;
}

export function connectionRoutes(connections: AppConnections): Routes {
  return {
    /** Which kinds connect, and what each one's composer offers. */
    'GET /api/connections/kinds': async () => liveKinds(),
    'GET /api/connections': async () => connections.list(),
    /** Opens `request` (what the editor holds, placed at `path`) or the saved file at `path`. */
    'POST /api/connections': async ({ body, signal }) => connections.open(body, signal),
    /** The kept messages of one connection (the newest `CONNECTION_MESSAGES_KEPT`), oldest first, with the place of the last. */
    'GET /api/connections/messages': async ({ query }) => connections.messages(query.get('id') ?? ''),
    'POST /api/connections/send': async ({ body }) => connections.send(body),
    'POST /api/connections/call': async ({ body }) => connections.call(body),
    'POST /api/connections/close': async ({ body }) => connections.close(field(body, 'id')),
  };
}
