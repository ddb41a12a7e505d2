/** The example workspace examples/protocols runs green against its own peers (started on free ports). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain-JavaScript script of the example, without types
import { startPeers } from '../../examples/protocols/peers.mjs';
import { ferry } from '../support/cli.js';
import { freePort } from '../support/servers/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

let peers: { ports: { ws: number; socketio: number; mqtt: number }; close(): Promise<void> };
beforeAll(async () => {
  peers = await startPeers({ ws: 0, socketio: 0, mqtt: 0 });
});
afterAll(() => peers.close());

it('examples/protocols: every request passes its tests', async () => {
  await isolatedDataDir();
  const workspace = path.join(import.meta.dirname, '..', '..', 'examples', 'protocols');
  const { ws, socketio, mqtt } = peers.ports;
  const result = await ferry(['-w', workspace, 'run', 'Streaming', '-r', 'json', '--var', `wsUrl=ws://127.0.0.1:${ws}`, '--var', `socketioUrl=http://127.0.0.1:${socketio}`, '--var', `mqttUrl=mqtt://127.0.0.1:${mqtt}`]);
  const report = JSON.parse(result.stdout);
  expect(report.results.map((r: { name: string; passed: boolean; error: string | null }) => [r.name, r.passed, r.error])).toEqual([
    ['Chat', true, null],
    ['Sum', true, null],
    ['Temperature', true, null],
  ]);
  expect(report.results.every((r: { tests: Array<{ passed: boolean }> }) => r.tests.length === 1 && r.tests[0]!.passed)).toBe(true);
  expect(result.code).toBe(0);
});

it('examples/protocols: the MCP requests over HTTP pass against the MCP server the workspace ships (ferry run --start-servers)', async () => {
  await isolatedDataDir();
  // A copy whose server listens on a free port instead of 3004.
  const root = path.join(await tempDir(), 'protocols');
  await fs.cp(path.join(import.meta.dirname, '..', '..', 'examples', 'protocols'), root, { recursive: true });
  const port = String(await freePort());
  for (const file of ['ferry.yaml', 'servers/mcp.yaml']) {
    const text = await fs.readFile(path.join(root, file), 'utf8');
    expect(text, file).toContain('3004');
    await fs.writeFile(path.join(root, file), text.replaceAll('3004', port));
  }
  const http = ['MCP/Tool over HTTP', 'MCP/Resource from a template', 'MCP/Prompt with arguments'];
  const result = await ferry(['-w', root, 'run', ...http, '--start-servers', '-r', 'json']);
  const report = JSON.parse(result.stdout);
  expect(report.results.map((r: { name: string; passed: boolean; error: string | null; tests: Array<{ passed: boolean }> }) => [r.name, r.passed, r.error, r.tests.length > 0 && r.tests.every((t) => t.passed)])).toEqual([
    ['Tool over HTTP', true, null, true],
    ['Resource from a template', true, null, true],
    ['Prompt with arguments', true, null, true],
  ]);
  expect(result.code).toBe(0);
});
