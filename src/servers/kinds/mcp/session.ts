/**
 * One MCP session's protocol side: an SDK `Server` whose handlers answer from the current catalog
 * (so an edit applies to calls made after it, in open sessions too). Tool arguments are checked
 * against the input schema; a tool's `result` is rendered with its arguments and, when the tool
 * has an output schema and the result is JSON, also sent as structured content.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { VariableScope } from '../../../template/index.js';
import type { Catalog } from './catalog.js';
import { clientChosenName } from '../messages/payload.js';

export interface SessionState {
  name: string;
  version: string;
  instructions: string;
  catalog: Catalog;
  variables: VariableScope;
}

/** What a call did, for the traffic log. */
export interface CallNote {
  method: string;
  target: string;
  outcome: 'ok' | 'error';
  startedAt: number;
}

/** The JSON-RPC id of the request a call answers, so its record can wait for the answer's bytes. */
export type RequestId = string | number;

/** Longest tool or prompt name, or URI, shown in a call's record as sent. */
const TARGET_CHARS = 120;

export function createSession(current: () => SessionState, onCall: (note: CallNote, requestId: RequestId) => void, wait: (ms: number) => Promise<void>): Server {
  const first = current();
  const server = new Server(
    { name: first.name, version: first.version },
    // listChanged: an edit of the file that changes a list is told to open sessions (mcp.ts).
    { capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } }, ...(first.instructions !== '' ? { instructions: first.instructions } : {}) },
  );
  const noted = async <T>(requestId: RequestId, method: string, sent: string, run: () => Promise<T> | T, failed?: (r: T) => boolean): Promise<T> => {
    const startedAt = performance.now();
    const target = clientChosenName(sent, TARGET_CHARS);
    try {
      const result = await run();
      onCall({ method, target, outcome: failed?.(result) ? 'error' : 'ok', startedAt }, requestId);
      return result;
    } catch (error) {
      onCall({ method, target, outcome: 'error', startedAt }, requestId);
      throw error;
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) =>
    noted(extra.requestId, 'tools/list', '', () => ({
      tools: [...current().catalog.tools.values()].map((t) => ({
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        ...(t.description !== undefined ? { description: t.description } : {}),
        inputSchema: t.inputSchema as { type: 'object' },
        ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema as { type: 'object' } } : {}),
      })),
    })),
  );

  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    noted(extra.requestId, 'tools/call', request.params.name, async () => {
      const state = current();
      const tool = state.catalog.tools.get(request.params.name);
      if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      const args = request.params.arguments ?? {};
      const problem = tool.check(args);
      if (problem !== undefined) return { content: [{ type: 'text' as const, text: `Invalid arguments for tool ${tool.name}: ${problem}` }], isError: true };
      if (tool.delayMs > 0) await wait(tool.delayMs);
      const text = tool.result.render({ variables: state.variables, mcp: { args } });
      const structured = tool.outputSchema !== undefined && !tool.isError ? parseObject(text) : undefined;
      // Clients refuse a result without the structured content an output schema promises: say why instead.
      if (tool.outputSchema !== undefined && !tool.isError && structured === undefined) {
        return { content: [{ type: 'text' as const, text: `Tool ${tool.name} has an outputSchema, but its result is not a JSON object: ${text}` }], isError: true };
      }
      return {
        content: [{ type: 'text' as const, text }],
        ...(structured !== undefined ? { structuredContent: structured } : {}),
        ...(tool.isError ? { isError: true } : {}),
      };
    }, (r) => (r as { isError?: boolean }).isError === true),
  );

  server.setRequestHandler(ListResourcesRequestSchema, (_request, extra) =>
    noted(extra.requestId, 'resources/list', '', () => ({
      resources: current().catalog.resources.filter((r) => r.match === undefined).map((r) => describe(r, 'uri')),
    })),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, (_request, extra) =>
    noted(extra.requestId, 'resources/templates/list', '', () => ({
      resourceTemplates: current().catalog.resources.filter((r) => r.match !== undefined).map((r) => describe(r, 'uriTemplate')),
    })),
  );

  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    noted(extra.requestId, 'resources/read', request.params.uri, () => {
      const state = current();
      const uri = request.params.uri;
      const exact = state.catalog.resources.find((r) => r.match === undefined && r.uri === uri);
      let params: Record<string, string> | undefined;
      const resource = exact ?? state.catalog.resources.find((r) => (params = r.match?.(uri)) !== undefined);
      if (resource === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri} not found`);
      const text = resource.text.render({ variables: state.variables, mcp: { params: params ?? {} } });
      return { contents: [{ uri, text, ...(resource.mimeType !== undefined ? { mimeType: resource.mimeType } : {}) }] };
    }),
  );

  server.setRequestHandler(ListPromptsRequestSchema, (_request, extra) =>
    noted(extra.requestId, 'prompts/list', '', () => ({
      prompts: [...current().catalog.prompts.values()].map((p) => ({
        name: p.name,
        ...(p.title !== undefined ? { title: p.title } : {}),
        ...(p.description !== undefined ? { description: p.description } : {}),
        arguments: p.arguments.map((a) => ({ name: a.name, required: a.required, ...(a.description !== undefined ? { description: a.description } : {}) })),
      })),
    })),
  );

  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    noted(extra.requestId, 'prompts/get', request.params.name, () => {
      const state = current();
      const prompt = state.catalog.prompts.get(request.params.name);
      if (prompt === undefined) throw new McpError(ErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
      const args = request.params.arguments ?? {};
      const missing = prompt.arguments.filter((a) => a.required && (args[a.name] === undefined || args[a.name] === '')).map((a) => a.name);
      if (missing.length > 0) throw new McpError(ErrorCode.InvalidParams, `Prompt ${prompt.name} needs the argument${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
      return {
        ...(prompt.description !== undefined ? { description: prompt.description } : {}),
        messages: prompt.messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text.render({ variables: state.variables, mcp: { args } }) } })),
      };
    }),
  );
  return server;
}

function describe<K extends 'uri' | 'uriTemplate'>(r: Catalog['resources'][number], key: K) {
  return {
    [key]: r.uri,
    name: r.name,
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}),
  } as { name: string } & Record<K, string>;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
