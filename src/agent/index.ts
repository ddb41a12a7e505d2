/** `ferry mcp`: the workspace's requests, runs, imports, exports and servers as MCP tools for AI coding agents. */
export { createAgentServer, type AgentServer } from './server.js';
export { StdioTransport } from './stdio-transport.js';
