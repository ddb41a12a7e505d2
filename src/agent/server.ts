/**
 * `ferry mcp`: the workspace as tools for AI coding agents, over the Model Context Protocol
 * (issue 23). The tools call the session API and the core as the command line and the app do;
 * this module only assembles them.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { packageVersion } from '../support/package-root.js';
import { registerResources } from './resources.js';
import { AgentState } from './state.js';
import { registerRequestTools } from './tools-requests.js';
import { registerServerTools } from './tools-servers.js';
import { registerWorkspaceTools } from './tools-workspace.js';

const INSTRUCTIONS = `Ferry keeps API requests as YAML files under requests/ of this workspace (environments under environments/, local servers under servers/).
Use list_requests to find requests, describe_request to see one as it would be sent, send_request to send one (or an inline draft) and read the answer, run to run a folder with its tests.
Secret values are never shown (***), and go only to hosts the workspace's saved requests and environments used when ferry mcp started. Programs (MCP over stdio) only start when the user allowed them on this computer with \`ferry programs allow\`.`;

export interface AgentServer {
  /** Serves on the transport until it closes. */
  connect(transport: Transport): Promise<void>;
  /** Stops the servers started through it and closes the connection. */
  close(): Promise<void>;
}

/** The MCP server over the workspace in `root` (an absolute folder holding ferry.yaml). */
export function createAgentServer(root: string): AgentServer {
  const state = new AgentState(root);
  // Before the agent can edit anything: the hosts secret values may go to.
  state.rememberChosenHosts();
  const server = new McpServer({ name: 'ferry', version: packageVersion() }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } });
  registerRequestTools(server, state);
  registerWorkspaceTools(server, state);
  registerServerTools(server, state);
  registerResources(server, state);
  return {
    connect: (transport) => server.connect(transport),
    async close() {
      await state.close();
      await server.close();
    },
  };
}
