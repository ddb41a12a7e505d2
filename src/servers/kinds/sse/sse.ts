/**
 * The SSE server (spec 2.11 `sse`, 6.2, 8.2): every client that opens a stream gets the `events`
 * in order, `intervalMs` apart, starting over when `repeat` is on. Data and id are rendered per
 * client from the request that opened the stream; the event name is sent as written.
 *
 * A stream keeps the settings it started with; an edit applies to streams opened after it. With
 * `repeat` on and `intervalMs` 0, each round is sent at once and the next follows a second later,
 * so a client is never flooded. After the last event (without `repeat`) the stream stays open until
 * the client closes it, as a live event source would.
 */
import http2 from 'node:http2';
import { performance } from 'node:perf_hooks';
import { kindSection } from '../../../model/index.js';
import { compile, type RequestValues, requestValuesFromHttp, type Template, type VariableScope } from '../../../template/index.js';
import { type AnyRequest, type AnyResponse, answerable, type HeaderValues } from '../../http-types.js';
import { httpExchangeRecord } from '../../http-traffic.js';
import type { ClientInfo, HttpKindInstance, KindContext, KindSettings, PushOptions, ServerKindModule } from '../kind.js';
import { checkWait } from '../wait.js';
import { frameEvent } from './sse-frame.js';
import { MAX_UNREAD_STREAM_BYTES } from '../messages/not-reading.js';

/** The pause between rounds when `repeat` is on and `intervalMs` is 0. */
export const REPEAT_PAUSE_MS = 1000;

interface CompiledEvent {
  name: string;
  data: Template;
  id: Template;
}

interface SseState {
  events: CompiledEvent[];
  intervalMs: number;
  repeat: boolean;
  variables: VariableScope;
}

interface Stream {
  timer: NodeJS.Timeout | undefined;
  res: AnyResponse;
  request: RequestValues;
  sentBytes: number;
  /** For the panel's send to one client: `stream 3`. */
  id: string;
  /** The client's address and the path it opened. */
  label: string;
}

class SseServer implements HttpKindInstance {
  #state: SseState | undefined;
  readonly #streams = new Set<Stream>();
  #opened = 0;

  constructor(private readonly context: KindContext) {}

  configure({ server, variables }: KindSettings): void {
    const section = kindSection(server, 'sse');
    checkWait(section.intervalMs, 'sse.intervalMs', this.context.file);
    this.#state = {
      events: section.events.map((event) => ({
        name: event.event,
        data: compile(event.data, 'sse.event'),
        id: compile(event.id, 'sse.event'),
      })),
      intervalMs: section.intervalMs,
      repeat: section.repeat,
      variables,
    };
  }

  openStreams(): number {
    return this.#streams.size;
  }

  /**
   * Sends one event to every open stream now (the traffic panel's "send"): `data` is rendered for
   * each client from the request that opened its stream (spec 8.2, `sse.panel`). Returns how many
   * streams it went to.
   */
  readonly sendForm = { event: true, hex: false };

  push(data: string, options: PushOptions = {}): number {
    const state = this.#state!;
    const template = compile(data, 'sse.panel');
    let count = 0;
    for (const stream of this.#streams) {
      const out = answerable(stream.res);
      if (out.writableEnded || (options.to !== undefined && options.to !== stream.id)) continue;
      // A client that does not read: closed rather than sent more (the file's events wait for it instead; see `next`).
      if (unsent(stream.res) > MAX_UNREAD_STREAM_BYTES) {
        drop(stream.res);
        continue;
      }
      const text = frameEvent(options.name ?? '', '', template.render({ variables: state.variables, request: stream.request }));
      stream.sentBytes += Buffer.byteLength(text, 'utf8');
      out.write(text);
      count++;
    }
    return count;
  }

  clients(): ClientInfo[] {
    return [...this.#streams].map((stream) => ({ id: stream.id, label: stream.label }));
  }

  close(): void {
    for (const stream of this.#streams) {
      clearTimeout(stream.timer);
      answerable(stream.res).end();
    }
    this.#streams.clear();
  }

  handle(req: AnyRequest, res: AnyResponse): void {
    const start = performance.now();
    const state = this.#state!;
    const out = answerable(res);
    // Names in canonical case, as the HTTP mock sends its own (HTTP/2 sends them in lower case).
    const headers: HeaderValues = {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
      // A local test stream: let a web page on any origin read it.
      'Access-Control-Allow-Origin': '*',
    };
    if (req.httpVersionMajor === 1) headers.Connection = 'keep-alive';
    out.writeHead(200, headers);
    (res as { flushHeaders?: () => void }).flushHeaders?.();
    // For an event stream the request is the GET that opened it: no body, no path parameters.
    const request = requestValuesFromHttp({ method: req.method ?? 'GET', url: req.url ?? '/', rawHeaders: req.rawHeaders });
    const peer = `${req.socket?.remoteAddress ?? '?'}:${req.socket?.remotePort ?? 0}`;
    const stream: Stream = { timer: undefined, res, request, sentBytes: 0, id: `stream ${++this.#opened}`, label: `${peer} ${req.url ?? '/'}` };
    this.#streams.add(stream);
    let index = 0;

    const next = (): void => {
      stream.timer = undefined;
      if (out.writableEnded) return;
      let text = '';
      // Without an interval, everything due now goes out in one write.
      do {
        const event = state.events[index]!;
        text += frameEvent(event.name, event.id.render({ variables: state.variables, request }), event.data.render({ variables: state.variables, request }));
        index++;
      } while (state.intervalMs === 0 && index < state.events.length);
      stream.sentBytes += Buffer.byteLength(text, 'utf8');
      const flowing = out.write(text);
      if (index >= state.events.length) {
        if (!state.repeat) return;
        index = 0;
      }
      const pause = index === 0 && state.intervalMs === 0 ? REPEAT_PAUSE_MS : state.intervalMs;
      const schedule = () => {
        if (this.#streams.has(stream)) stream.timer = setTimeout(next, pause);
      };
      if (flowing) schedule();
      else (res as NodeJS.EventEmitter).once('drain', schedule); // a slow reader: wait instead of buffering
    };

    res.once('close', () => {
      clearTimeout(stream.timer);
      this.#streams.delete(stream);
      const durationMs = performance.now() - start;
      const detail = { method: req.method ?? '', path: req.url ?? '', route: '', status: 200, note: 'stream' as const };
      this.context.traffic.add(httpExchangeRecord('sse', this.context.id, start, durationMs, detail, 0, stream.sentBytes));
    });
    if (state.events.length > 0) next();
  }
}

/** Bytes written to a stream that have not gone to its client yet. */
function unsent(res: AnyResponse): number {
  return 'stream' in res ? res.stream.writableLength : res.writableLength;
}

/** Ends a stream now, what waits for it dropped: HTTP/2 cancels its stream, HTTP/1 closes the connection. */
function drop(res: AnyResponse): void {
  if ('stream' in res) res.stream.close(http2.constants.NGHTTP2_CANCEL);
  else res.destroy();
}

export const sseKind: ServerKindModule = {
  kind: 'sse',
  transport: 'sharedHttp',
  create: (context) => new SseServer(context),
};
