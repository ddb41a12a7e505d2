/**
 * `ferry mcp`: serves the workspace to an AI coding agent over the Model Context Protocol on
 * standard input and output, the way agents start local servers, until the agent closes the
 * connection (or Ctrl-C / SIGTERM). The tools live in `src/agent/`.
 */
import type { Command } from 'commander';
import { createAgentServer, StdioTransport } from '../agent/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { EXIT } from './exit-codes.js';
import { examples } from './examples.js';
import { armScriptWatchdog } from '../scripts/host/watchdog-setting.js';
import { servingAs } from '../servers/serving-processes.js';

export function registerMcp(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description('serve the workspace to AI coding agents (Claude Code, Cursor, VS Code) as MCP tools over stdio')
    .addHelpText('after', `${examples([
      ['ferry mcp -w ./api', 'serve the workspace ./api to the agent that started it'],
      ['claude mcp add ferry -- npx ferry mcp -w /path/to/workspace', 'add Ferry to Claude Code'],
      ['npx @modelcontextprotocol/inspector --cli npx ferry mcp -w . --method tools/list', 'list the tools with the MCP Inspector'],
    ])}

Standard output carries the protocol; messages for people go to standard error. The agent starts
this command and ends it by closing its input. Cursor (.cursor/mcp.json):

  {"mcpServers": {"ferry": {"command": "npx", "args": ["ferry", "mcp", "-w", "/path/to/workspace"]}}}

VS Code (.vscode/mcp.json, GitHub Copilot agent mode):

  {"servers": {"ferry": {"type": "stdio", "command": "npx", "args": ["ferry", "mcp", "-w", "\${workspaceFolder}"]}}}

Tools: list_requests, describe_request, send_request, run, import, export_code, list_environments,
list_servers, start_server, stop_server, server_traffic, check_contract. Secret values are shown as ***.
Programs (MCP over stdio) start only when allowed on this computer (\`ferry programs allow\`).
See docs/agents.md.`)
    .action(async (_options: unknown, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      // start_server's servers are recorded in the data folder as this command's (a refused port names it).
      servingAs('ferry mcp');
      armScriptWatchdog(); // a stuck script would hold every later tool call
      // Standard output is the protocol's: anything a library logs goes to standard error instead.
      console.log = console.info = console.debug = console.error;
      const agent = createAgentServer(ws.root);
      const transport = new StdioTransport();
      const closed = new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          process.stdin.off('end', stop);
          resolve();
        };
        transport.onclose = stop;
        process.stdin.once('end', stop);
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await agent.connect(transport);
      ctx.output.err(`ferry mcp: serving ${ws.file.name || ws.root} (${ws.root}) to an MCP client on stdio.`);
      await closed;
      await agent.close();
      ctx.exitCode = EXIT.ok;
    });
}
