/**
 * The app's lists of an MCP server (issue 26): its tools (each with a form from its input
 * schema), resources, resource templates and prompts. Connects as a send does (HTTP, or a
 * program only when this computer allows it), lists what the server's capabilities announce,
 * and closes (a started program is stopped). Picking an entry sets `mcp.call` and `mcp.name`;
 * the form's value becomes `mcp.arguments`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { clientOptions } from './client-options.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { PreparedRequest } from '../../request/prepared.js';
import type { CatalogEntry, KindCatalog } from '../catalog.js';
import type { SendContext } from '../kind.js';
import { SendError } from '../send-error.js';
import { connectFailed, endSession, httpTransport, mcpTarget, programSpec, stdioTransport } from './transport.js';
import { errorLine } from './error-line.js';

/** Listing gives up after this long without a time limit of the request's own: a picker must not hang. */
const LIST_LIMIT_MS = 30_000;

export async function describeMcp(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<KindCatalog> {
  const { options, chosen, where } = mcpTarget(prepared);
  const timeout = (prepared.settings?.timeoutMs ?? 0) > 0 ? prepared.settings!.timeoutMs! : LIST_LIMIT_MS;
  const client = new Client({ name: 'ferry', version: '1' }, clientOptions());
  // An answer past maxResponseMb stops the listing with its own words (the SDK would wait on a cut event stream).
  const stop = new AbortController();
  signal?.addEventListener('abort', () => stop.abort(signal.reason), { once: true });
  const requestOptions = { signal: stop.signal, timeout };
  let transport: Transport | undefined;
  try {
    const tooLarge = (error: SendError) => stop.abort(error);
    transport = chosen === 'stdio' ? (await stdioTransport(programSpec(prepared, options, context.workspaceRoot), context, tooLarge)).transport : httpTransport(chosen, prepared, context, tooLarge);
    await client.connect(transport, requestOptions).catch((error: unknown) => {
      throw connectFailed(error, chosen, where);
    });
    const has = client.getServerCapabilities() ?? {};
    const server = client.getServerVersion();
    const entries: CatalogEntry[] = [];
    const list = async <T>(what: string, work: () => Promise<T[]>): Promise<T[]> =>
      work().catch((error: unknown) => {
        if (error instanceof SendError) throw error;
        throw new SendError(`the MCP server ${where} did not list its ${what}: ${errorLine(error)}.`, 'protocol');
      });
    if (has.tools) {
      for (const tool of await list('tools', async () => (await client.listTools(undefined, requestOptions)).tools)) {
        entries.push({ group: 'Tools', name: tool.name, ...(tool.description ? { description: tool.description } : {}), apply: { options: { call: 'tool', name: tool.name } }, form: { schema: tool.inputSchema as Record<string, unknown>, option: 'arguments' } });
      }
    }
    if (has.resources) {
      for (const r of await list('resources', async () => (await client.listResources(undefined, requestOptions)).resources)) {
        entries.push({ group: 'Resources', name: r.uri, ...(r.mimeType ? { note: r.mimeType } : {}), ...(r.description || r.name ? { description: r.description ?? r.name } : {}), apply: { options: { call: 'resource', name: r.uri, arguments: '' } } });
      }
      for (const t of await list('resource templates', async () => (await client.listResourceTemplates(undefined, requestOptions)).resourceTemplates)) {
        const parts = [...t.uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => m[1]!.split(',').map((p) => p.replace(/\*$/, '')));
        const schema = { type: 'object', properties: Object.fromEntries(parts.map((p) => [p, { type: 'string' }])), required: parts };
        entries.push({ group: 'Resources', name: t.uriTemplate, note: 'template', ...(t.description ? { description: t.description } : {}), apply: { options: { call: 'resource', name: t.uriTemplate } }, form: { schema, option: 'arguments' } });
      }
    }
    if (has.prompts) {
      for (const p of await list('prompts', async () => (await client.listPrompts(undefined, requestOptions)).prompts)) {
        // Prompt arguments are strings in MCP.
        const args = p.arguments ?? [];
        const schema = { type: 'object', properties: Object.fromEntries(args.map((a) => [a.name, { type: 'string', ...(a.description ? { description: a.description } : {}) }])), required: args.filter((a) => a.required).map((a) => a.name) };
        entries.push({ group: 'Prompts', name: p.name, ...(p.description ? { description: p.description } : {}), apply: { options: { call: 'prompt', name: p.name } }, form: { schema, option: 'arguments' } });
      }
    }
    return { source: server ? `the MCP server "${server.name}" ${server.version}` : 'the MCP server', entries };
  } finally {
    await endSession(transport);
    await client.close().catch(() => {}); // also stops a started program
    await transport?.close().catch(() => {});
  }
}

