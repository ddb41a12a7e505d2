/**
 * `ferry app` in Chromium, live connections (issue 26): a WebSocket echo round trip typed in the
 * composer, and MQTT subscribe and publish with aedes; "Save as draft" checked in the file on disk
 * (a TCP Base64 draft kept as hex).
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { parse } from 'yaml';
import type { AppServer } from '../../src/app/server/index.js';

import { startAedes, type Broker } from '../protocols/mqtt-brokers.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { startStreamableHttp, type McpPeer } from '../protocols/mcp-peers.js';
import { ARTIFACTS, browserMissing, closeAppPage, openWorkspacePage } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: live connections', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let broker: Broker;
  let mcpPeer: McpPeer;
  let echo: { url: string; seen: string[]; close(): Promise<void> };

  beforeAll(async () => {
    const server = http.createServer();
    const wss = new WebSocketServer({ server });
    const seen: string[] = [];
    wss.on('connection', (socket) => socket.on('message', (data) => {
      seen.push(data.toString());
      socket.send(`echo: ${data.toString()}`);
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    echo = {
      url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/chat`,
      seen,
      close: () => new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.close(() => resolve());
      }),
    };
    broker = await startAedes();
    mcpPeer = await startStreamableHttp();
    ({ ws, app, browser, page } = await openWorkspacePage({
      'requests/Tools.yaml': { name: 'Tools', seq: 3, kind: 'mcp', url: mcpPeer.url, mcp: { name: 'add', arguments: '{"a": 2, "b": 3}' }, settings: { timeoutMs: 10000 } },
      'requests/Chat.yaml': { name: 'Chat', seq: 1, kind: 'websocket', url: echo.url, body: { type: 'text', text: 'draft hello' } },
      'requests/Sensors.yaml': { name: 'Sensors', seq: 2, kind: 'mqtt', url: broker.url },
      'requests/Raw.yaml': { name: 'Raw', seq: 4, kind: 'tcp', url: 'tcp://127.0.0.1:9', body: { type: 'text', text: 'hello' } },
    }, { viewport: { width: 1400, height: 1000 } }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await echo?.close();
    await broker?.close();
    await mcpPeer?.close();
  });

  it('WebSocket: connect, a message typed in the composer echoed back, search, save as draft, disconnect', async () => {
    await page.getByRole('treeitem', { name: /Chat/ }).click();
    const panel = page.getByLabel('Live connection');
    await expect.poll(() => panel.getByLabel('Message', { exact: true }).inputValue()).toBe('draft hello');
    await panel.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toContain(`Connected to ${echo.url}`);
    await panel.getByLabel('Message', { exact: true }).fill('hi from the composer');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    const list = panel.getByLabel('Messages', { exact: true });
    await expect.poll(() => list.locator('li.received').textContent()).toContain('echo: hi from the composer');
    expect(await list.locator('li.sent').textContent()).toContain('hi from the composer');
    expect(echo.seen).toEqual(['hi from the composer']);

    await panel.getByLabel('Format').selectOption('json');
    await panel.getByLabel('Message', { exact: true }).fill('{"n":1}');
    // Ctrl+Enter in the composer sends the message, not the request (the page's own shortcut).
    await panel.getByLabel('Message', { exact: true }).press('Control+Enter');
    await expect.poll(() => list.locator('li').count()).toBe(4);
    expect(await page.getByTestId('status').count()).toBe(0);
    await panel.getByLabel('Search messages').fill('composer');
    await expect.poll(() => list.locator('li').count()).toBe(2);
    await panel.getByLabel('Search messages').fill('');
    // Pretty JSON: the sent JSON shown indented.
    await expect.poll(() => list.locator('li.sent').nth(1).locator('pre').textContent()).toBe('{\n  "n": 1\n}');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-live-websocket-light.png') });

    await panel.getByLabel('Format').selectOption('hex');
    await panel.getByLabel('Message', { exact: true }).fill('zz');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => panel.getByRole('alert').textContent()).toContain('the message is not valid hex');

    await panel.getByLabel('Format').selectOption('json');
    await panel.getByLabel('Message', { exact: true }).fill('{"n":2}');
    await panel.getByRole('button', { name: 'Save as draft' }).click();
    const file = path.join(ws.root, 'requests/Chat.yaml');
    await expect.poll(async () => (parse(await fs.readFile(file, 'utf8')) as { body: unknown }).body).toEqual({ type: 'json', text: '{"n":2}' });

    await panel.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toContain('Ended: closed by you');
  });

  it('MQTT: subscribe live, publish from the composer and from another client, both shown', async () => {
    await page.getByRole('treeitem', { name: /Sensors/ }).click();
    const panel = page.getByLabel('Live connection');
    await panel.getByRole('button', { name: 'Subscribe', exact: true }).waitFor(); // the MQTT request's panel, not the last one's
    await panel.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toContain('Connected to');
    await panel.getByLabel('Topic').fill('home/+/temp');
    await panel.getByLabel('QoS').selectOption('1');
    await panel.getByRole('button', { name: 'Subscribe', exact: true }).click();
    const list = panel.getByLabel('Messages', { exact: true });
    await expect.poll(() => list.locator('li.sent').first().textContent()).toContain('subscribe');

    await panel.getByLabel('Topic').fill('home/kitchen/temp');
    await panel.getByLabel('Message', { exact: true }).fill('21.5');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => list.locator('li.received').first().textContent()).toContain('21.5');
    expect(await list.locator('li.received').first().textContent()).toContain('home/kitchen/temp · QoS 1');

    const other = await mqtt.connectAsync(broker.url);
    await other.publishAsync('home/hall/temp', '19');
    await other.endAsync();
    await expect.poll(() => list.locator('li.received').count()).toBe(2);
    expect(await list.locator('li.received').nth(1).textContent()).toContain('home/hall/temp');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-live-mqtt-light.png') });

    await panel.getByRole('button', { name: 'Save as draft' }).click();
    const file = path.join(ws.root, 'requests/Sensors.yaml');
    await expect.poll(async () => (parse(await fs.readFile(file, 'utf8')) as { mqtt?: unknown }).mqtt).toMatchObject({ topic: 'home/kitchen/temp', qos: 1 });
    await panel.getByRole('button', { name: 'Disconnect' }).click();
  });

  it('MCP: a session with List tools and Call tool from the draft, an unknown tool refused in one line', async () => {
    await page.getByRole('treeitem', { name: /Tools/ }).click();
    const panel = page.getByLabel('Live connection');
    // The panel is the MCP request's once its operations show (the MQTT panel is still there a moment after the click).
    await panel.getByRole('button', { name: 'List tools' }).waitFor();
    // Operations only: no format, message or Send.
    expect(await panel.getByLabel('Format').count()).toBe(0);
    await panel.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent(), { timeout: 10_000 }).toContain('Connected to');
    const list = panel.getByLabel('Messages', { exact: true });
    await panel.getByRole('button', { name: 'List tools' }).click();
    await expect.poll(() => list.locator('li.received').first().textContent()).toContain('listTools result');
    expect(await list.locator('li.received').first().textContent()).toContain('Adds two numbers');
    // The composer starts from the file's mcp.name and mcp.arguments.
    await expect.poll(() => panel.getByLabel('Name').inputValue()).toBe('add');
    await panel.getByRole('button', { name: 'Call tool' }).click();
    await expect.poll(() => list.locator('li.received').nth(1).textContent()).toContain('callTool result');
    expect(await list.locator('li.received').nth(1).textContent()).toMatch(/"sum":\s*5/);
    await panel.getByLabel('Name').fill('nope');
    await panel.getByRole('button', { name: 'Call tool' }).click();
    await expect.poll(() => panel.getByRole('alert').textContent()).toContain('the MCP server has no tool "nope"; it has: add');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-live-mcp.png') });
    await panel.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toContain('Ended: closed by you');
  });

  it('TCP: a Base64 draft is kept as the same bytes in hex; text that is not Base64 is refused and nothing is saved', async () => {
    await page.getByRole('treeitem', { name: /Raw/ }).click();
    const panel = page.getByLabel('Live connection');
    await expect.poll(() => panel.getByLabel('Message', { exact: true }).inputValue()).toBe('hello');
    const file = path.join(ws.root, 'requests/Raw.yaml');
    await panel.getByLabel('Format').selectOption('base64');
    await panel.getByLabel('Message', { exact: true }).fill('SGk=');
    await panel.getByRole('button', { name: 'Save as draft' }).click();
    const saved = async () => parse(await fs.readFile(file, 'utf8')) as { body: unknown; socket?: { encoding?: string } };
    await expect.poll(async () => (await saved()).body).toEqual({ type: 'text', text: '48 69' });
    expect((await saved()).socket?.encoding).toBe('hex');

    const before = await fs.readFile(file, 'utf8');
    await panel.getByLabel('Message', { exact: true }).fill('SGk!');
    await panel.getByRole('button', { name: 'Save as draft' }).click();
    await expect.poll(() => panel.getByRole('alert').textContent()).toContain('not valid Base64');
    await new Promise((r) => setTimeout(r, 300));
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });

  it('a peer that accepts but never answers: Connecting… can be cancelled, and opening another request neither waits for it nor gets its connection', async () => {
    const held: net.Socket[] = [];
    let closed = 0;
    const silent = net.createServer((socket) => void held.push(socket.on('error', () => undefined).on('close', () => closed++).resume()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      await ws.write('requests/Silent.yaml', { name: 'Silent', seq: 5, kind: 'websocket', url: `ws://127.0.0.1:${port}/` });
      await page.getByRole('treeitem', { name: /Silent/ }).click();
      const panel = page.getByLabel('Live connection');
      // Silent's own panel, not the last request's, which stays a moment after the click (a full run once connected that one).
      await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Silent');
      await expect.poll(() => panel.getByRole('status').textContent()).toBe('Not connected');
      await panel.getByRole('button', { name: 'Connect' }).click();
      await expect.poll(() => panel.getByRole('status').textContent()).toBe('Connecting…');
      await panel.getByRole('button', { name: 'Cancel connecting' }).click();
      await expect.poll(() => panel.getByRole('status').textContent()).toBe('Not connected');
      await expect.poll(() => closed).toBe(1); // the attempt's socket closed
      await panel.getByRole('button', { name: 'Connect' }).click();
      await expect.poll(() => panel.getByRole('status').textContent()).toBe('Connecting…');
      // Another request opened meanwhile: its panel is ready at once, and the attempt is dropped.
      await page.getByRole('treeitem', { name: /Chat/ }).click();
      await expect.poll(() => panel.getByLabel('Message', { exact: true }).inputValue()).not.toBe('');
      await expect.poll(() => panel.getByRole('status').textContent()).toBe('Not connected');
      await expect.poll(() => panel.getByRole('button', { name: 'Connect' }).isEnabled()).toBe(true);
      await expect.poll(() => closed).toBe(2);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
