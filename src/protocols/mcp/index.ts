/**
 * The `mcp` request kind (spec 2.8): `url` is the server's http(s) URL or the command line that
 * starts it. URLs are prepared as URLs (headers and auth apply), commands are filled as typed.
 * In the app it also connects: a session kept open for calls, with the server's notifications.
 */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const callClient = loadOnce(() => import('./call.js'));
const describer = loadOnce(() => import('./describe.js'));
const liveClient = loadOnce(() => import('./live.js'));

export const mcpKind: RequestKindModule = {
  kind: 'mcp',
  noun: 'an MCP request',
  url: 'text',
  schemes: ['http', 'https'],
  method: 'none',
  options: 'mcp',
  // Its first request (initialize) over HTTP is a POST: auth signs it so when preparing; each
  // request of the session is then signed afresh for its own method, URL and body (transport.ts).
  wireMethod: 'POST',
  tag: () => 'mcp',
  exportsAsCode: false,
  send: async (prepared, context, signal) => (await callClient()).sendMcp(prepared, context, signal),
  describe: async (prepared, context, signal) => (await describer()).describeMcp(prepared, context, signal),
  connect: async (prepared, context, handlers, signal) => (await liveClient()).connectMcp(prepared, context, handlers, signal),
  // A session of calls: no free messages to send, only the operations.
  composer: {
    formats: [],
    fields: [],
    operations: [
      { name: 'listTools', label: 'List tools', params: [] },
      { name: 'callTool', label: 'Call tool', params: ['name', 'arguments'] },
      { name: 'listResources', label: 'List resources', params: [] },
      { name: 'readResource', label: 'Read resource', params: ['uri'] },
      { name: 'listPrompts', label: 'List prompts', params: [] },
      { name: 'getPrompt', label: 'Get prompt', params: ['name', 'arguments'] },
    ],
    when: 'always',
  },
};
