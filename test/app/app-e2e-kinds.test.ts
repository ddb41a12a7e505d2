/**
 * `ferry app` in Chromium, the pickers of issue 26 against real peers on 127.0.0.1: a gRPC method
 * picked from reflection (its message skeleton written into the request) and called; an MCP tool
 * picked from the server's list and called through the form generated from its input schema (a
 * wrong value refused in the form first). Each step checks the file on disk as well as the page.
 */
import { promises as fs } from 'node:fs';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import mqtt from 'mqtt';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql } from 'graphql';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { startDnsFixture, type DnsFixture } from '../support/dns-fixture.js';
import { ECHO_PROTO, startGrpcPeer, type GrpcPeer } from '../protocols/grpc-peer.js';
import { mosquittoMissing, startAedes, startMosquitto } from '../protocols/mqtt-brokers.js';
import { startStreamableHttp, type McpPeer } from '../protocols/mcp-peers.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { ARTIFACTS, browserMissing, closeAppPage, drawn, openWorkspacePage, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: gRPC and MCP pickers', () => {
  let ws: TempWorkspace;
  let grpcPeer: GrpcPeer;
  let mcpPeer: McpPeer;
  let gqlServer: http.Server;
  let dns: DnsFixture;
  let stall: net.Server;
  const stalled = new Set<net.Socket>();
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let log: PageLog;
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
    // A TXT record whose first string is not UTF-8 (0xff), then a plain one.
    dns = await startDnsFixture({}, {
      records: [{ name: 'bytes.ferry.test', type: 'TXT', ttl: 60, data: [Buffer.from([0x61, 0xff, 0x62]), 'plain'] }],
      // A CAA value that is not UTF-8 either: flags 0, tag issue, then a\xffb.
      raw: [{ name: 'bytes.ferry.test', type: 'CAA', rdata: Buffer.from([0, 5, ...Buffer.from('issue'), 0x61, 0xff, 0x62]) }],
    });
    // A gRPC server that accepts connections and never answers: listing its methods waits out the time limit.
    stall = net.createServer((socket) => {
      stalled.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => stalled.delete(socket));
    });
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    const stallUrl = `grpc://127.0.0.1:${(stall.address() as AddressInfo).port}`;
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Text record.yaml': { name: 'Text record', kind: 'dns', seq: 4, url: 'bytes.ferry.test', method: 'TXT', dns: { server: `127.0.0.1:${dns.port}` } },
      'requests/CAA record.yaml': { name: 'CAA record', kind: 'dns', seq: 5, url: 'bytes.ferry.test', method: 'CAA', dns: { server: `127.0.0.1:${dns.port}` } },
      'requests/Users.yaml': { name: 'Users', seq: 3, method: 'POST', url: gqlUrl, body: { type: 'graphql', graphql: { query: '{ user(id: 1) { nick } }' } } },
      'requests/Echo.yaml': { name: 'Echo', kind: 'grpc', seq: 1, url: grpcPeer.url, method: '' },
      'requests/Missing greeting.yaml': { name: 'Missing greeting', kind: 'grpc', seq: 6, url: grpcPeer.url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{"text": "x", "failWith": true}' } },
      'requests/No such name.yaml': { name: 'No such name', kind: 'dns', seq: 7, url: 'nowhere.ferry.test', method: 'A', dns: { server: `127.0.0.1:${dns.port}` } },
      'requests/Tools.yaml': { name: 'Tools', kind: 'mcp', seq: 2, url: mcpPeer.url, settings: { timeoutMs: 10000 } },
      'requests/Silent schema.yaml': { name: 'Silent schema', seq: 10, method: 'POST', url: `http://127.0.0.1:${(stall.address() as AddressInfo).port}/graphql`, settings: { timeoutMs: 2000 }, body: { type: 'graphql', graphql: { query: '{ users { id } }' } } },
      'requests/Silent server.yaml': { name: 'Silent server', kind: 'grpc', seq: 9, url: stallUrl, method: 'ferry.test.Echo/Say', settings: { timeoutMs: 2000 } },
      'requests/Outside proto.yaml': { name: 'Outside proto', kind: 'grpc', seq: 8, url: grpcPeer.url, method: 'ferry.test.Echo/Say', grpc: { protoFiles: ['../outside.proto'] } },
    }, { log: true }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await grpcPeer?.close();
    await mcpPeer?.close();
    await new Promise((resolve) => gqlServer?.close(resolve));
    await dns?.close();
    for (const socket of stalled) socket.destroy();
    await new Promise((resolve) => stall?.close(resolve));
  });

  it('gRPC: a method picked from reflection gets its message skeleton and is called', async () => {
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    const picker = page.getByLabel('Methods and tools');
    await picker.getByRole('button', { name: 'List methods and tools' }).click();
    await expect.poll(() => picker.textContent(), { timeout: 10_000 }).toContain('from reflection');
    expect(await picker.textContent()).toContain('ferry.test.Echo');
    await picker.getByRole('button', { name: 'Say', exact: true }).click();
    // Saved as the user picked it: the method and a skeleton of SayRequest.
    await expect.poll(async () => (await onDisk('requests/Echo.yaml')).method).toBe('ferry.test.Echo/Say');
    const body = (await onDisk('requests/Echo.yaml')).body as { text: string };
    expect(JSON.parse(body.text)).toMatchObject({ text: '', big: '0', inner: { level: 0 }, tags: [''] });
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('OK');
    await expect.poll(() => page.getByTestId('response-body').textContent()).toContain('hello');
    await page.getByLabel('Response').getByRole('tab', { name: 'Details' }).click();
    await expect.poll(() => page.getByTestId('response-detail').textContent()).toContain('"callType": "unary"');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-grpc-picker.png') });
  }, 60_000); // reflection, a save and a gRPC call: past 13 s on a loaded machine

  it("gRPC and DNS: the status shows the kind's outcome (the status message, not an HTTP status), marked failed by the kind's rule, not HTTP's 400", async () => {
    await page.getByRole('treeitem', { name: /Missing greeting/ }).click();
    await page.getByTitle('Send (Ctrl+Enter)').click();
    const status = page.getByTestId('status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('5 NOT_FOUND: no greeting for x');
    expect(await status.getAttribute('class')).toContain('bad');
    await page.getByRole('treeitem', { name: /No such name/ }).click();
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('NXDOMAIN');
    expect(await status.getAttribute('class')).toContain('bad');
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('0 OK');
    expect(await status.getAttribute('class')).toContain('ok');
    // The runner's Status column says the same (it showed a bare 5).
    await page.getByRole('button', { name: 'Run all' }).click();
    await page.getByLabel('Runner').getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 30_000 }).toMatch(/requests/);
    const row = page.getByLabel('Run results').locator('tbody tr', { hasText: 'Missing greeting' });
    expect(await row.locator('td').nth(2).textContent()).toBe('5 NOT_FOUND: no greeting for x');
    await page.getByLabel('Close runner').click();
  }, 60_000); // three sends and a run of every request: past 14 s on a loaded machine, half the default 30 s

  it("the picker's list and error belong to the request shown: a gRPC request's failure is not shown on the next one", async () => {
    const picker = page.getByLabel('Methods and tools');
    await page.getByRole('treeitem', { name: /Outside proto/ }).click();
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByText(/outside\.proto/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await picker.getByRole('button', { name: 'List methods and tools' }).click();
    await expect.poll(() => picker.getByRole('alert').count(), { timeout: 10_000 }).toBe(1);
    expect(await picker.getByRole('alert').textContent()).toContain('outside.proto');
    for (const other of [/Tools/, /Echo/]) {
      await page.getByRole('treeitem', { name: other }).click();
      await expect.poll(() => picker.getByRole('button', { name: 'List methods and tools' }).count()).toBe(1);
      // What the switch draws, effects included, drawn (not a moment guessed): no stale error then.
      await drawn(page);
      expect(await picker.getByRole('alert').count(), await picker.textContent() ?? '').toBe(0);
      expect(await picker.textContent()).not.toContain('outside.proto');
    }
    // A list still being asked for when another request is shown: its answer (here its failure
    // after the 2 s limit) is not shown on the other request's picker.
    await page.getByRole('treeitem', { name: /Silent server/ }).click();
    const from = log.mark();
    await picker.getByRole('button', { name: 'List methods and tools' }).click();
    await expect.poll(() => picker.getByRole('button', { name: 'Listing…' }).count()).toBe(1);
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    // 10 s: a clean clone's full run (the machine busy with every test file) once took longer than 5.
    await expect.poll(() => picker.getByRole('button', { name: 'List methods and tools' }).count(), { timeout: 10_000 }).toBe(1);
    // The listing's answer (or its cancelling) come and drawn: only then is its failure surely not shown.
    await log.answered(/\/api\/describe$/, from);
    expect(await picker.getByRole('alert').count(), (await picker.textContent()) ?? '').toBe(0);
    expect(await picker.getByRole('button', { name: 'List methods and tools' }).isEnabled()).toBe(true);
    // Back on the silent server's request, its picker is as new: List asks again.
    await page.getByRole('treeitem', { name: /Silent server/ }).click();
    await expect.poll(() => picker.getByRole('button', { name: 'List methods and tools' }).isEnabled()).toBe(true);
  });

  it("a send's answer belongs to its request: a gRPC call still going when another request is shown does not put its failure there", async () => {
    await page.getByRole('treeitem', { name: /Silent server/ }).click();
    const from = log.mark();
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByLabel('Response').textContent()).toContain('Sending…');
    await page.getByRole('treeitem', { name: /No such name/ }).click();
    // The send's answer (its failure after the 2 s limit) come and drawn.
    await log.answered(/\/api\/send$/, from);
    const shown = (await page.getByLabel('Response').textContent()) ?? '';
    expect(shown).not.toMatch(/timed out|2000 ms/);
    expect(shown).toContain('Send the request');
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
    await expect.poll(async () => ((await onDisk('requests/Tools.yaml')).mcp as { arguments?: string } | undefined)?.arguments).toBeTruthy();
    const mcp = (await onDisk('requests/Tools.yaml')).mcp as { call?: string; name: string; arguments: string };
    expect(mcp.name).toBe('add');
    expect(mcp.call ?? 'tool').toBe('tool'); // the default is not written
    expect(JSON.parse(mcp.arguments)).toEqual({ a: 2, b: 3 });
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('OK');
    // Screen readers hear it as the badge reads: OK, not Ferry's own 0 before it.
    await expect.poll(() => page.locator('p.sr-only[role="status"]').textContent()).toMatch(/^Response: OK, \d+ ms/);
    await page.getByLabel('Response').getByRole('tab', { name: 'Body' }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent()).toMatch(/"sum":\s*5/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-mcp-form.png') });
  });

  it('DNS: a TXT string or CAA value that is not UTF-8 shows in the records table as kdig shows it (\\255), not as U+FFFD', async () => {
    await page.getByRole('treeitem', { name: /Text record/ }).click();
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('NOERROR');
    await page.getByLabel('Response').getByRole('tab', { name: 'Details' }).click();
    const row = page.getByRole('table', { name: 'answer records' }).getByRole('row').nth(1);
    await expect.poll(() => row.textContent()).toContain('TXT');
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('"a\\255b" "plain"');
    await page.getByLabel('Response').getByRole('tab', { name: 'Body' }).click();
    expect(await page.getByTestId('response-body').textContent()).not.toContain('\ufffd');
    // A CAA value the same way (its zone-file data), not as JSON, whose escaping doubles the backslash.
    await page.getByRole('treeitem', { name: /CAA record/ }).click();
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('NOERROR');
    await page.getByLabel('Response').getByRole('tab', { name: 'Details' }).click();
    const caa = page.getByRole('table', { name: 'answer records' }).getByRole('row').nth(1);
    await expect.poll(() => caa.textContent()).toContain('CAA');
    expect(await caa.getByRole('cell').nth(4).textContent()).toBe('0 issue "a\\255b"');
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
    // The list is drawn again as the typing is read: polled.
    const labels = () => offered.locator('li').allTextContents();
    await expect.poll(async () => (await labels()).some((l) => l.startsWith('user') && !l.startsWith('users'))).toBe(true);
    await expect.poll(async () => (await labels()).some((l) => l.startsWith('users'))).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-graphql-completion.png') });
    await page.keyboard.press('Escape');
  });

  it("GraphQL: a schema still being read when another request is shown is not shown (nor its failure) on that request's panel", async () => {
    await page.getByRole('treeitem', { name: /Silent schema/ }).click();
    const panel = page.getByLabel('GraphQL schema');
    const from = log.mark();
    await panel.getByRole('button', { name: 'Read schema' }).click();
    await expect.poll(() => panel.getByRole('button', { name: 'Reading schema…' }).count()).toBe(1);
    await page.getByRole('treeitem', { name: /Users/ }).click();
    await expect.poll(() => panel.getByRole('button', { name: 'Read schema' }).count()).toBe(1);
    // The schema's answer (or its cancelling) come and drawn.
    await log.answered(/\/api\/graphql\/schema$/, from);
    expect(await panel.getByRole('alert').count(), (await panel.textContent()) ?? '').toBe(0);
    expect(await panel.getByRole('button', { name: 'Read schema' }).isEnabled()).toBe(true);
  });
});

/**
 * Every kind's own options (spec 2.8) set from the editor, as a user would: a request made with +,
 * its kind chosen in the Kind box, the kind's fields filled in the Options tab (drawn from the
 * format's declaration), then used against a real peer, the file on disk checked as the CLI writes
 * it (declared order, defaults left out), and the fields shown again after opening another request.
 */
describe.skipIf(missing !== undefined)('ferry app in Chromium: a request of each kind made and set up from the UI', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  const closers: Array<() => Promise<unknown>> = [];
  const text = (p: string) => fs.readFile(path.join(ws.root, 'requests', p), 'utf8');
  /** The file once it holds `wanted` (the editor saves 0.4 s after the last edit). */
  const fileOnce = async (p: string, wanted: (data: Record<string, unknown>) => boolean) => {
    await expect.poll(async () => wanted(parse(await text(p).catch(() => 'name: x')) as Record<string, unknown>)).toBe(true);
    return parse(await text(p)) as Record<string, unknown>;
  };
  /** A new request (the sidebar's +), renamed, of `kind`. */
  const newRequest = async (name: string, kind: string) => {
    await page.getByRole('button', { name: 'New request' }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('New request');
    await page.getByLabel('Request name').fill(name);
    await page.getByLabel('Kind', { exact: true }).selectOption(kind);
    await fileOnce(`${name}.yaml`, (d) => d.kind === kind);
  };
  const options = () => page.getByRole('group', { name: /options$/ });

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({ 'requests/Other.yaml': { name: 'Other', seq: 9, url: 'http://127.0.0.1:9/' } }, { viewport: { width: 1400, height: 1000 } }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    for (const close of closers.reverse()) await close();
  });

  it('TCP: framing and line ending chosen in the form are what the peer reads; the file has only what differs from the defaults', async () => {
    const got: string[] = [];
    let closed = 0;
    const server = net.createServer((socket) => socket.on('data', (d) => got.push(d.toString('utf8'))).on('close', () => closed++));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => { server.close(resolve); }));
    await newRequest('Raw line', 'tcp');
    // No HTTP method box for a kind without a method; the URL box says which scheme the kind takes.
    expect(await page.getByLabel('Method', { exact: true }).count()).toBe(0);
    expect(await page.getByLabel('URL').getAttribute('placeholder')).toContain('tcp://');
    await page.getByLabel('URL').fill(`tcp://127.0.0.1:${(server.address() as AddressInfo).port}`);
    await page.getByRole('tab', { name: 'Options' }).click();
    await options().getByLabel('framing').selectOption('line');
    await options().getByLabel('lineEnding').selectOption('crLf');
    await options().getByLabel('lengthBytes').selectOption('4');
    await options().getByLabel('lengthBytes').selectOption('2'); // back to the default: left out
    const data = await fileOnce('Raw line.yaml', (d) => (d.socket as { lineEnding?: string } | undefined)?.lineEnding === 'crLf');
    expect(Object.keys(data)).toEqual(['name', 'kind', 'url', 'socket']);
    expect(data.socket).toEqual({ framing: 'line', lineEnding: 'crLf' });

    const panel = page.getByLabel('Live connection');
    await panel.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toContain('Connected to');
    await panel.getByLabel('Message', { exact: true }).fill('ping');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => got.join('')).toBe('ping\r\n');
    // Another kind chosen while connected: the connection of the old kind is closed, as opening
    // another request closes it, and the panel is the new kind's.
    await page.getByLabel('Kind', { exact: true }).selectOption('udp');
    await expect.poll(() => closed).toBe(1);
    await expect.poll(() => panel.getByRole('button', { name: 'Connect' }).count()).toBe(1);
    await page.getByLabel('Kind', { exact: true }).selectOption('tcp');

    // Reopened, the form shows what the file holds.
    await page.getByRole('treeitem', { name: /Other/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Other');
    await page.getByRole('treeitem', { name: /Raw line/ }).click();
    await page.getByRole('tab', { name: 'Options' }).click();
    // The request is read from the server after the click: polled.
    await expect.poll(() => options().getByLabel('framing').inputValue()).toBe('line');
    await expect.poll(() => options().getByLabel('lineEnding').inputValue()).toBe('crLf');
    await expect.poll(() => page.getByLabel('Kind', { exact: true }).inputValue()).toBe('tcp');
    // The Auth tab says that TCP sends no auth (a send with one set fails), before anyone sets one.
    await page.getByRole('tab', { name: 'Auth' }).click();
    expect(await page.getByTestId('kind-auth-note').textContent()).toBe('No auth is sent by TCP requests: an auth set here fails the send, and an inherited one is left out.');
    await page.getByRole('tab', { name: 'Headers' }).click();
    expect(await page.getByTestId('kind-headers-note').textContent()).toBe('No headers are sent by TCP requests: rows here are kept in the file, for when the request is switched back to a kind that sends them.');
  });

  it('GraphQL subscription: transport, subscription URL and connection params (spec 2.5) set in the Body tab are written, and left out again when emptied', async () => {
    await page.getByRole('button', { name: 'New request' }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('New request');
    await page.getByLabel('Request name').fill('Live scores');
    await fileOnce('Live scores.yaml', (d) => d.name === 'Live scores');
    await page.getByRole('tab', { name: 'Body', exact: true }).first().click();
    await page.getByLabel('Body type').selectOption('graphql');
    // The fields show once the query subscribes.
    expect(await page.getByLabel('Subscription transport').count()).toBe(0);
    await page.getByLabel('GraphQL query').click();
    await page.keyboard.type('subscription { tick ');
    await page.getByLabel('Subscription transport').selectOption('sse');
    await page.getByLabel('Subscription URL').fill('http://127.0.0.1:9/graphql/stream');
    await page.getByLabel('Connection params').fill('{"authToken": "{{token}}"}');
    const data = await fileOnce('Live scores.yaml', (d) => (d.body as { graphql?: { connectionParams?: string } } | undefined)?.graphql?.connectionParams !== undefined);
    expect(data.body).toEqual({
      type: 'graphql',
      graphql: { query: 'subscription { tick }', transport: 'sse', subscriptionUrl: 'http://127.0.0.1:9/graphql/stream', connectionParams: '{"authToken": "{{token}}"}' },
    });
    // Back to the default transport and no URL: the fields go from the file.
    await page.getByLabel('Subscription transport').selectOption('');
    await page.getByLabel('Subscription URL').fill('');
    const after = await fileOnce('Live scores.yaml', (d) => (d.body as { graphql?: Record<string, unknown> }).graphql?.subscriptionUrl === undefined);
    expect(after.body).toEqual({ type: 'graphql', graphql: { query: 'subscription { tick }', connectionParams: '{"authToken": "{{token}}"}' } });
  });

  it('gRPC without reflection: the method typed, proto files and an import folder listed in the form, then called', async () => {
    const peer = await startGrpcPeer({ reflection: false });
    closers.push(() => peer.close());
    await fs.mkdir(path.join(ws.root, 'protos'), { recursive: true });
    await fs.copyFile(ECHO_PROTO, path.join(ws.root, 'protos/echo.proto'));
    await fs.mkdir(path.join(ws.root, 'shared/common'), { recursive: true });
    for (const f of await fs.readdir(path.join(path.dirname(ECHO_PROTO), 'common'))) await fs.copyFile(path.join(path.dirname(ECHO_PROTO), 'common', f), path.join(ws.root, 'shared/common', f));
    await newRequest('Say', 'grpc');
    await page.getByLabel('URL').fill(peer.url);
    // gRPC's method is text (package.Service/Method), typed in a box of its own.
    await page.getByLabel('Method', { exact: true }).fill('ferry.test.Echo/Say');
    await page.getByRole('tab', { name: 'Options' }).click();
    await options().getByLabel('protoFiles 1').fill('protos/echo.proto');
    await options().getByLabel('importPaths 1').fill('shared');
    const data = await fileOnce('Say.yaml', (d) => (d.grpc as { importPaths?: string[] } | undefined)?.importPaths?.[0] === 'shared');
    expect(Object.keys(data)).toEqual(['name', 'kind', 'method', 'url', 'grpc']);
    expect(data).toMatchObject({ method: 'ferry.test.Echo/Say', grpc: { protoFiles: ['protos/echo.proto'], importPaths: ['shared'] } });
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('OK');
    await expect.poll(() => page.getByTestId('response-body').textContent()).toContain('hello');
    // The picker reads the same proto files: no reflection needed.
    const picker = page.getByLabel('Methods and tools');
    await picker.getByRole('button', { name: 'List methods and tools' }).click();
    await expect.poll(() => picker.textContent(), { timeout: 10_000 }).toContain('ferry.test.Echo');
    // An entry removed with × is gone from the file.
    await options().getByRole('button', { name: 'Remove importPaths 1' }).click();
    await fileOnce('Say.yaml', (d) => (d.grpc as { importPaths?: string[] }).importPaths === undefined);
  });

  it('DNS: the record type from the method box, the server and recursion from the form, the answer decoded', async () => {
    const asked: Array<{ type: string; rd: boolean }> = [];
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      const query = dnsPacket.decode(msg);
      asked.push({ type: query.questions![0]!.type, rd: Boolean((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) });
      socket.send(dnsPacket.encode({ type: 'response', id: query.id, flags: 0, questions: query.questions, answers: [{ type: 'TXT', name: 'e2e.ferry.test', ttl: 30, data: 'from the test peer' }] }), rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
    await newRequest('Txt', 'dns');
    // Chosen as DNS: the method box offers record types and starts on the first.
    await expect.poll(() => page.getByLabel('Method', { exact: true }).inputValue()).toBe('A');
    await page.getByLabel('Method', { exact: true }).selectOption('TXT');
    await page.getByLabel('URL').fill('e2e.ferry.test');
    await page.getByRole('tab', { name: 'Options' }).click();
    await options().getByLabel('server').fill(`127.0.0.1:${socket.address().port}`);
    await options().getByLabel('recursion').uncheck();
    const data = await fileOnce('Txt.yaml', (d) => (d.dns as { recursion?: boolean } | undefined)?.recursion === false);
    expect(Object.keys(data)).toEqual(['name', 'kind', 'method', 'url', 'dns']);
    expect(data.dns).toEqual({ server: `127.0.0.1:${socket.address().port}`, recursion: false });
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('NOERROR');
    expect(asked).toEqual([{ type: 'TXT', rd: false }]);
  });

  it('SSE: the stream, repeat and proxy settings set in the Settings tab; a send stops reading at the most events set', async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 1; i <= 5; i++) res.write(`event: tick\ndata: ${i}\n\n`);
      // Kept open: without the settings, reading stops after 10 s only.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
    await newRequest('Ticks', 'sse');
    await page.getByLabel('URL').fill(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ticks`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const stream = page.getByRole('group', { name: 'stream options' });
    await stream.getByLabel('maxEvents').fill('2');
    await stream.getByLabel('event', { exact: true }).fill('x');
    await stream.getByLabel('event', { exact: true }).fill(''); // emptied: left out (an event name is optional), not written as ''
    await page.getByLabel('Repeat', { exact: true }).check();
    await page.getByRole('group', { name: 'repeat options' }).getByLabel('intervalMs').fill('500');
    await page.getByLabel('Proxy').selectOption('direct');
    const data = await fileOnce('Ticks.yaml', (d) => (d.settings as { repeat?: { intervalMs?: number } } | undefined)?.repeat?.intervalMs === 500 && (d.settings as { proxy?: boolean }).proxy === false);
    expect(Object.keys(data.settings as object)).toEqual(['proxy', 'repeat', 'stream']);
    expect(data.settings).toEqual({ proxy: false, repeat: { intervalMs: 500 }, stream: { maxEvents: 2 } });
    await page.getByTitle('Send (Ctrl+Enter)').click();
    await expect.poll(() => page.getByTestId('status').textContent()).toContain('200');
    await page.getByLabel('Response').getByRole('tab', { name: /Events/ }).click();
    await expect.poll(() => page.getByLabel('Response').getByRole('list', { name: 'Events' }).locator('li').count()).toBe(2);
    // Repeat switched off: the section goes from the file.
    await page.getByLabel('Repeat', { exact: true }).uncheck();
    await fileOnce('Ticks.yaml', (d) => (d.settings as { repeat?: unknown }).repeat === undefined);
  });

  it("Socket.IO against Ferry's own server started in the panel: event and ack set in Options reach the composer; the echo, the ack and a push from the traffic panel arrive", async () => {
    await ws.write('servers/sio.yaml', { name: 'Sio', kind: 'socketio', port: 0 });
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    const servers = page.getByLabel('Servers', { exact: true });
    await servers.getByRole('button', { name: 'Start Sio' }).click();
    // Its URL shows once the start has answered: longer than a step's 8 s on a loaded machine.
    await page.getByTestId('server-url-sio').waitFor({ timeout: 30_000 });
    const url = (await page.getByTestId('server-url-sio').textContent())!;
    await newRequest('Chat', 'socketio');
    await page.getByLabel('URL').fill(url);
    const panel = page.getByLabel('Live connection');
    await panel.getByLabel('Event').waitFor();
    // Set in the request's options after the composer was drawn: the composer follows.
    await page.getByRole('tab', { name: 'Options' }).click();
    await options().getByLabel('event', { exact: true }).fill('hello');
    await options().getByLabel('ack', { exact: true }).check();
    await expect.poll(() => panel.getByLabel('Event').inputValue()).toBe('hello');
    await expect.poll(() => panel.getByLabel('Ack').isChecked()).toBe(true);
    const data = await fileOnce('Chat.yaml', (d) => (d.socketio as { ack?: boolean } | undefined)?.ack === true);
    expect(data.socketio).toEqual({ event: 'hello', ack: true });

    await panel.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toContain('Connected to');
    await panel.getByLabel('Message', { exact: true }).fill('["hi"]');
    await panel.getByRole('button', { name: 'Send', exact: true }).click();
    const list = panel.getByLabel('Messages', { exact: true });
    // Echo mode: the event back, and the acknowledgement with its arguments.
    await expect.poll(() => list.locator('li.received').count()).toBe(2);
    expect((await list.locator('li.received').allTextContents()).join('\n')).toMatch(/hello[\s\S]*hi/);
    expect((await list.locator('li.received').allTextContents()).join('\n')).toContain('ack');
    // Pushed from the traffic panel with an event name: the open request's connection gets it.
    const push = servers.getByRole('group', { name: 'Send to clients' });
    await push.getByLabel('Send from server').selectOption('sio');
    await push.getByLabel('Event name').fill('news');
    await push.getByLabel('Message to send').fill('["extra"]');
    await push.getByRole('button', { name: 'Push' }).click();
    await expect.poll(() => push.getByRole('status').textContent()).toBe('Sent to 1 client.');
    await expect.poll(() => list.locator('li.received').count()).toBe(3);
    expect(await list.locator('li.received').last().textContent()).toContain('news');
    await panel.getByRole('button', { name: 'Disconnect' }).click();
    await servers.getByRole('button', { name: 'Stop Sio' }).click();
    await page.getByRole('button', { name: 'Close servers' }).click();
  });

  it('MQTT: client id, version, keep-alive and a subscription set in the form; a message on that subscription arrives on Connect', async () => {
    const broker = mosquittoMissing() ? await startAedes() : await startMosquitto();
    closers.push(() => broker.close());
    await newRequest('Sensors', 'mqtt');
    await page.getByLabel('URL').fill(broker.url);
    await page.getByRole('tab', { name: 'Options' }).click();
    await options().getByLabel('clientId').fill('ferry-e2e');
    await options().getByLabel('version').selectOption('v5');
    await options().getByLabel('keepAliveSecs').fill('15');
    await options().getByRole('button', { name: 'Add subscriptions row' }).click();
    await options().getByLabel('subscriptions topic 1').fill('e2e/#');
    await options().getByLabel('subscriptions qos 1').fill('1');
    const data = await fileOnce('Sensors.yaml', (d) => (d.mqtt as { subscriptions?: Array<{ qos?: number }> } | undefined)?.subscriptions?.[0]?.qos === 1);
    expect(Object.keys(data)).toEqual(['name', 'kind', 'url', 'mqtt']);
    // Declared order; cleanSession, topic, qos, retain and the row's `enabled` at their defaults, left out.
    expect(Object.keys(data.mqtt as object)).toEqual(['clientId', 'version', 'keepAliveSecs', 'subscriptions']);
    expect(data.mqtt).toEqual({ clientId: 'ferry-e2e', version: 'v5', keepAliveSecs: 15, subscriptions: [{ topic: 'e2e/#', qos: 1 }] });

    const panel = page.getByLabel('Live connection');
    await panel.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toContain('Connected to');
    const other = await mqtt.connectAsync(broker.url);
    await other.publishAsync('e2e/door', 'open', { qos: 1 });
    await other.endAsync();
    const list = panel.getByLabel('Messages', { exact: true });
    await expect.poll(() => list.locator('li.received').first().textContent()).toContain('open');
    // The subscription made on Connect is shown once (it reached the page both in the connection's
    // early messages and in the live channel's first batch, and was listed twice).
    expect(await list.locator('li.sent').allTextContents()).toEqual([expect.stringContaining('e2e/# · QoS 1')]);
    await panel.getByRole('button', { name: 'Disconnect' }).click();
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-kind-options-mqtt.png') });
  });
});
