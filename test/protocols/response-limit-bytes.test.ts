/**
 * maxResponseMb in bytes (protocols/response-limit.ts): one conversion for every kind, each kind
 * saying what "no limit" (0) is for it. And no kind converts the setting itself.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { maxResponseBytes, MB } from '../../src/protocols/response-limit.js';

describe('maxResponseBytes', () => {
  it('is the setting in MiB, 0 with no limit unless the kind says what no limit is', () => {
    expect(MB).toBe(1_048_576);
    expect(maxResponseBytes(1)).toBe(1_048_576);
    expect(maxResponseBytes(50)).toBe(52_428_800);
    // The setting's largest value (4096) is 2^32: past grpc-js's int32, which call.ts caps.
    expect(maxResponseBytes(4096)).toBe(2 ** 32);
    expect(maxResponseBytes(0)).toBe(0);
    expect(maxResponseBytes(0, undefined)).toBeUndefined(); // TCP's deframer
    expect(maxResponseBytes(0, -1)).toBe(-1); // grpc-js
    expect(maxResponseBytes(0, 100 * MB)).toBe(104_857_600); // WebSocket and Socket.IO: the ws library's default
    expect(maxResponseBytes(3, 100 * MB)).toBe(3 * MB);
    expect(maxResponseBytes(0, Infinity)).toBe(Infinity); // gRPC's streamed total
  });

  it('is the only place in src/protocols that turns maxResponseMb into bytes', () => {
    const root = join(import.meta.dirname, '../../src/protocols');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const converting = files
      .map((file) => file.split('\\').join('/'))
      .filter((file) => file !== 'response-limit.ts')
      .filter((file) => /maxResponseMb\s*\*|\bMB\s*=\s*1024/.test(readFileSync(join(root, file), 'utf8')));
    expect(converting).toEqual([]);
  });
});
