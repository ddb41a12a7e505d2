/**
 * What a program's standard output goes into over stdio, in place of the SDK's ReadBuffer: the
 * same job (newline-delimited JSON-RPC messages) within `maxResponseMb`. The SDK's buffer held one
 * line of up to 10 MB whatever the setting, copying it whole for each chunk (quadratic), and did
 * not count a program writing endless whole lines, which ran a send to its time limit.
 */
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Thrown by `append` once the output passes the bound; the SDK passes it to `onerror` and closes. */
export class OutputTooLarge extends Error {
  constructor() {
    super('the program wrote more than maxResponseMb to its standard output');
  }
}

const NEWLINE = 0x0a;

export class BoundedStdoutBuffer {
  /** Bytes not yet read as messages; `parts[0..scanned)` hold no newline. */
  private parts: Buffer[] = [];
  private scanned = 0;
  private seen = 0;

  /** `limit`: the most bytes read in all (0: no limit). */
  constructor(private readonly limit: number) {}

  append(chunk: Buffer): void {
    this.seen += chunk.length;
    if (this.limit > 0 && this.seen > this.limit) {
      this.clear();
      throw new OutputTooLarge();
    }
    this.parts.push(chunk);
  }

  readMessage(): JSONRPCMessage | null {
    for (; this.scanned < this.parts.length; this.scanned++) {
      const part = this.parts[this.scanned]!;
      const end = part.indexOf(NEWLINE);
      if (end === -1) continue;
      const line = Buffer.concat([...this.parts.slice(0, this.scanned), part.subarray(0, end)]);
      const rest = part.subarray(end + 1);
      this.parts = rest.length > 0 ? [rest, ...this.parts.slice(this.scanned + 1)] : this.parts.slice(this.scanned + 1);
      this.scanned = 0;
      // As the SDK reads a line: a CR before the newline is not part of it; a line that is not a message throws.
      return deserializeMessage(line.toString('utf8').replace(/\r$/, ''));
    }
    return null;
  }

  /** Whether part of a line (a message cut short, if the program ended) waits for its newline. */
  get partial(): boolean {
    return this.parts.some((part) => part.length > 0);
  }

  clear(): void {
    this.parts = [];
    this.scanned = 0;
  }
}
