/**
 * The `mcp` request kind (spec 2.8): `url` is the server's http(s) URL or the command line that
 * starts it. URLs are prepared as URLs (headers and auth apply), commands are filled as typed.
 */
import type { RequestKindModule } from '../kind.js';

export const mcpKind: RequestKindModule = {
  kind: 'mcp',
  noun: 'an MCP request',
  url: 'text',
  schemes: ['http', 'https'],
  method: 'none',
  options: 'mcp',
  tag: () => 'mcp',
  exportsAsCode: false,
  send: async (prepared, context, signal) => (await import('./call.js')).sendMcp(prepared, context, signal),
  describe: async (prepared, context, signal) => (await import('./describe.js')).describeMcp(prepared, context, signal),
};
