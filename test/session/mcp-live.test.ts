/**
 * MCP as a live connection (issue 26) through the session API, against the MCP SDK's server over
 * Streamable HTTP on 127.0.0.1 (stateful: a session id, notifications on SSE): the operations,
 * a log message and progress sent during a tool call, a list_changed notification, close ending
 * the server's session; bad input (unknown tool, arguments not an object, unknown operation,
 * missing names) and a program this computer does not allow.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import type { ConnectionEnd, StreamMessage } from '../../src/protocols/index.js';
import { Session } from '../../src/session/index.js';
import { startSse } from '../protocols/mcp-peers.js';
import { openedWorkspace } from '../runner/workspace.js';
import { makeWorkspace, serve } from '../servers/helpers.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const fixture = '../fixtures/mcp/echo-server.mjs';

/** The tests' MCP server with two more tools: `work` logs and reports progress, `grow` adds a tool (list_changed). */
async function statefulPeer() {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const ended: string[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        if (req.method !== 'POST' || id !== undefined) return void res.writeHead(404).end();
        const made = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, made) });
        made.onclose = () => {
          if (made.sessionId && sessions.delete(made.sessionId)) ended.push(made.sessionId);
        };
        const mcp = ((await import(fixture)) as { buildServer(): McpServer }).buildServer();
        mcp.server.registerCapabilities({ logging: {} }); // log messages need the capability announced
        mcp.registerTool('work', { description: 'Logs, reports progress, answers', inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
          await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', logger: 'work', data: `working on ${steps} steps` } });
          const token = extra._meta?.progressToken;
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: steps } });
          return { content: [{ type: 'text', text: `done ${steps}` }] };
        });
        mcp.registerTool('grow', { description: 'Adds a tool' }, async () => {
          mcp.registerTool('grown', { description: 'Added later' }, async () => ({ content: [] }));
          return { content: [{ type: 'text', text: 'grown' }] };
        });
        await mcp.connect(made);
        transport = made;
      }
      await transport.handleRequest(req, res);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, sessions, ended };
}

async function session(files: Record<string, unknown>, allowPrograms = false) {
  const { ws, data } = await openedWorkspace(files);
  const opened = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS, allowPrograms });
  closers.push(() => void opened.close());
  return opened;
}

function recorder() {
  const messages: StreamMessage[] = [];
  let end: ConnectionEnd | undefined;
  return {
    messages,
    get end() {
      return end;
    },
    onMessage: (m: StreamMessage) => void messages.push(m),
    onEnd: (e: ConnectionEnd) => void (end = e),
    events: () => messages.map((m) => `${m.direction} ${m.event}`),
    async until(check: () => boolean, what: string, ms = 5000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; messages: ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

describe('MCP live sessions (Session.connect)', () => {
  it('lists and calls tools, resources and prompts; a tool call’s log and progress and a list_changed arrive as received messages; close ends the server’s session', async () => {
    const peer = await statefulPeer();
    const s = await session({ 'requests/Tools.yaml': { name: 'Tools', kind: 'mcp', url: peer.url, headers: [{ key: 'X-Test', value: 'yes' }], settings: { timeoutMs: 10000 } } });
    const r = recorder();
    const opened = await s.connect('Tools', r);
    expect(peer.sessions.size).toBe(1);
    expect(opened.info.detail).toMatchObject({ transport: 'streamableHttp', server: { name: 'ferry-test-mcp', version: '1.2.3' }, instructions: 'A test server.' });

    const tools = (await s.callOperation(opened.id, 'listTools', {})) as { tools: Array<{ name: string }> };
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'work', 'grow']));
    expect(await s.callOperation(opened.id, 'callTool', { name: 'add', arguments: '{"a": 2, "b": 3}' })).toMatchObject({ structuredContent: { sum: 5 } });

    const worked = await s.callOperation(opened.id, 'callTool', { name: 'work', arguments: { steps: 4 } });
    expect(worked).toMatchObject({ content: [{ type: 'text', text: 'done 4' }] });
    const log = r.messages.find((m) => m.event === 'notifications/message');
    expect(log).toMatchObject({ direction: 'received' });
    expect(JSON.parse(log!.text)).toMatchObject({ level: 'info', logger: 'work', data: 'working on 4 steps' });
    const progress = r.messages.find((m) => m.event === 'notifications/progress');
    expect(JSON.parse(progress!.text)).toMatchObject({ progress: 1, total: 4 });
    // The log and the progress come before the call's result, in the order they were sent.
    const order = r.events();
    expect(order.indexOf('received notifications/message')).toBeLessThan(order.lastIndexOf('received callTool result'));

    await s.callOperation(opened.id, 'callTool', { name: 'grow' });
    await r.until(() => r.messages.some((m) => m.event === 'notifications/tools/list_changed'), 'the tools list_changed notification');

    const resources = (await s.callOperation(opened.id, 'listResources', {})) as { resources: Array<{ uri: string }> };
    expect(resources.resources.map((x) => x.uri)).toContain('ferry://docs/readme');
    expect(await s.callOperation(opened.id, 'readResource', { uri: 'ferry://users/7' })).toMatchObject({ contents: [{ text: 'user 7' }] });
    const prompts = (await s.callOperation(opened.id, 'listPrompts', {})) as { prompts: Array<{ name: string }> };
    expect(prompts.prompts.map((p) => p.name)).toEqual(['greet']);
    const prompt = await s.callOperation(opened.id, 'getPrompt', { name: 'greet', arguments: { name: 'Ada', tone: 'warm' } });
    expect(prompt).toMatchObject({ messages: [{ content: { text: 'Say hello to Ada in a warm tone' } }] });

    // Each operation went out as a sent message and came back as a received one.
    const sent = r.messages.filter((m) => m.direction === 'sent').map((m) => m.event);
    expect(sent).toEqual(['listTools', 'callTool', 'callTool', 'callTool', 'listResources', 'readResource', 'listPrompts', 'getPrompt']);
    expect(JSON.parse(r.messages.find((m) => m.direction === 'sent' && m.event === 'getPrompt')!.text)).toEqual({ name: 'greet', arguments: { name: 'Ada', tone: 'warm' } });
    expect(r.messages.filter((m) => m.direction === 'received' && m.event?.endsWith(' result'))).toHaveLength(8);

    await s.disconnect(opened.id);
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end!.by).toBe('client');
    // The client told the server the session is over (DELETE).
    await r.until(() => peer.ended.length === 1, 'the server-side session to end');
    expect(peer.sessions.size).toBe(0);
  });

  it('bad input: an unknown tool or prompt, arguments not an object, a missing name, an unknown operation; the session stays open', async () => {
    const peer = await statefulPeer();
    const s = await session({ 'requests/Tools.yaml': { name: 'Tools', kind: 'mcp', url: peer.url, settings: { timeoutMs: 10000 } } });
    const r = recorder();
    const opened = await s.connect('Tools', r);
    await expect(s.callOperation(opened.id, 'callTool', { name: 'nope', arguments: {} })).rejects.toThrow(/^the MCP server has no tool "nope"; it has: add, fail, whoami, slow, work, grow\.$/);
    await expect(s.callOperation(opened.id, 'getPrompt', { name: 'nope' })).rejects.toThrow('the MCP server has no prompt "nope"; it has: greet.');
    await expect(s.callOperation(opened.id, 'callTool', { name: 'add', arguments: [1, 2] })).rejects.toThrow('callTool\'s arguments must be a JSON object such as {"a": 1}, not an array.');
    await expect(s.callOperation(opened.id, 'callTool', { name: 'add', arguments: '42' })).rejects.toThrow(/arguments must be a JSON object such as \{"a": 1\}, not 42\./);
    await expect(s.callOperation(opened.id, 'callTool', { name: 'add', arguments: '{"a": ' })).rejects.toThrow(/^callTool's arguments are not valid JSON: .*; give a JSON object/);
    await expect(s.callOperation(opened.id, 'callTool', { arguments: {} })).rejects.toThrow('callTool needs name: the name of the tool as text.');
    await expect(s.callOperation(opened.id, 'callTool', { name: 42 })).rejects.toThrow('callTool needs name: the name of the tool as text.');
    await expect(s.callOperation(opened.id, 'readResource', {})).rejects.toThrow('readResource needs uri: the name of the resource (its URI) as text.');
    await expect(s.callOperation(opened.id, 'subscribe', { topic: 'x' })).rejects.toThrow(/has no operation "subscribe" \(it has: listTools, callTool, listResources, readResource, listPrompts, getPrompt\)/);
    await expect(s.sendMessage(opened.id, { format: 'text', text: 'hi' })).rejects.toThrow(/only receives/);
    // A hostile, huge name is refused by the server's list, in one line.
    const huge = 'x'.repeat(100_000);
    const error = (await s.callOperation(opened.id, 'callTool', { name: huge }).catch((e: Error) => e)) as Error;
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toMatch(/has no tool/);
    // Still open after the refusals.
    expect(await s.callOperation(opened.id, 'callTool', { name: 'add', arguments: { a: 1, b: 1 } })).toMatchObject({ structuredContent: { sum: 2 } });
    expect(r.end).toBeUndefined();
  });

  it('a program this computer does not allow is refused as send refuses it, and nothing is started', async () => {
    const s = await session({ 'requests/Local.yaml': { name: 'Local', kind: 'mcp', url: 'node test/fixtures/mcp/stdio-server.mjs' } });
    await expect(s.connect('Local', recorder())).rejects.toThrow(/^the program "node test\/fixtures\/mcp\/stdio-server\.mjs" .*is not allowed to start on this computer; run with --allow-programs/);
  });

  it('an allowed program: started with its env, called, and stopped when the session is closed', async () => {
    const script = path.resolve('test/fixtures/mcp/stdio-server.mjs');
    const command = `"${process.execPath}" ${script}`;
    // The started program, found by its command line and env (this worktree's path, this test's greeting).
    const running = () =>
      readdirSync('/proc').filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script) && readFileSync(`/proc/${pid}/environ`, 'utf8').includes('FERRY_TEST_GREETING=live');
        } catch {
          return false;
        }
      });
    const s = await session({ 'requests/Local.yaml': { name: 'Local', kind: 'mcp', url: command, mcp: { env: [{ key: 'FERRY_TEST_GREETING', value: 'live' }] }, settings: { timeoutMs: 10000 } } }, true);
    const r = recorder();
    const opened = await s.connect('Local', r);
    expect(opened.info.detail).toMatchObject({ transport: 'stdio', server: { name: 'ferry-test-mcp' } });
    const seen = (await s.callOperation(opened.id, 'callTool', { name: 'whoami' })) as { content: Array<{ text: string }> };
    expect(JSON.parse(seen.content[0]!.text)).toMatchObject({ greeting: 'live' });
    expect(running()).toHaveLength(1);
    await s.disconnect(opened.id);
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end!.by).toBe('client');
    await expect(s.callOperation(opened.id, 'listTools', {})).rejects.toThrow();
    await r.until(() => running().length === 0, 'the program to stop');
  });

  it('a program that exits during the session ends it saying how (it said only that the server ended the session)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ferry-mcp-live-'));
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'exits.mjs');
    writeFileSync(file, `
import { createInterface } from 'node:readline';
const INIT = { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'exits', version: '1' } };
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: INIT }) + '\\n');
  if (message.method === 'tools/call') process.exit(3);
});
`);
    const command = `"${process.execPath}" ${file}`;
    const s = await session({ 'requests/Local.yaml': { name: 'Local', kind: 'mcp', url: command, settings: { timeoutMs: 10000 } } }, true);
    const r = recorder();
    const opened = await s.connect('Local', r);
    await expect(s.callOperation(opened.id, 'callTool', { name: 'x' })).rejects.toThrow();
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end).toMatchObject({ by: 'peer', message: `the MCP server "${command}" ended the session: the program exited with code 3` });
  });

  it('auto: a server that speaks only the older HTTP+SSE is reached over it, as send does', async () => {
    const peer = await startSse();
    closers.push(() => peer.close());
    const s = await session({ 'requests/Old.yaml': { name: 'Old', kind: 'mcp', url: peer.url, settings: { timeoutMs: 10000 } } });
    const r = recorder();
    const opened = await s.connect('Old', r);
    expect(opened.info.detail).toMatchObject({ transport: 'sse' });
    expect(await s.callOperation(opened.id, 'callTool', { name: 'add', arguments: { a: 1, b: 2 } })).toMatchObject({ structuredContent: { sum: 3 } });
    await s.disconnect(opened.id);
  });

  it('a server that is not there fails connect with one line', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const s = await session({ 'requests/Down.yaml': { name: 'Down', kind: 'mcp', url: `http://127.0.0.1:${port}/mcp`, settings: { timeoutMs: 5000 } } });
    const error = (await s.connect('Down', recorder()).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/refused|not listening/i);
    expect(error.message.split('\n')).toHaveLength(1);
  });
});

describe('MCP live sessions: a server\'s output schema cannot stall the app', () => {
  it('a tool whose outputSchema has "pattern": "^(a+)+$" and a result of 30,000 a\'s and a b: the check answers at once, and the session goes on', async () => {
    // Ferry's own MCP mock, from the same workspace: it sends the result as written, unchecked.
    const hostile = `${'a'.repeat(30_000)}b`;
    const root = await makeWorkspace({
      servers: {
        tools: {
          name: 'Tools', kind: 'mcp',
          mcp: {
            tools: [
              { name: 'echo', outputSchema: JSON.stringify({ type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } }), result: JSON.stringify({ q: hostile }) },
              { name: 'fine', outputSchema: JSON.stringify({ type: 'object', properties: { q: { type: 'string', pattern: '^(?=a)(a+)$' } } }), result: '{"q":"aaa"}' },
            ],
          },
        },
      },
    });
    const handle = await serve(root);
    const s = await session({ 'requests/Tools.yaml': { name: 'Tools', kind: 'mcp', url: `${handle.servers[0]!.url}/mcp`, settings: { timeoutMs: 10000 } } });
    const opened = await s.connect('Tools', recorder());
    await s.callOperation(opened.id, 'listTools', {}); // the client keeps each tool's output schema
    await expect(s.callOperation(opened.id, 'callTool', { name: 'echo' })).rejects.toThrow(/does not match the tool's output schema|must match pattern/);
    // A lookahead still checks as JavaScript reads it; the session answers.
    expect(await s.callOperation(opened.id, 'callTool', { name: 'fine' })).toMatchObject({ structuredContent: { q: 'aaa' } });
    await s.disconnect(opened.id);
  }, 30_000);
});
