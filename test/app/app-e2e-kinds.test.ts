/**
 * `ferry app` in Chromium, the pickers of issue 26 against real peers on 127.0.0.1: a gRPC method
 * picked from reflection (its message skeleton written into the request) and called; an MCP tool
 * picked from the server's list and called through the form generated from its input schema (a
 * wrong value refused in the form first). Each step checks the file on disk as well as the page.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql } from 'graphql';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { startGrpcPeer, type GrpcPeer } from '../protocols/grpc-peer.js';
import { startStreamableHttp, type McpPeer } from '../protocols/mcp-peers.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { ARTIFACTS, browserMissing, closeAppPage, openAppPage } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: gRPC and MCP pickers', () => {
  let ws: TempWorkspace;
  let grpcPeer: GrpcPeer;
  let mcpPeer: McpPeer;
  let gqlServer: http.Server;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  const onDisk = async (p: string) => parse(await fs.readFile(path.join(ws.root, p), 'utf8')) as Record<string, unknown>;

  beforeAll(async () => {
    grpcPeer = await startGrpcPeer();
    mcpPeer = await startStreamableHttp();
    const schema = buildSchema('type Query { "A user by id" user(id: ID!): User users: [User!]! }\ntype User { id: ID! name: String }');
    gqlServer = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', async () => {
        const { query, variables } = JSON.parse(text) as { query: string; variables?: Record<string, unknown> };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await graphql({ schema, source: query, variableValues: variables })));
      });
    });
    await new Promise<void>((resolve) => gqlServer.listen(0, '127.0.0.1', resolve));
    const gqlUrl = `http://127.0.0.1:${(gqlServer.address() as AddressInfo).port}/graphql`;
    ws = await makeWorkspace({
      'requests/Users.yaml': { name: 'Users', seq: 3, method: 'POST', url: gqlUrl, body: { type: 'graphql', graphql: { query: '{ user(id: 1) { nick } }' } } },
      'requests/Echo.yaml': { name: 'Echo', kind: 'grpc', seq: 1, url: grpcPeer.url, method: '' },
      'requests/Tools.yaml': { name: 'Tools', kind: 'mcp', seq: 2, url: mcpPeer.url, settings: { timeoutMs: 10000 } },
    });
    ({ app, browser, page } = await openAppPage(ws));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app });
    await grpcPeer?.close();
    await mcpPeer?.close();
    await new Promise((resolve) => gqlServer?.close(resolve));
    await ws?.cleanup();
  });

  it('gRPC: a method picked from reflection gets its message skeleton and is called', async () => {
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    const picker = page.getByLabel('Methods and tools');
    await picker.getByRole('button', { name: 'List methods and tools' }).click();
    await expect.poll(() => picker.textContent(), { timeout: 10_000 }).toContain('from reflection');
    expect(await picker.textContent()).toContain('ferry.test.Echo');
    await picker.getByRole('button', { name: 'Say', exact: true }).click();
    // Saved as the user picked it: the method and a skeleton of SayRequest.
    await expect.poll(async () => (await onDisk('requests/Echo.yaml')).method, { timeout: 5_000 }).toBe('ferry.test.Echo/Say');
    const body = (await onDisk('requests/Echo.yaml')).body as { text: string };
    expect(JSON.parse(body.text)).toMatchObject({ text: '', big: '0', inner: { level: 0 }, tags: [''] });
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('OK');
    expect(await page.getByTestId('response-body').textContent()).toContain('hello');
    await page.getByLabel('Response').getByRole('tab', { name: 'Details' }).click();
    expect(await page.getByTestId('response-detail').textContent()).toContain('"callType": "unary"');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-grpc-picker.png') });
  });

  it('MCP: a tool picked from the list is called through the form of its input schema', async () => {
    await page.getByRole('treeitem', { name: /Tools/ }).click();
    const picker = page.getByLabel('Methods and tools');
    await picker.getByRole('button', { name: 'List methods and tools' }).click();
    await expect.poll(() => picker.textContent(), { timeout: 10_000 }).toContain('ferry-test-mcp');
    await picker.getByRole('button', { name: 'add', exact: true }).click();
    const form = page.getByLabel('Arguments of add');
    await form.getByLabel('a', { exact: true }).fill('two');
    await form.getByLabel('b', { exact: true }).fill('3');
    await form.getByRole('button', { name: 'Use these arguments' }).click();
    // A wrong type is named in the form; nothing is written.
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('a must be a number');
    await form.getByLabel('a', { exact: true }).fill('2');
    await form.getByRole('button', { name: 'Use these arguments' }).click();
    await expect.poll(async () => ((await onDisk('requests/Tools.yaml')).mcp as { arguments?: string } | undefined)?.arguments, { timeout: 5_000 }).toBeTruthy();
    const mcp = (await onDisk('requests/Tools.yaml')).mcp as { call?: string; name: string; arguments: string };
    expect(mcp.name).toBe('add');
    expect(mcp.call ?? 'tool').toBe('tool'); // the default is not written
    expect(JSON.parse(mcp.arguments)).toEqual({ a: 2, b: 3 });
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('OK');
    await page.getByLabel('Response').getByRole('tab', { name: 'Body' }).click();
    expect(await page.getByTestId('response-body').textContent()).toMatch(/"sum":\s*5/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-mcp-form.png') });
  });

  it('GraphQL: the schema read by introspection checks the query and documents its types', async () => {
    await page.getByRole('treeitem', { name: /Users/ }).click();
    const panel = page.getByLabel('GraphQL schema');
    await panel.getByRole('button', { name: 'Read schema' }).click();
    await expect.poll(() => panel.getByLabel('Query problems').textContent(), { timeout: 10_000 }).toContain('Cannot query field "nick" on type "User"');
    await panel.getByLabel('Documentation').getByRole('button', { name: 'Query', exact: true }).click();
    await expect.poll(() => panel.getByLabel('Documentation').textContent()).toContain('user(id: ID!)');
    await panel.getByLabel('Documentation').getByRole('button', { name: 'User', exact: true }).click();
    await expect.poll(() => panel.getByLabel('Documentation').textContent()).toContain('name');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-graphql-schema.png') });
  });

  it('GraphQL: the query editor completes fields from the schema read and marks the wrong ones inline', async () => {
    // Follows the test above: the schema of this URL has been read.
    await page.getByRole('tab', { name: 'Body', exact: true }).first().click();
    const editor = page.getByLabel('GraphQL query');
    // The stored query asks for `nick`, which User does not have: lint marks it in the editor.
    await expect.poll(() => page.locator('.graphql .cm-lintRange-error').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type('{ us');
    const offered = page.locator('.cm-tooltip-autocomplete');
    await expect.poll(() => offered.textContent(), { timeout: 10_000 }).toContain('users');
    const labels = await offered.locator('li').allTextContents();
    expect(labels.some((l) => l.startsWith('user') && !l.startsWith('users'))).toBe(true);
    expect(labels.some((l) => l.startsWith('users'))).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-graphql-completion.png') });
    await page.keyboard.press('Escape');
  });
});
