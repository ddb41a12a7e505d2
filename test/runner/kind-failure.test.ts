/**
 * A kind's own failure (a bug of Ferry's: anything but a SendError) fails that request with one
 * line that says so, and the run goes on; before, it ended the whole run with a stack trace. The
 * bug is made by making the TCP kind's send throw once; the peer is a real TCP echo server.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestKind } from '../../src/protocols/index.js';
import { ferry } from '../support/cli.js';
import { makeWorkspace } from './workspace.js';

let echo: net.Server;
beforeAll(async () => {
  echo = net.createServer((socket) => socket.on('data', (data) => socket.end(data)));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

describe("a kind's unexpected failure", () => {
  it('fails that request with one line naming the kind and the error; the next request runs', async () => {
    const url = `tcp://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const temp = await makeWorkspace({
      'requests/1 first.yaml': { name: 'first', kind: 'tcp', url, body: { type: 'text', text: 'one' } },
      'requests/2 second.yaml': { name: 'second', kind: 'tcp', url, body: { type: 'text', text: 'two' } },
    });
    const send = vi.spyOn(requestKind('tcp'), 'send').mockRejectedValueOnce(new TypeError("Cannot read properties of undefined (reading 'length')"));
    try {
      const result = await ferry(['-w', temp.root, 'run', '-r', 'json'], undefined);
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as { results: Array<{ name: string; error: string | null }> };
      expect(report.results.map((r) => r.name)).toEqual(['first', 'second']);
      expect(report.results[0]!.error).toBe(
        "Ferry's tcp client failed unexpectedly (TypeError: Cannot read properties of undefined (reading 'length')). This is a bug in Ferry: please report it with this request's file; the run went on with the next request.",
      );
      expect(report.results[1]!.error ?? null).toBeNull();
      expect(report.results[1]).toMatchObject({ passed: true, size: 3 }); // the echo of 'two'
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    } finally {
      send.mockRestore();
      await temp.cleanup();
    }
  });
});
