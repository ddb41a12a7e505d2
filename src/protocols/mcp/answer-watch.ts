/**
 * Requests whose answer can no longer come, answered in the server's stead. Over Streamable HTTP
 * a request's answer comes in the answer to the POST that carried it (one JSON object, or an
 * event stream); over HTTP+SSE, on the session's one event stream. When that answer ends or is cut
 * without it (a JSON answer of another id, a stream closed early, the connection dropped), the
 * SDK waits on — to the time limit, or a day without one. Here the messages are read as they pass
 * (beside the SDK, which reads them too); a request left waiting when its answer ends gets a
 * JSON-RPC error saying what happened, so its call fails at once. A POST's event stream that gave
 * event ids is left to the SDK, which resumes it (and to the time limit).
 */
import { createParser } from 'eventsource-parser';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SendError } from '../send-error.js';

type Id = string | number;

/** The `data` of the errors answered here, to say them in their own words (not as the server's). */
const OURS = 'ferry: no answer came';

/** The words of an error answered here, or undefined for any other error. */
export function unansweredText(error: unknown): string | undefined {
  return error instanceof McpError && (error.data as { said?: unknown } | undefined)?.said === OURS ? error.message.replace(/^MCP error -?\d+: /, '') : undefined;
}

export class AnswerWatch {
  /** Requests sent and not yet answered: their method, by id. */
  private readonly waiting = new Map<Id, string>();

  /** `where`: the server's host, for the messages; `deliver`: hands a message to the client as if the server sent it. */
  constructor(
    private readonly where: string,
    private readonly deliver: (message: JSONRPCMessage) => void,
  ) {}

  /** The ids of the requests a POST carries (its body as the SDK wrote it); they now wait. */
  sent(body: unknown): Id[] {
    const ids: Id[] = [];
    for (const message of messagesIn(body)) {
      if (typeof message.method === 'string' && isId(message.id)) {
        this.waiting.set(message.id, message.method);
        ids.push(message.id);
      }
    }
    return ids;
  }

  /**
   * Streamable HTTP: the answer to a POST that carried `ids` (or an event stream of the GET, with
   * none). When it ends without answering them, and gave no event id to resume from, they fail.
   */
  answer(response: Response, ids: Id[]): Response {
    const json = /^application\/json/i.test(response.headers.get('content-type') ?? '');
    let resumable = false;
    /** An answer of an id Ferry never sent (a server's mix-up), for the message. */
    let other: Id | undefined;
    const note = (message: Record<string, unknown>) => {
      if (this.seen(message) === 'unknown') other = message.id as Id;
    };
    const text: string[] = [];
    const reader = json ? undefined : this.events(note, () => (resumable = true));
    return observed(response, (chunk) => (json ? text.push(chunk) : reader!(chunk)), (cut) => {
      if (json && !cut) {
        const whole = text.join('');
        const value = parsed(whole);
        if (value instanceof SyntaxError && ids.length > 0) {
          // Said with its first words (an error page), not as the SDK's bare `Unexpected token '<'`; the SDK fails the call with it.
          const error = new SendError(`the MCP server at ${this.where} answered ${this.methods(ids)} with a body that is not JSON, though its Content-Type says application/json (${reason(value)}): ${firstWords(whole)}`, 'protocol');
          for (const id of ids) this.waiting.delete(id);
          return error;
        }
        for (const message of list(value)) note(message);
      }
      if (resumable || isAbort(cut)) return undefined;
      this.fail(ids, (method) =>
        cut
          ? `the connection to the MCP server at ${this.where} broke before its answer to ${method} came (${reason(cut)})`
          : `the MCP server at ${this.where} ended its answer to ${method} without answering it${other !== undefined ? `; it answered id ${JSON.stringify(other)} instead, which Ferry did not send` : ''}`,
      );
      return undefined;
    });
  }

  /**
   * Streamable HTTP: the answer to a POST of requests is JSON or an event stream (or 202 for none);
   * anything else (a login page, a proxy's error page) fails with its type and first words. The
   * SDK said only `Unexpected content type: text/html`.
   */
  async refuseOther(response: Response, ids: Id[]): Promise<void> {
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (ids.length === 0 || response.status === 202 || /^(application\/json|text\/event-stream)$/i.test(type)) return;
    const said = firstWords(await beginning(response));
    const error = new SendError(`the MCP server at ${this.where} answered ${this.methods(ids)} with ${type ? type : 'no Content-Type'}, neither JSON (application/json) nor an event stream (text/event-stream)${said ? `: ${said}` : ''}; check that the URL is the server's MCP endpoint.`, 'protocol');
    for (const id of ids) this.waiting.delete(id);
    throw error;
  }

  private methods(ids: Id[]): string {
    return ids.map((id) => this.waiting.get(id) ?? String(id)).join(', ');
  }

  /** HTTP+SSE: the session's event stream; when it ends or is cut, every request waiting fails and `ended` is told (the session is over). */
  stream(response: Response, ended: () => void): Response {
    const reader = this.events((message) => this.seen(message), () => {});
    return observed(response, reader, (cut) => {
      if (isAbort(cut)) return undefined;
      this.fail([...this.waiting.keys()], (method) =>
        cut
          ? `the connection to the MCP server at ${this.where} broke before its answer to ${method} came: its event stream (HTTP+SSE) was cut (${reason(cut)})`
          : `the MCP server at ${this.where} ended its event stream (HTTP+SSE) before answering ${method}`,
      );
      setImmediate(ended);
      return undefined;
    });
  }

  /** An answer's id is no longer waited for; `unknown` when it was never sent (or already answered). */
  private seen(message: Record<string, unknown>): 'answer' | 'unknown' | undefined {
    if (message.method !== undefined || !isId(message.id) || !('result' in message || 'error' in message)) return undefined;
    return this.waiting.delete(message.id) ? 'answer' : 'unknown';
  }

  /** A reader of an event stream's text that hands on its messages (as the SDK reads them: events named `message` or not named). */
  private events(note: (message: Record<string, unknown>) => void, withId: () => void): (chunk: string) => void {
    const parser = createParser({
      onEvent: (event) => {
        if (event.id) withId();
        if (event.event === undefined || event.event === 'message') for (const message of messagesIn(event.data)) note(message);
      },
    });
    return (chunk) => parser.feed(chunk);
  }

  /** After the SDK has read what came before (the same chunks, a moment later), the requests of `ids` still waiting fail. */
  private fail(ids: Id[], said: (method: string) => string): void {
    setImmediate(() => {
      for (const id of ids) {
        const method = this.waiting.get(id);
        if (method === undefined) continue;
        this.waiting.delete(id);
        this.deliver({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: said(method), data: { said: OURS } } });
      }
    });
  }
}

function isId(id: unknown): id is Id {
  return typeof id === 'string' || typeof id === 'number';
}

function isAbort(cut: unknown): boolean {
  return (cut as Error | undefined)?.name === 'AbortError';
}

function reason(cut: unknown): string {
  return String((cut as Error)?.message ?? cut).split('\n')[0]!.replace(/\.$/, '');
}

/** The JSON-RPC messages in a text (one message or a batch); none when it is not JSON. */
function messagesIn(body: unknown): Array<Record<string, unknown>> {
  return typeof body === 'string' ? list(parsed(body)) : [];
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return error instanceof SyntaxError ? error : new SyntaxError(String(error));
  }
}

function list(value: unknown): Array<Record<string, unknown>> {
  if (value instanceof SyntaxError) return [];
  return (Array.isArray(value) ? value : [value]).filter((m): m is Record<string, unknown> => !!m && typeof m === 'object');
}

/** Most characters of a body said in a message. */
const SAID = 200;

export function firstWords(text: string): string {
  const said = text.replace(/\s+/g, ' ').trim();
  return said.length > SAID ? `${said.slice(0, SAID)}…` : said;
}

/** The first few KB of an answer's body as text; the rest is not read. */
async function beginning(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < 4 * SAID) {
      const next = await reader.read();
      if (next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
  } catch {
    // What came before the error is said.
  }
  void reader.cancel().catch(() => {});
  return text;
}

/**
 * The answer with its body read through `see` (as text) as the reader reads it; `end` is told once
 * when it ends, is cut (with the error), or the reader cancels it. An error `end` gives for a body
 * that ended is the reader's, in place of the end.
 */
function observed(response: Response, see: (text: string) => void, end: (cut?: unknown) => Error | undefined): Response {
  if (!response.body) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  const finish = (cut?: unknown): Error | undefined => {
    if (ended) return undefined;
    ended = true;
    return end(cut);
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          finish(error);
          throw error;
        }
        if (next.done) {
          see(decoder.decode());
          const refused = finish();
          if (refused) controller.error(refused);
          else controller.close();
          return;
        }
        see(decoder.decode(next.value, { stream: true }));
        controller.enqueue(next.value);
      },
      cancel(why) {
        finish();
        return reader.cancel(why);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body as unknown as ConstructorParameters<typeof Response>[0], { status: response.status, statusText: response.statusText, headers: response.headers });
}
