/** The example workspace examples/protocols runs green against its own peers (started on free ports). */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain-JavaScript script of the example, without types
import { startPeers } from '../../examples/protocols/peers.mjs';
import { ferry } from '../support/cli.js';
import { isolatedDataDir } from '../support/temp.js';

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
