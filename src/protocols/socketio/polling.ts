/**
 * Socket.IO's long-polling transport as Ferry sends it: each HTTP answer is read as it arrives and
 * cut once it passes the request's size bound (`maxResponseMb`), as a WebSocket frame past it is.
 * socket.io-client's own transport (xmlhttprequest-ssl) reads every answer whole, so a server
 * answering a poll with an endless body filled memory. How each request goes out is given:
 * unsigned over node:http with the connection's agent (the proxy tunnel) and TLS options, as
 * socket.io-client's own transport sends it; signed through `fetch` on Ferry's pools
 * (signed-transports.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { Fetch } from 'socket.io-client';

/** One long-polling HTTP request: its status, and its body as it arrives. */
export interface PollAnswer {
  status: number;
  body: AsyncIterable<Uint8Array>;
}

/** Sends one of long-polling's requests (a GET poll, or a POST with `data`); `signal` cuts it. */
export type PollRequest = (transport: { uri(): string; opts: Record<string, unknown> }, data: string | undefined, signal: AbortSignal) => Promise<PollAnswer>;

/** The answer passed the bound: the transport failed for it (`tooLarge` has been told). */
class AnswerTooLarge extends Error {}

/**
 * The long-polling transport class: requests go out through `request`; an answer past `limitBytes`
 * is cut, `tooLarge` is told (the send fails with the bound's words), and the transport fails.
 */
export function boundedPolling(request: PollRequest, limitBytes: number, tooLarge: () => void): typeof Fetch {
  return class BoundedPolling extends Fetch {
    /** Cuts the requests still waiting (a poll the server holds) when the transport closes. */
    private readonly cut = new AbortController();

    override doPoll(): void {
      this.exchange(undefined).then(
        (answer) => (answer.status === 200 ? this.onData(answer.text) : this.onError('poll error', answer.status)),
        (error: Error) => this.failed('poll error', error),
      );
    }

    override doWrite(data: string, callback: () => void): void {
      this.exchange(data).then(
        (answer) => (answer.status === 200 ? callback() : this.onError('post error', answer.status)),
        (error: Error) => this.failed('post error', error),
      );
    }

    protected override onClose(details?: { description: string; context?: unknown }): void {
      this.cut.abort();
      super.onClose(details);
    }

    private failed(reason: string, error: Error): void {
      if (this.cut.signal.aborted && !(error instanceof AnswerTooLarge)) return;
      this.onError(reason, (error.cause as Error | undefined) ?? error);
    }

    /** The answer read to its end (so the connection is free for the next request), at most `limitBytes` of it. */
    private async exchange(data: string | undefined): Promise<{ status: number; text: string }> {
      const answer = await request(this as unknown as { uri(): string; opts: Record<string, unknown> }, data, this.cut.signal);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += chunk.byteLength;
        if (size > limitBytes) {
          tooLarge();
          this.cut.abort();
          throw new AnswerTooLarge('a long-polling answer passed maxResponseMb');
        }
        chunks.push(Buffer.from(chunk));
      }
      return { status: answer.status, text: Buffer.concat(chunks).toString('utf8') };
    }
  };
}

/** TLS options socket.io-client hands its Node transports (the request's CA, client certificate, verification). */
const TLS_OPTIONS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'ciphers', 'rejectUnauthorized', 'servername'] as const;

/** An unsigned poll over node:http(s), with the connection's agent (the proxy tunnel) and TLS options. */
export const plainPoll: PollRequest = (transport, data, signal) =>
  new Promise((resolve, reject) => {
    const url = new URL(transport.uri());
    const opts = transport.opts;
    const post = data !== undefined;
    const headers: Record<string, string> = { Accept: '*/*', ...((opts.extraHeaders as Record<string, string> | undefined) ?? {}), ...(post ? { 'Content-Type': 'text/plain;charset=UTF-8' } : {}) };
    const tls = Object.fromEntries(TLS_OPTIONS.filter((name) => opts[name] !== undefined).map((name) => [name, opts[name]]));
    const send = url.protocol === 'https:' ? https.request : http.request;
    const outgoing = send(url, { method: post ? 'POST' : 'GET', headers, ...(opts.agent ? { agent: opts.agent as http.Agent } : {}), ...tls }, (response) => {
      resolve({ status: response.statusCode ?? 0, body: response });
    });
    outgoing.on('error', reject);
    // Cut by hand, not with http.request's `signal`, which destroys the socket with an AbortError:
    // for a poll whose answer had all arrived (one just past the bound), Node first ends that
    // answer, which drops the kept-alive socket's 'error' listener, so the AbortError went
    // uncaught. Destroyed without an error, a request still waiting fails (socket hang up).
    const cut = () => outgoing.destroy();
    if (signal.aborted) cut();
    else {
      signal.addEventListener('abort', cut, { once: true });
      outgoing.once('close', () => signal.removeEventListener('abort', cut));
    }
    outgoing.end(post ? Buffer.from(data, 'utf8') : undefined);
  });
