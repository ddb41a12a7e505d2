/** The bounded reader of an MCP program's standard output: lines as the SDK reads them, within maxResponseMb. */
import { describe, expect, it } from 'vitest';
import { BoundedStdoutBuffer, OutputTooLarge } from '../../src/protocols/mcp/stdout-buffer.js';

const line = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`;

function readAll(buffer: BoundedStdoutBuffer): unknown[] {
  const messages: unknown[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) messages.push(m);
  return messages;
}

describe('BoundedStdoutBuffer', () => {
  it('reads messages split across chunks, several in one chunk, and a CR before the newline; keeps a partial line for later', () => {
    const buffer = new BoundedStdoutBuffer(0);
    const text = line(1) + line(2).replace('\n', '\r\n') + line(3);
    const bytes = Buffer.from(text + '{"jsonrpc":"2.0",');
    for (const cut of [[0, 5], [5, 6], [6, 40], [40, bytes.length]]) buffer.append(bytes.subarray(cut[0], cut[1]));
    expect(readAll(buffer)).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: {} })));
    buffer.append(Buffer.from('"id":4,"result":{}}\n'));
    expect(readAll(buffer)).toEqual([{ jsonrpc: '2.0', id: 4, result: {} }]);
  });

  it('a line that is not a message throws as the SDK\'s does, and the next one is read', () => {
    const buffer = new BoundedStdoutBuffer(0);
    buffer.append(Buffer.from(`Server listening\n${line(7)}`));
    expect(() => buffer.readMessage()).toThrow(SyntaxError);
    expect(buffer.readMessage()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('counts all the output, whole lines read or not: past the limit it throws and keeps nothing', () => {
    const buffer = new BoundedStdoutBuffer(100);
    buffer.append(Buffer.from(line(1)));
    expect(readAll(buffer)).toHaveLength(1);
    buffer.append(Buffer.alloc(100 - line(1).length, 0x20));
    expect(() => buffer.append(Buffer.from('x'))).toThrow(OutputTooLarge);
    expect(buffer.readMessage()).toBeNull();
  });
});
