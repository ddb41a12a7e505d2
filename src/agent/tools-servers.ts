/**
 * Tools over the workspace's local servers (mock API, SSE, WebSocket…): list them, start and stop
 * them through `startWorkspaceServers` (as `ferry serve` and the app do), and read their traffic.
 * Servers started here stop when `ferry mcp` ends.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { hasServer, plainRecord, startWorkspaceServers, unknownServerMessage, type WorkspaceServers } from '../servers/index.js';
import { SERVERS_DIR } from '../workspace/index.js';
import { answer } from './answer.js';
import { AgentError } from './errors.js';
import { cutText, LIMITS } from './limits.js';
import type { AgentState } from './state.js';
import { variableArgs } from './tools-requests.js';

const serverId = z.string().min(1).describe('The server id: its file name under servers/ without .yaml, as list_servers shows it.');

/** Every string in a traffic record's detail cut to a readable size (bodies can be megabytes). */
function bounded(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutText(value, LIMITS.messageChars).text;
  if (value === null || typeof value !== 'object' || depth > 16) return value;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => bounded(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v, depth + 1)]));
}

/** A warning about a server file, or about servers/ itself (a pipe, a file or a link in its place: then no server is listed). */
function aboutServers(warning: { file: string }): boolean {
  return warning.file === SERVERS_DIR || warning.file.startsWith(`${SERVERS_DIR}/`);
}

export function registerServerTools(server: McpServer, state: AgentState): void {
  server.registerTool(
    'list_servers',
    {
      title: 'List servers',
      description: "The workspace's local servers (servers/*.yaml): id, name, kind, port, autoStart, and whether this Ferry is running them (with the URL).",
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      answer(state, async ({ ws }) => ({
        servers: ws.servers.map((s) => {
          const running = state.servers.get(s.id)?.servers.find((r) => r.id === s.id);
          return { id: s.id, name: s.value.name, kind: s.value.kind, port: s.value.port, autoStart: s.value.autoStart === true, running: running !== undefined, ...(running ? { url: running.clientUrl } : {}) };
        }),
        ...(ws.warnings.some(aboutServers) ? { warnings: ws.warnings.filter(aboutServers) } : {}),
      })),
  );

  server.registerTool(
    'start_server',
    {
      title: 'Start a server',
      description: 'Starts one local server of the workspace on its port (127.0.0.1 unless its file says otherwise) until stop_server or the end of this Ferry. Its templates use the environment and variables given.',
      inputSchema: { id: serverId, ...variableArgs },
      // Opens a port and runs until stopped: a change the user may want to approve.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      answer(state, async ({ ws }) => {
        const id = args.id.replace(/^servers\//, '').replace(/\.ya?ml$/i, '');
        const running = state.servers.get(id);
        if (running) throw new AgentError(`The server ${id} is already running at ${running.servers[0]?.clientUrl}; stop it with stop_server first.`);
        // Agents call tools in parallel: the id is taken before the first wait, so a second call cannot start a copy.
        if (state.starting.has(id)) throw new AgentError(`The server ${id} is already starting (another start_server call); list_servers shows its URL once it runs.`);
        state.starting.add(id);
        let handle: WorkspaceServers;
        try {
          handle = await startWorkspaceServers(ws, {
            ids: [id], env: args.environment, vars: args.variables, traffic: state.traffic, watch: true,
          });
        } finally {
          state.starting.delete(id);
        }
        if (state.closed) {
          await handle.stop();
          throw new AgentError(`ferry mcp is ending; the server ${id} was not kept running.`);
        }
        const started = handle.servers[0];
        if (!started) {
          await handle.stop();
          throw new AgentError(handle.failures.map((f) => f.message).join('\n') || `The server ${id} did not start.`);
        }
        state.servers.set(id, handle);
        return {
          id: started.id, name: started.name, kind: started.kind, url: started.clientUrl, port: started.port,
          ...(handle.environment ? { environment: handle.environment } : {}),
          // What ferry serve prints on starting it: exposure beyond this computer, misspelt fields.
          ...(handle.exposed.length + handle.unknownFields.length ? { warnings: [...handle.exposed, ...handle.unknownFields].map((n) => n.message) } : {}),
        };
      }),
  );

  server.registerTool(
    'stop_server',
    {
      title: 'Stop a server',
      description: 'Stops a server started with start_server; resolves when its port is free.',
      inputSchema: { id: serverId },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      answer(state, async () => {
        const id = args.id.replace(/^servers\//, '').replace(/\.ya?ml$/i, '');
        const handle = state.servers.get(id);
        if (!handle) {
          const running = [...state.servers.keys()];
          throw new AgentError(`The server ${id} is not running here. ${running.length ? `Running: ${running.join(', ')}.` : 'No server is running; start one with start_server.'}`);
        }
        state.servers.delete(id);
        await handle.stop();
        return { id, stopped: true };
      }),
  );

  server.registerTool(
    'server_traffic',
    {
      title: 'Server traffic',
      description: 'What the servers started here received and answered, newest last: one record per request or message with a summary line, sizes and detail (headers, bodies cut). Secret values are shown as ***.',
      inputSchema: {
        id: serverId.optional(),
        limit: z.number().int().min(1).max(LIMITS.trafficRecords).optional().describe(`The newest records to return (default 50, at most ${LIMITS.trafficRecords}).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(state, async ({ ws }) => {
        const id = args.id?.replace(/^servers\//, '').replace(/\.ya?ml$/i, '');
        if (id !== undefined && !state.servers.has(id) && !hasServer(ws, id)) throw new AgentError(unknownServerMessage(ws, id));
        const all = state.traffic.recent().filter((r) => !id || r.server === id);
        const limit = args.limit ?? 50;
        const records = all.slice(-limit).map((r) => ({ ...plainRecord(r), time: new Date(r.time).toISOString(), detail: bounded(r.detail) }));
        const note = all.length > records.length
          ? `${all.length} records held; the newest ${records.length} are shown.`
          : all.length === 0 && id !== undefined && !state.servers.has(id) ? `The server ${id} is not running here; start it with start_server, then send to it.`
          : all.length === 0 && state.servers.size === 0 ? 'No server is running here; start one with start_server, then send to it.'
          : undefined;
        return { records, ...(note ? { note } : {}) };
      }),
  );
}
