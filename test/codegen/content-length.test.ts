/**
 * A POST, PUT or PATCH without a body: Ferry's client sends `Content-Length: 0` (servers such as
 * Google's answer 411 Length Required without it). curl, libcurl and PHP's curl send none by
 * themselves, so their code writes it; run here against a real server.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TARGETS, toCode } from '../../src/codegen/index.js';
import { HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import type { PreparedRequest } from '../../src/request/prepared.js';
import { startRecordingServer, type RecordingServer } from '../support/servers/index.js';
import { missingToolchainsFail, RUNNERS, run, runFolder } from './runners.js';

let root: string;
let server: RecordingServer;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-length-'));
  server = await startRecordingServer();
});

afterAll(async () => {
  await server?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

const request = (url: string, method: string): PreparedRequest => ({ method, url, headers: [{ name: 'X-Case', value: 'no body' }], body: { kind: 'none' }, authType: 'none' });

function contentLength(tag: string): string[] {
  const recorded = server.requests.filter((r) => r.url.startsWith(tag));
  expect(recorded).toHaveLength(1);
  return recorded[0]!.headers.filter(([name]) => name.toLowerCase() === 'content-length').map(([, value]) => value);
}

test('Ferry sends Content-Length: 0 with a POST without body, and none with a DELETE', async () => {
  const agents = new HttpAgents();
  try {
    await sendHttp(request(`${server.base}/ferry-post`, 'POST'), { agents });
    await sendHttp(request(`${server.base}/ferry-delete`, 'DELETE'), { agents });
  } finally {
    await agents.close();
  }
  expect(contentLength('/ferry-post')).toEqual(['0']);
  expect(contentLength('/ferry-delete')).toEqual([]);
});

for (const id of ['curl/bash', 'php/curl', 'c/libcurl']) {
  const runner = RUNNERS.find((r) => r.targetId === id)!;
  const target = TARGETS.find((t) => t.id === id)!;
  const reason = runner.missing();
  describe.skipIf(reason !== undefined && !missingToolchainsFail())(`${id}${reason ? ` (skipped: ${reason})` : ''}`, () => {
    test.each(['POST', 'DELETE'])('%s without body sends what Ferry sends', async (method) => {
      const tag = `/${id.replace('/', '-')}-${method}`;
      const dir = await runFolder(root, tag.slice(1));
      const code = toCode(request(server.base + tag, method), target);
      const file = path.join(dir, target.fileName);
      await fs.writeFile(file, code);
      for (const argv of runner.commands(file, dir)) {
        const result = await run(argv, dir, runner.env?.(dir) ?? {}, 60_000);
        expect(result.code, `${result.stderr}\n${code}`).toBe(0);
      }
      expect(contentLength(tag), code).toEqual(method === 'POST' ? ['0'] : []);
    });
  });
}
