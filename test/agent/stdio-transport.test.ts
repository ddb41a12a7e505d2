/**
 * ferry mcp's stdio transport: one JSON-RPC message a line, whatever the chunks; a line past the
 * limit is answered with an error naming the limit (the SDK's closed the connection at 10 MB), and
 * the next message is read as usual. The limit here is made small; ferry mcp's is 301 MB (mcp.test
 * imports 12 MB of inline text through it).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, StdioTransport } from '../../src/agent/stdio-transport.js';

function transport(maxBytes: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const t = new StdioTransport(input, output, maxBytes);
  const messages: unknown[] = [];
  const errors: string[] = [];
  const written: unknown[] = [];
  t.onmessage = (m) => messages.push(m);
  t.onerror = (e) => errors.push(e.message);
  let pending = '';
  output.on('data', (d: Buffer) => {
    pending += d.toString();
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
      written.push(JSON.parse(pending.slice(0, end)));
      pending = pending.slice(end + 1);
    }
  });
  return { t, input, messages, errors, written };
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('ferry mcp stdio transport', () => {
  it('reads a message split over many chunks and several in one chunk', async () => {
    const { t, input, messages } = transport(1024);
    await t.start();
    const line = `${JSON.stringify(ping(1))}\n`;
    for (const char of line) input.write(char);
    input.write(`${JSON.stringify(ping(2))}\r\n${JSON.stringify(ping(3))}\n`);
    await expect.poll(() => messages).toEqual([ping(1), ping(2), ping(3)]);
  });

  it('a line of exactly the limit is read; one byte more is answered with an error for its id, and the next message is read', async () => {
    const { t, input, messages, written } = transport(1024);
    await t.start();
    const padded = (bytes: number) => {
      const base = JSON.stringify({ ...ping(7), params: { pad: '' } });
      return JSON.stringify({ ...ping(7), params: { pad: 'x'.repeat(bytes - base.length) } });
    };
    expect(Buffer.byteLength(padded(1024))).toBe(1024);
    input.write(`${padded(1024)}\n`);
    await expect.poll(() => messages.length).toBe(1);
    input.write(padded(1025).slice(0, 600));
    input.write(`${padded(1025).slice(600)}\n${JSON.stringify(ping(8))}\n`);
    await expect.poll(() => written).toEqual([{
      jsonrpc: '2.0', id: 7,
      error: { code: -32600, message: 'The message is longer than 1.0 kB, the most ferry mcp reads of one (an import\'s text may be 50 MB); import a large file by its path or url instead.' },
    }]);
    await expect.poll(() => messages).toEqual([JSON.parse(padded(1024)), ping(8)]);
  });

  it('ferry mcp reads a message as large as a 50 MB text escaped as JSON can be', () => {
    expect(MAX_MESSAGE_BYTES).toBe(6 * 50 * 1024 * 1024 + 1024 * 1024);
  });
});
