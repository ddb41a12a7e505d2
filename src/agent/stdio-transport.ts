/**
 * MCP over standard input and output, as the SDK's StdioServerTransport (one JSON-RPC message a
 * line), except for how large a message may be. The SDK's buffer copies itself on every chunk and
 * stops at 10 MB by closing the connection, so an agent's `import` of inline text over 10 MB lost
 * Ferry altogether (imports take 50 MB, spec 8.1). Here a line is kept as a list of chunks, up to
 * what a 50 MB text takes as JSON (a character takes at most 6: `\u0001`); a longer line is
 * answered with an error naming the limit, and the connection stays.
 */
import process from 'node:process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_IMPORT_JSON_BYTES } from '../importers/index.js';
import { formatBytes } from '../support/human-units.js';

export const MAX_MESSAGE_BYTES = MAX_IMPORT_JSON_BYTES;

/** The request id at the start of a message too long to parse (`{"jsonrpc":"2.0","id":7,…`), or undefined. */
function leadingId(head: string): number | string | undefined {
  const found = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  return found ? (JSON.parse(found[1]!) as number | string) : undefined;
}

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #chunks: Buffer[] = [];
  #size = 0;
  /** The start of a line past the limit, read on to its end and then refused. */
  #overHead: string | undefined;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  readonly #onData = (chunk: Buffer): void => {
    let rest = chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      this.#take(rest.subarray(0, end));
      this.#lineEnded();
      rest = rest.subarray(end + 1);
    }
    if (rest.length > 0) this.#take(rest);
  };

  readonly #onError = (error: Error): void => this.onerror?.(error);

  #take(part: Buffer): void {
    if (this.#overHead !== undefined) return;
    if (this.#size + part.length > this.maxBytes) {
      this.#overHead = Buffer.concat([...this.#chunks, part.subarray(0, 256)]).toString('utf8', 0, 256);
      this.#chunks = [];
      this.#size = 0;
      return;
    }
    this.#chunks.push(part);
    this.#size += part.length;
  }

  #lineEnded(): void {
    const over = this.#overHead;
    const line = Buffer.concat(this.#chunks, this.#size).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#size = 0;
    this.#overHead = undefined;
    if (over !== undefined) return this.#refuse(over);
    if (line === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  #refuse(head: string): void {
    const text = `The message is longer than ${formatBytes(this.maxBytes)}, the most ferry mcp reads of one (an import's text may be 50 MB); import a large file by its path or url instead.`;
    const id = leadingId(head);
    if (id === undefined) return void this.onerror?.(new Error(text));
    void this.send({ jsonrpc: '2.0', id, error: { code: -32600, message: text } });
  }

  async start(): Promise<void> {
    this.input.on('data', this.#onData);
    this.input.on('error', this.#onError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.#onData);
    this.input.off('error', this.#onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.#chunks = [];
    this.#size = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
