/**
 * The real processes the port-holder tests start (test/cli/serve-port-held, test/agent/mcp-port-held):
 * a workspace with one mock server on a given port, a `ferry serve` once it listens, a `ferry mcp`
 * driven by the MCP SDK's stdio client, and the words any command says of a port a ferry serve holds.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { ferry, ferryProcess, type FerryProcess } from './cli.js';
import { tempDir } from './temp.js';

const bin = new URL('../../bin/ferry.js', import.meta.url).pathname;

/** Polls every 10 ms (at most 30 s) until `check` holds. */
export async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A new workspace `name` whose servers/api.yaml is a mock on `port` (`more`: lines added to the file). */
export async function workspaceWithMock(name: string, port: number, more = ''): Promise<string> {
  const ws = path.join(await tempDir(), name);
  expect((await ferry(['init', ws])).code).toBe(0);
  await fs.mkdir(path.join(ws, 'servers'), { recursive: true });
  await fs.writeFile(path.join(ws, 'servers', 'api.yaml'), `name: API\nkind: http\nport: ${port}\n${more}http:\n  routes:\n    - method: GET\n      path: /ping\n      body: pong\n`);
  return ws;
}

/** What any command says of a port that the `ferry serve` `pid` holds for `servers/api.yaml` of `workspace`. */
export function heldByServe(port: number, pid: number, workspace: string, file = 'servers/api.yaml'): string {
  return `${file}: port ${port} is already in use by another ferry serve (process ${pid}, serving servers/api.yaml of the workspace ${workspace}). Stop that one (Ctrl-C where it runs, or kill ${pid}), or set another port in ${file} (0 = any free port).`;
}

/** A `ferry serve` of `ws` (data folder `data`) once it listens on `port`. */
export async function serving(ws: string, data: string, port: number): Promise<FerryProcess> {
  const holder = ferryProcess(['-w', ws, 'serve'], { FERRY_DATA_DIR: data });
  await until(() => holder.output.stdout.includes(`http://127.0.0.1:${port}`), 'the serve to listen');
  return holder;
}

/** Stops a `ferry serve` as Ctrl-C does; it ends with 0. */
export async function stopped(holder: FerryProcess): Promise<void> {
  holder.child.kill('SIGINT');
  expect(await holder.done).toBe(0);
}

/** A `ferry mcp` of `ws` (data folder `data`) with an agent connected: its process id, a tool call (error or not, and its text), and the agent's leaving. */
export async function mcpAgent(ws: string, data: string): Promise<{ pid: number; call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }>; close(): Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '-w', ws], env: { ...getDefaultEnvironment(), FERRY_DATA_DIR: data }, stderr: 'pipe' });
  const agent = new Client({ name: 'ferry-test', version: '1.0.0' });
  await agent.connect(transport);
  return {
    pid: transport.pid!,
    call: async (name, args) => {
      const result = await agent.callTool({ name, arguments: args }, undefined, { timeout: 30_000 });
      return { isError: result.isError === true, text: (result.content as Array<{ text: string }>).map((c) => c.text).join('\n') };
    },
    close: () => agent.close(),
  };
}
