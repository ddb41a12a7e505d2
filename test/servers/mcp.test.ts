/** The MCP server against the SDK client (Streamable HTTP and HTTP+SSE) and the MCP Inspector CLI. */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type JSONRPCMessage, PromptListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_LIMITS, MCP_TIMINGS } from '../../src/servers/kinds/mcp/mcp.js';
import { eventually, makeWorkspace, rawHead, send, serve, writeServer } from './helpers.js';
import { runTool } from './kinds/tools.js';
import { isolatedDataDir } from '../support/temp.js';

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length) await clients.pop()!.close().catch(() => {});
});

const MCP = {
  serverName: 'Weather mock',
  version: '2.1.0',
  instructions: 'Ask about the weather.',
  tools: [
    {
      name: 'get_weather', title: 'Weather', description: 'Weather for a city',
      inputSchema: '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}',
      outputSchema: '{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"number"}}}',
      result: '{"city":"{{args.city}}","temp":21}',
    },
    { name: 'echo_all', result: 'args={{args}} in {{stage}}' },
    { name: 'broken', result: 'it failed', isError: true },
    { name: 'slow', result: 'done', delayMs: 150 },
    { name: 'hidden', result: 'x', enabled: false },
  ],
  resources: [
    { uri: 'file:///readme.txt', name: 'Readme', mimeType: 'text/plain', text: 'Hello from {{stage}}' },
    { uri: 'notes://{folder}/{id}', name: 'Note', text: 'note {{params.id}} in {{params.folder}}' },
  ],
  prompts: [
    {
      name: 'review', description: 'Review code',
      arguments: [{ name: 'language', required: true }, { name: 'style' }],
      messages: [{ role: 'user', text: 'Review this {{args.language}} code ({{args.style}}).' }, { role: 'assistant', text: 'Sure.' }],
    },
  ],
};

async function mcpServer(mcp: Record<string, unknown> = MCP) {
  const root = await makeWorkspace({ variables: [{ key: 'stage', value: 'dev' }], servers: { tools: { name: 'Tools', kind: 'mcp', mcp } } });
  const handle = await serve(root);
  return { handle, server: handle.servers[0], failures: handle.failures };
}

async function connectClient(url: string, transport: 'streamable' | 'sse'): Promise<Client> {
  const client = new Client({ name: 'ferry-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport === 'streamable' ? new StreamableHTTPClientTransport(new URL(`${url}/mcp`)) : new SSEClientTransport(new URL(`${url}/sse`)));
  return client;
}

describe('MCP server', () => {
  for (const transport of ['streamable', 'sse'] as const) {
    it(`without serverName and version, clients see the server's name and 1.0.0, no instructions, at /mcp and /sse (${transport})`, async () => {
      const { server } = await mcpServer({ tools: [{ name: 'only', result: 'x' }] });
      const client = await connectClient(server!.url, transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'Tools', version: '1.0.0' });
      expect(client.getInstructions() ?? '').toBe('');
    });

    it(`serves tools, resources and prompts (${transport})`, async () => {
      const { server } = await mcpServer();
      const client = await connectClient(server!.url, transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'Weather mock', version: '2.1.0' });
      expect(client.getInstructions()).toBe('Ask about the weather.');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['get_weather', 'echo_all', 'broken', 'slow']);
      expect(tools[0]!.inputSchema).toMatchObject({ required: ['city'] });
      const weather = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
      expect(weather.structuredContent).toEqual({ city: 'Oslo', temp: 21 });
      // {{args.city}} goes in as sent: a quote breaks the JSON, and the client is told so.
      const quoted = await client.callTool({ name: 'get_weather', arguments: { city: 'a"b' } });
      expect(quoted).toMatchObject({ isError: true, content: [{ text: 'Tool get_weather has an outputSchema, but its result is not a JSON object: {"city":"a"b","temp":21}' }] });
      expect(await client.callTool({ name: 'echo_all', arguments: { a: 1 } })).toMatchObject({ content: [{ type: 'text', text: 'args={"a":1} in dev' }] });
      expect(await client.callTool({ name: 'broken', arguments: {} })).toMatchObject({ isError: true, content: [{ text: 'it failed' }] });
      const invalid = await client.callTool({ name: 'get_weather', arguments: { town: 'x' } });
      expect(invalid.isError).toBe(true);
      expect(JSON.stringify(invalid.content)).toMatch(/Invalid arguments for tool get_weather: .*city/);
      const started = performance.now();
      await client.callTool({ name: 'slow', arguments: {} });
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      await expect(client.callTool({ name: 'hidden', arguments: {} })).rejects.toThrow(/Tool hidden not found/);

      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['file:///readme.txt']);
      expect((await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate)).toEqual(['notes://{folder}/{id}']);
      expect((await client.readResource({ uri: 'file:///readme.txt' })).contents).toEqual([{ uri: 'file:///readme.txt', mimeType: 'text/plain', text: 'Hello from dev' }]);
      expect((await client.readResource({ uri: 'notes://work/42' })).contents[0]).toMatchObject({ text: 'note 42 in work' });
      await expect(client.readResource({ uri: 'notes://a/b/c' })).rejects.toThrow(/not found/);

      const prompt = await client.getPrompt({ name: 'review', arguments: { language: 'Go' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Review this Go code ().' } }, { role: 'assistant', content: { type: 'text', text: 'Sure.' } }]);
      await expect(client.getPrompt({ name: 'review', arguments: {} })).rejects.toThrow(/needs the argument language/);
    });
  }

  it('refuses at load two enabled tools or prompts of one name (the first was hidden, the last answered), naming both', async () => {
    const tool = (result: string, enabled = true) => ({ name: 'get_weather', result, enabled });
    const { failures } = await mcpServer({ tools: [tool('one'), tool('two')] });
    expect(failures[0]?.message).toBe('servers/tools.yaml:8:7: mcp.tools[1] (get_weather): tools[0] has this name too; give each tool a name of its own (or set enabled: false on one).');
    const prompt = { name: 'review', messages: [{ role: 'user', text: 'x' }] };
    const { failures: prompts } = await mcpServer({ prompts: [prompt, { ...prompt, name: 'other' }, prompt] });
    expect(prompts[0]?.message).toBe('servers/tools.yaml:12:7: mcp.prompts[2] (review): prompts[0] has this name too; give each prompt a name of its own (or set enabled: false on one).');
    // A disabled one is no second tool.
    const { failures: none, server } = await mcpServer({ tools: [tool('one', false), tool('two')] });
    expect(none).toEqual([]);
    const client = await connectClient(server!.url.replace(/\/mcp$/, ''), 'streamable');
    expect(await client.callTool({ name: 'get_weather', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'two' }] });
  });

  it('refuses at load a resource URI that repeats a {part} (a/{x}/{x}): one name cannot hold two values, naming the part', async () => {
    const { failures } = await mcpServer({ resources: [{ uri: 'file:///ok.txt', text: 'ok' }, { uri: 'notes://{x}/{y}/{x}', name: 'Twice', text: '{{params.x}}' }] });
    expect(failures[0]?.message).toBe('servers/tools.yaml:7:12: mcp.resources[1]: uri "notes://{x}/{y}/{x}" has the part {x} twice; give each part a name of its own, such as {x} and {x2}.');
    // Two parts of different names still load and match.
    const { failures: none, server } = await mcpServer({ resources: [{ uri: 'notes://{x}/{x2}', text: '{{params.x}}-{{params.x2}}' }] });
    expect(none).toEqual([]);
    const client = await connectClient(server!.url.replace(/\/mcp$/, ''), 'streamable');
    expect((await client.readResource({ uri: 'notes://a/b' })).contents[0]).toMatchObject({ text: 'a-b' });
  });

  it('refuses at load a path clients cannot reach: without a leading /, or the legacy transport\'s /sse or /messages', async () => {
    const { failures } = await mcpServer({ ...MCP, path: 'mcp' });
    expect(failures[0]?.message).toBe('servers/tools.yaml:45:9: mcp.path: "mcp" does not start with /; write it as a URL path, such as /mcp.');
    for (const taken of ['/sse', '/messages']) {
      const { failures: clash } = await mcpServer({ ...MCP, path: taken });
      expect(clash[0]?.message).toBe(`servers/tools.yaml:45:9: mcp.path: ${taken} is where the older HTTP+SSE transport is served (GET /sse, POST /messages); choose another path, such as /mcp.`);
    }
    const { failures: none, server } = await mcpServer({ ...MCP, path: '/v1/mcp' });
    expect(none).toEqual([]);
    expect(server!.clientUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/mcp$/);
  });

  it('lists tools for the MCP Inspector CLI', async () => {
    const { server } = await mcpServer();
    const inspector = path.resolve('node_modules/.bin/mcp-inspector');
    const { stdout, stderr } = await runTool(inspector, ['--cli', `${server!.url}/mcp`, '--transport', 'http', '--method', 'tools/list'], '', 30_000);
    expect(stderr + stdout).toContain('get_weather');
    expect(JSON.parse(stdout.toString()).tools.map((t: { name: string }) => t.name)).toContain('echo_all');
  }, 40_000);

  it('records calls in the traffic log, refuses bad schemas at load, and answers CORS preflights when asked', async () => {
    const { server, handle } = await mcpServer({ ...MCP, cors: true });
    const client = await connectClient(server!.url, 'streamable');
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(handle.traffic.recent().map((r) => r.summary)).toContain('tools/call get_weather → ok');
    const preflight = await send(`${server!.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://app.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    // Ferry's own headers with names as written, as the HTTP mock writes its CORS headers (not `access-control-allow-origin`).
    const head = await rawHead(server!.url, '/mcp', { method: 'OPTIONS', headers: { Origin: 'http://app.example', 'Access-Control-Request-Method': 'POST' } });
    expect(head.filter((line) => /^access-control-/i.test(line)).map((line) => line.split(':')[0])).toEqual([
      'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Headers', 'Access-Control-Max-Age',
    ]);
    const notJson = await rawHead(server!.url, '/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{not json' });
    expect(notJson[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(notJson).toContain('Content-Type: application/json');
    const bad = await mcpServer({ tools: [{ name: 't', inputSchema: '{"type":"object",' }] });
    expect(bad.failures[0]!.message).toMatch(/servers\/tools\.yaml:6:20: mcp\.tools\[0\] \(t\): inputSchema is not JSON/);
    const wrong = await mcpServer({ tools: [{ name: 't', inputSchema: '{"type":"object","properties":{"a":{"type":"nope"}}}' }] });
    expect(wrong.failures[0]!.message).toMatch(/inputSchema is not a JSON Schema Ferry can check arguments with/);
  });
  for (const transport of ['streamable', 'sse'] as const) {
    it(`gives a call's record the bytes of its JSON-RPC request and answer (${transport})`, async () => {
      const { server, handle } = await mcpServer();
      const client = new Client({ name: 'ferry-test', version: '1.0.0' });
      clients.push(client);
      const wire = transport === 'streamable' ? new StreamableHTTPClientTransport(new URL(`${server!.url}/mcp`)) : new SSEClientTransport(new URL(`${server!.url}/sse`));
      await client.connect(wire);
      // What the client sends and receives, as messages: both transports have these two.
      const seen = wire as unknown as { send(message: JSONRPCMessage, options?: unknown): Promise<void>; onmessage: (message: JSONRPCMessage) => void };
      const sent: unknown[] = [];
      const received: unknown[] = [];
      const send = seen.send.bind(wire);
      seen.send = (message, options) => (sent.push(message), send(message, options));
      const onmessage = seen.onmessage;
      seen.onmessage = (message) => (received.push(message), onmessage(message));
      await client.callTool({ name: 'get_weather', arguments: { city: 'Zürich' } });
      const bytes = (messages: unknown[]) => Buffer.byteLength(JSON.stringify(messages.find((m) => (m as { id?: unknown }).id !== undefined)));
      const record = handle.traffic.recent().find((r) => r.summary === 'tools/call get_weather → ok')!;
      expect(record.bytesIn).toBe(bytes(sent));
      expect(record.bytesOut).toBe(bytes(received));
      expect(record.bytesOut).toBeGreaterThan(record.bytesIn);
    });
  }
  it('closes a Streamable HTTP session its client left without ending it, not one whose client still listens', async () => {
    const saved = MCP_TIMINGS.sessionIdleMs;
    // Long enough that three connects and calls on a loaded machine all finish inside it.
    MCP_TIMINGS.sessionIdleMs = 1500;
    try {
      const { server } = await mcpServer();
      const staying = await connectClient(server!.url, 'streamable');
      // The SDK client's close() aborts its requests and its GET stream; it does not DELETE the session.
      for (let i = 0; i < 3; i++) {
        const leaving = await connectClient(server!.url, 'streamable');
        await leaving.callTool({ name: 'echo_all', arguments: {} });
        await leaving.close();
      }
      expect(server!.openStreams()).toBe(4);
      await eventually(async () => server!.openStreams() === 1, 10_000);
      // The client that stayed (its GET stream open) keeps its session past the idle time.
      await new Promise((r) => setTimeout(r, 2000));
      expect(server!.openStreams()).toBe(1);
      expect(await staying.callTool({ name: 'echo_all', arguments: { a: 1 } })).toMatchObject({ content: [{ text: 'args={"a":1} in dev' }] });
    } finally {
      MCP_TIMINGS.sessionIdleMs = saved;
    }
  });
  it('keeps a bounded number of Streamable HTTP sessions: a new one closes the least recently used whose client does not listen', async () => {
    const saved = MCP_LIMITS.sessions;
    MCP_LIMITS.sessions = 3;
    try {
      const { server } = await mcpServer();
      const staying = await connectClient(server!.url, 'streamable');
      // Clients that leave without DELETE: without a bound, each left an SDK server behind for 30 minutes.
      for (let i = 0; i < 5; i++) {
        const leaving = await connectClient(server!.url, 'streamable');
        await leaving.callTool({ name: 'echo_all', arguments: {} });
        await leaving.close();
      }
      expect(server!.openStreams()).toBe(3);
      // The client still listening kept its session; a new one still connects.
      expect(await staying.callTool({ name: 'echo_all', arguments: { a: 1 } })).toMatchObject({ content: [{ text: 'args={"a":1} in dev' }] });
      const fresh = await connectClient(server!.url, 'streamable');
      expect(await fresh.callTool({ name: 'echo_all', arguments: {} })).toMatchObject({ content: [{ text: 'args={} in dev' }] });
      expect(server!.openStreams()).toBe(3);
    } finally {
      MCP_LIMITS.sessions = saved;
    }
  });
  for (const transport of ['streamable', 'sse'] as const) {
    it(`tells open sessions when an edit changes the tools or prompts, so clients list them again (${transport})`, async () => {
      const root = await makeWorkspace({ servers: { tools: { name: 'Tools', kind: 'mcp', mcp: { tools: [{ name: 'first', result: '1' }] } } } });
      const handle = await serve(root);
      const client = await connectClient(handle.servers[0]!.url, transport);
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      const toolsChanged: unknown[] = [];
      const promptsChanged: unknown[] = [];
      client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void toolsChanged.push(n));
      client.setNotificationHandler(PromptListChangedNotificationSchema, (n) => void promptsChanged.push(n));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first']);
      // The standalone GET stream opens after initialize; give it a moment before the edit.
      await new Promise((r) => setTimeout(r, 200));
      await writeServer(root, 'tools', { name: 'Tools', kind: 'mcp', mcp: { tools: [{ name: 'first', result: '1' }, { name: 'second', result: '2' }] } });
      await eventually(async () => toolsChanged.length === 1);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first', 'second']);
      // An edit that leaves the tools as they were says nothing of them.
      await writeServer(root, 'tools', { name: 'Tools', kind: 'mcp', mcp: { instructions: 'x', tools: [{ name: 'first', result: '1' }, { name: 'second', result: '2' }], prompts: [{ name: 'p', messages: [{ role: 'user', text: 'hi' }] }] } });
      await eventually(async () => promptsChanged.length === 1);
      expect(toolsChanged).toHaveLength(1);
    });
  }
  it('answers a legacy HTTP+SSE POST it cannot take (not JSON, over 4 MB) once, and nothing of its body is run afterwards (raw fetch, then the SDK client)', async () => {
    const { server, handle } = await mcpServer();
    const stop = new AbortController();
    const stream = await fetch(`${server!.url}/sse`, { signal: stop.signal });
    const reader = stream.body!.getReader();
    let events = '';
    const read = async () => {
      for (let i = 0; i < 20; i++) {
        const { value, done } = await reader.read();
        if (done) return;
        events += new TextDecoder().decode(value);
      }
    };
    void read().catch(() => {});
    await eventually(async () => /data: (\/messages\S+)/.test(events));
    const endpoint = `${server!.url}${/data: (\/messages\S+)/.exec(events)![1]}`;
    try {
      const notJson = await fetch(endpoint, { method: 'POST', body: '{bad', headers: { 'content-type': 'application/json' } });
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
      // Over 4 MB: refused with 413 as the last byte of the limit passes; what follows is a whole
      // JSON-RPC call, which the SDK's own handler read and ran when it was called after the 413.
      const call = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'echo_all', arguments: {} } }));
      const padding = Buffer.alloc(4 * 1024 * 1024 + 1, 0x20);
      const raw = net.connect(server!.port, '127.0.0.1');
      raw.on('error', () => {});
      let answer = '';
      raw.on('data', (c: Buffer) => (answer += c.toString('latin1')));
      await new Promise((r) => raw.once('connect', r));
      const target = new URL(endpoint);
      raw.write(`POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${padding.length + call.length}\r\n\r\n`);
      raw.write(padding);
      await eventually(async () => answer.startsWith('HTTP/1.1 413'));
      raw.write(call);
      await new Promise((r) => setTimeout(r, 500));
      raw.destroy();
      expect(handle.traffic.recent().map((r) => r.summary)).not.toContain('tools/call echo_all → ok');
      expect(events).not.toContain('"id":77');
      // The session still takes good messages, and the SDK client's own session works.
      const ping = await fetch(endpoint, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }), headers: { 'content-type': 'application/json' } });
      expect(ping.status).toBe(202);
      await eventually(async () => events.includes('"id":5'));
      const client = await connectClient(server!.url, 'sse');
      expect(await client.callTool({ name: 'echo_all', arguments: { a: 1 } })).toMatchObject({ content: [{ text: 'args={"a":1} in dev' }] });
    } finally {
      stop.abort();
    }
  });
});

describe('MCP server: a legacy HTTP+SSE client that does not read its stream', () => {
  it('is closed once its unsent answers pass the bound; its POSTs then get 404 and other clients are answered', async () => {
    const { server, handle } = await mcpServer();
    const raw = net.connect(server!.port, '127.0.0.1');
    raw.on('error', () => {});
    let head = '';
    const onData = (c: Buffer) => (head += c.toString('latin1'));
    raw.on('data', onData);
    raw.write('GET /sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
    await eventually(async () => /data: (\/messages\S+)/.test(head));
    // From here on it reads nothing.
    raw.off('data', onData);
    raw.pause();
    const endpoint = `${server!.url}${/data: (\/messages\S+)/.exec(head)![1]}`;
    const big = 'x'.repeat(1024 * 1024);
    const statuses: number[] = [];
    try {
      // Each call's answer echoes 1 MB into the stream nobody reads: 64 MB in all without a bound.
      for (let id = 1; id <= 64 && !statuses.includes(404); id++) {
        const post = await fetch(endpoint, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo_all', arguments: { big } } }), headers: { 'content-type': 'application/json' } });
        statuses.push(post.status);
        await post.arrayBuffer();
      }
      expect(statuses).toContain(404);
      expect(statuses.filter((s) => s === 202).length).toBeLessThan(40);
      expect(handle.traffic.recent().map((r) => r.summary)).toContain('GET /sse closed: more than 8 MB of answers waited unsent: the client does not read its event stream');
      const client = await connectClient(server!.url, 'sse');
      expect(await client.callTool({ name: 'echo_all', arguments: { a: 1 } })).toMatchObject({ content: [{ text: 'args={"a":1} in dev' }] });
    } finally {
      raw.destroy();
    }
  });
});

describe('MCP server: a legacy HTTP+SSE client that reads its stream', () => {
  it('gets a 9 MB answer (a result may render to 32 MB, spec 8.1): the bound judges what waited before it, and the stream was closed, the client blamed for not reading', async () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    const root = await makeWorkspace({ variables: [{ key: 'big', value: big }], servers: { tools: { name: 'Tools', kind: 'mcp', mcp: { tools: [{ name: 'big', result: '{{big}}' }] } } } });
    const handle = await serve(root);
    const client = await connectClient(handle.servers[0]!.url, 'sse');
    const first = await client.callTool({ name: 'big', arguments: {} });
    expect((first.content as Array<{ text: string }>)[0]!.text).toBe(big);
    const second = await client.callTool({ name: 'big', arguments: {} });
    expect((second.content as Array<{ text: string }>)[0]!.text.length).toBe(big.length);
    expect(handle.traffic.recent().map((r) => r.summary)).toEqual(['tools/call big → ok', 'tools/call big → ok']);
  });
});

describe('MCP server: names and URIs a client sends, in the traffic log', () => {
  it('are cut short and have control characters escaped: a 100 KB URI or an escape sequence does not reach the terminal as sent', async () => {
    const { server, handle } = await mcpServer();
    const client = await connectClient(server!.url, 'streamable');
    await client.readResource({ uri: `file:///${'a'.repeat(100_000)}` }).catch(() => {});
    await client.callTool({ name: 'x\u001b[2J\nfake line', arguments: {} }).catch(() => {});
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    await eventually(async () => handle.traffic.recent().length >= 3);
    const summaries = handle.traffic.recent().map((r) => r.summary);
    expect(summaries.at(-3)).toBe(`resources/read "file:///${'a'.repeat(112)}…" → error`);
    expect(summaries.at(-2)).toBe('tools/call "x\\u001b[2J\\nfake line" → error');
    expect(summaries.at(-1)).toBe('tools/call get_weather → ok');
  });
});

describe('MCP server: a pattern in a tool schema cannot stall `ferry serve`', () => {
  it('bin/ferry.js serve answers a hostile argument within the bound, lookahead and backreferences still check as before, and the next call is answered', async () => {
    const data = await isolatedDataDir();
    const schema = (pattern: string) => JSON.stringify({ type: 'object', properties: { q: { type: 'string', pattern } }, required: ['q'] });
    const root = await makeWorkspace({
      servers: {
        tools: {
          name: 'Tools', kind: 'mcp',
          mcp: {
            tools: [
              { name: 'nested', inputSchema: schema('^(a+)+$'), result: 'nested {{args.q}}' },
              { name: 'lookahead', inputSchema: schema('^(?=.*\\d)\\w{4,}$'), result: 'code {{args.q}}' },
              { name: 'twice', inputSchema: schema('^(\\w+)-\\1$'), result: 'twice {{args.q}}' },
              { name: 'backtracking', inputSchema: schema('^(a+)+\\1$'), result: 'never' },
              { name: 'keys', inputSchema: JSON.stringify({ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } }), result: 'keys ok' },
            ],
            // Parts side by side: as a backtracking regex, every split of a long part is tried.
            resources: [{ uri: 'glued://{a}{b}{c}{d}', name: 'Glued', text: '{{params.a}}|{{params.b}}|{{params.c}}|{{params.d}}' }],
          },
        },
      },
    });
    const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js'), 'serve', '-w', root], {
      env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    try {
      await eventually(async () => /http:\/\/127\.0\.0\.1:\d+/.test(stdout), 20_000);
      const client = await connectClient(/http:\/\/127\.0\.0\.1:\d+/.exec(stdout)![0], 'streamable');
      const hostile = `${'a'.repeat(30_000)}b`;
      const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
      const timed = async (name: string, args: Record<string, unknown>) => {
        const started = Date.now();
        const result = await client.callTool({ name, arguments: args });
        return { result, ms: Date.now() - started };
      };
      // (a+)+$ runs in linear time: the mismatch is said at once.
      let call = await timed('nested', { q: hostile });
      expect(call.ms).toBeLessThan(10_000);
      expect(call.result).toMatchObject({ isError: true });
      expect(text(call.result)).toContain('Invalid arguments for tool nested: data/q must match pattern "^(a+)+$"');
      expect(text((await timed('nested', { q: 'aaa' })).result)).toBe('nested aaa');
      // Keys too (patternProperties): the hostile key matches no pattern, a key of a's does.
      call = await timed('keys', { [hostile]: 'not a number' });
      expect(call.ms).toBeLessThan(10_000);
      expect(text(call.result)).toBe('keys ok');
      expect(text((await timed('keys', { aaa: 'not a number' })).result)).toContain('data/aaa must be number');
      // Lookahead and backreferences: as JavaScript reads them.
      expect(text((await timed('lookahead', { q: 'abc1' })).result)).toBe('code abc1');
      expect(text((await timed('lookahead', { q: 'abcd' })).result)).toContain('must match pattern');
      expect(text((await timed('twice', { q: 'ab-ab' })).result)).toBe('twice ab-ab');
      expect(text((await timed('twice', { q: 'ab-cd' })).result)).toContain('must match pattern');
      // A pattern only a backtracking engine runs: stopped at its limit, a tool error naming the file and tool.
      call = await timed('backtracking', { q: hostile });
      expect(call.ms).toBeLessThan(10_000);
      expect(call.result).toMatchObject({ isError: true });
      expect(text(call.result)).toBe('Invalid arguments for tool backtracking: servers/tools.yaml: mcp.tools[3] (backtracking): a pattern of the inputSchema could not be checked: the regular expression took longer than 1 s on a text of 30001 characters and was stopped (it backtracks: nested quantifiers such as (a+)+ with a backreference or lookaround); simplify it.');
      // A resource URI against a template of glued parts: linear time too.
      const started = Date.now();
      await expect(client.readResource({ uri: `glued://${'a'.repeat(2000)}/` })).rejects.toThrow(/not found/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await client.readResource({ uri: 'glued://wxyz' })).contents[0]).toMatchObject({ text: 'w|x|y|z' });
      expect((await client.readResource({ uri: 'glued://abcdef' })).contents[0]).toMatchObject({ text: 'abc|d|e|f' }); // as V8 split it: the first part greedy
      // The server goes on.
      expect(text((await timed('nested', { q: 'a' })).result)).toBe('nested a');
      expect(stderr).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('MCP server: a resource URI it does not have', () => {
  // MCP's spec asked for -32002 up to 2025-11-25; SEP-2164 (final) standardized -32602 (Invalid Params),
  // the code the SDK's own McpServer has always answered. Ferry's answers as the SDK's does, seen by the SDK client.
  async function sdkServer(): Promise<{ url: string; close(): Promise<void> }> {
    const http = await import('node:http');
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const server = http.createServer((req, res) => {
      const mcp = new McpServer({ name: 'sdk', version: '1.0.0' });
      mcp.registerResource('Readme', 'file:///readme.txt', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      void mcp.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    return { url: `http://127.0.0.1:${port}`, close: () =>
        new Promise((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections(); // the client's GET stream would hold it open
        }),
    };
  }

  const readError = async (client: Client, uri: string) => client.readResource({ uri }).then(() => undefined, (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }));

  it('is answered -32602 (Invalid Params) naming the URI, the code the SDK\'s own server answers', async () => {
    const sdk = await sdkServer();
    try {
      const theirs = await readError(await connectClient(sdk.url, 'streamable'), 'file:///missing.txt');
      const { server } = await mcpServer();
      const ours = await readError(await connectClient(server!.url, 'streamable'), 'file:///missing.txt');
      expect(theirs?.code).toBe(-32602);
      expect(theirs?.message).toMatch(/Resource file:\/\/\/missing\.txt not found$/);
      expect(ours).toEqual(theirs);
    } finally {
      await sdk.close();
    }
  });
});
