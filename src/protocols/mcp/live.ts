/**
 * An MCP session kept open (issue 26, live connections): connected as `send` connects (HTTP with
 * the request's headers and auth, or a program only when this computer allows it), then the
 * composer's operations — listTools, callTool, listResources, readResource, listPrompts,
 * getPrompt — each go out as a sent message and come back as a received one; the server's
 * notifications (log messages, progress, list_changed…) arrive as received messages named by
 * their method. Closing ends the session (a started program is stopped).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { clientOptions } from './client-options.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { PreparedRequest } from '../../request/prepared.js';
import { connectionErrorByCode, systemCode } from '../connection-errors.js';
import type { SendContext } from '../kind.js';
import { openLive } from '../live/connection.js';
import type { ConnectHandlers, LiveConnection } from '../live/types.js';
import { SendError } from '../send-error.js';
import type { MessageStream } from '../stream/messages.js';
import { StreamSession } from '../stream/session.js';
import { connectFailed, endSession, httpTransport, mcpTarget, NO_LIMIT_MS, programSpec, type StartedProgram, stdioTransport } from './transport.js';
import { errorLine } from './error-line.js';
import { unknownName } from './unknown-name.js';
import { unansweredText } from './answer-watch.js';

export async function connectMcp(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const { options, http, chosen, where } = mcpTarget(prepared);
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  const client = new Client({ name: 'ferry', version: '1' }, clientOptions());
  // Every notification the SDK does not handle itself (logging/message, list_changed, resources/updated…).
  client.fallbackNotificationHandler = async (notification) => {
    session.messages?.received({ event: notification.method, text: JSON.stringify(notification.params ?? {}) });
  };
  client.onclose = () => session.messages?.closed();
  let transport: Transport | undefined;
  let program: StartedProgram | undefined;
  let used: string = chosen;
  // An answer past maxResponseMb fails the session, and stops connecting (the SDK would wait on a cut event stream).
  const stop = new AbortController();
  signal?.addEventListener('abort', () => stop.abort(signal.reason), { once: true });
  const tooLarge = (error: SendError) => {
    session.fail(error);
    stop.abort(error);
  };
  session.onClose(() => {
    void (async () => {
      await endSession(transport);
      await client.close().catch(() => {}); // also stops a started program
      await transport?.close().catch(() => {});
    })();
  });
  try {
    if (chosen === 'stdio') program = await stdioTransport(programSpec(prepared, options, context.workspaceRoot), context, tooLarge);
    transport = chosen === 'stdio' ? program!.transport : httpTransport(chosen, prepared, context, tooLarge);
    const connectOptions = { signal: stop.signal, timeout: timeoutMs > 0 ? timeoutMs : NO_LIMIT_MS };
    try {
      await client.connect(transport, connectOptions);
    } catch (error) {
      // auto, as send: a server that does not speak Streamable HTTP may speak the older HTTP+SSE (not when nothing listens).
      if (options.transport !== 'auto' || !http || connectionErrorByCode(systemCode(error), where, '')) throw error;
      await transport.close().catch(() => {});
      transport = httpTransport('sse', prepared, context, tooLarge);
      used = 'sse';
      await client.connect(transport, connectOptions);
    }
    session.open();
  } catch (error) {
    session.fail(connectFailed(error, chosen, where));
    await session.finish(); // throws the failure, the transport closed
  }
  // Each operation's own limit: the request's time limit when it has one.
  const requestOptions = (messages: MessageStream) => ({
    timeout: timeoutMs > 0 ? timeoutMs : NO_LIMIT_MS,
    onprogress: (progress: Record<string, unknown>) => messages.received({ event: 'notifications/progress', text: JSON.stringify(progress) }),
  });
  const exchange = async (operation: string, params: Record<string, unknown>, messages: MessageStream, work: () => Promise<unknown>): Promise<unknown> => {
    messages.sent({ event: operation, text: JSON.stringify(params) });
    let result: unknown;
    try {
      result = await work();
    } catch (error) {
      throw await operationFailed(error, operation, params, client, timeoutMs);
    }
    messages.received({ event: `${operation} result`, text: JSON.stringify(result) });
    return result;
  };
  return openLive(session, {
    noun: `the MCP session with ${where}`,
    info: () => ({
      url: prepared.url,
      headers: [],
      detail: { transport: used, server: client.getServerVersion() ?? null, capabilities: client.getServerCapabilities() ?? null, ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}) },
    }),
    operations: {
      listTools: (_params, messages) => exchange('listTools', {}, messages, () => client.listTools(undefined, requestOptions(messages))),
      callTool: (params, messages) => {
        const name = nameParam(params, 'callTool', 'the tool');
        const args = argumentsParam(params, 'callTool');
        return exchange('callTool', { name, arguments: args }, messages, async () => {
          const result = await client.callTool({ name, arguments: args }, undefined, requestOptions(messages));
          // Servers built with the SDK answer an unknown tool as an isError result: named as bad input.
          if (result.isError === true) {
            const missing = await unknownName(client, 'tool', name, { timeoutMs }, 'invalid');
            if (missing) throw missing;
          }
          return result;
        });
      },
      listResources: (_params, messages) => exchange('listResources', {}, messages, () => client.listResources(undefined, requestOptions(messages))),
      readResource: (params, messages) => {
        const uri = nameParam(params, 'readResource', 'the resource', 'uri');
        return exchange('readResource', { uri }, messages, () => client.readResource({ uri }, requestOptions(messages)));
      },
      listPrompts: (_params, messages) => exchange('listPrompts', {}, messages, () => client.listPrompts(undefined, requestOptions(messages))),
      getPrompt: (params, messages) => {
        const name = nameParam(params, 'getPrompt', 'the prompt');
        // Prompt arguments are strings in MCP.
        const args = Object.fromEntries(Object.entries(argumentsParam(params, 'getPrompt')).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
        return exchange('getPrompt', { name, arguments: args }, messages, () => client.getPrompt({ name, arguments: args }, requestOptions(messages)));
      },
    },
    // A program's end says how it ended (its exit code or signal).
    peerEnd: () => `the MCP server ${where} ended the session${program?.ended() ? `: the program ${program.ended()}` : ''}`,
  });
}

function nameParam(params: Record<string, unknown>, operation: string, what: string, key = 'name'): string {
  const value = params[key];
  if (typeof value !== 'string' || value.trim() === '') throw new SendError(`${operation} needs ${key}: the name of ${what}${key === 'uri' ? ' (its URI)' : ''} as text.`, 'invalid');
  return value.trim();
}

/** `arguments`: a JSON object, or its text (the composer's field); absent or empty is `{}`. */
function argumentsParam(params: Record<string, unknown>, operation: string): Record<string, unknown> {
  let value = params.arguments;
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (error) {
      throw new SendError(`${operation}'s arguments are not valid JSON: ${(error as Error).message}; give a JSON object such as {"a": 1}.`, 'invalid');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SendError(`${operation}'s arguments must be a JSON object such as {"a": 1}, not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}.`, 'invalid');
  return value as Record<string, unknown>;
}

async function operationFailed(error: unknown, operation: string, params: Record<string, unknown>, client: Client, timeoutMs: number): Promise<SendError> {
  if (error instanceof SendError) return error;
  if (error instanceof McpError && !unansweredText(error) && (operation === 'callTool' || operation === 'getPrompt')) {
    const missing = await unknownName(client, operation === 'callTool' ? 'tool' : 'prompt', String(params.name), { timeoutMs }, 'invalid');
    if (missing) return missing;
  }
  return new SendError(`${operation} failed: ${errorLine(error)}.`, 'protocol');
}

