/**
 * One MCP request (spec 2.8): connect (initialize), one call — a tool, a resource (a URI template's
 * `{parts}` filled from the arguments) or a prompt — and close; a started program is stopped when
 * the request ends. The answer holds the initialize result and the call's result; a tool's
 * `isError` makes the outcome not ok (tests may still pass it). A server that fails initialize,
 * does not answer in time, or has no such tool fails the send with one line.
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { clientOptions } from './client-options.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { PreparedRequest } from '../../request/prepared.js';
import { connectionErrorByCode, innermostMessage, systemCode } from '../connection-errors.js';
import { Deadline } from '../deadline.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { SendError } from '../send-error.js';
import { endSession, httpTransport, programNotFound, type McpOptions, mcpTarget, NO_LIMIT_MS, programSpec, type StartedProgram, stdioTransport } from './transport.js';
import { errorLine } from './error-line.js';
import { unknownName } from './unknown-name.js';
import { unansweredText } from './answer-watch.js';

export async function sendMcp(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const { options, target, chosen, where } = mcpTarget(prepared);
  const args = parseArguments(options.arguments);
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  const deadline = new Deadline(timeoutMs, signal);
  const abort = new AbortController();
  deadline.attach((reason) => abort.abort(reason));
  const started = performance.now();
  let program: StartedProgram | undefined;
  let client: Client | undefined;
  let used: string = chosen;
  // An answer past maxResponseMb ends the send as the time limit does, with its own words.
  const stop = (error: SendError) => abort.abort(error);
  const requestOptions = () => ({ signal: abort.signal, timeout: timeoutMs > 0 ? timeoutMs : NO_LIMIT_MS });

  const connect = async (transport: Transport): Promise<Client> => {
    const made = new Client({ name: 'ferry', version: '1' }, clientOptions());
    client = made;
    await raceAbort(made.connect(transport, requestOptions()), abort.signal);
    return made;
  };

  try {
    if (chosen === 'stdio') {
      program = await stdioTransport(programSpec(prepared, options, context.workspaceRoot), context, stop);
      await connect(program.transport).catch((error: unknown) => {
        throw failed(error, deadline, `the MCP server ${where} did not initialize`, program);
      });
    } else {
      try {
        await connect(httpTransport(chosen, prepared, context, stop));
      } catch (error) {
        if (error instanceof SendError && error.kind === 'tooLarge') throw error; // an answer past maxResponseMb: no second transport
        const early = deadline.error ?? context.agents.proxyFailure(error, new URL(target), prepared.settings?.proxy === false) ?? connectionErrorByCode(systemCode(error), where, innermostMessage(error));
        // auto: a server that does not speak Streamable HTTP may speak the older HTTP+SSE.
        // A TLS server drops a plaintext request without a word, as for WebSocket requests.
        if (early?.kind === 'reset' && !deadline.error) throw new SendError(`the MCP server at ${where} closed the connection during initialize (${systemCode(error)})${target.startsWith('http:') ? '; if it is a TLS server, use https://' : ''}.`, 'reset');
        if (early || options.transport !== 'auto') throw early ?? failed(error, deadline, `the MCP server at ${where} did not initialize`);
        await client?.close().catch(() => {});
        used = 'sse';
        await connect(httpTransport('sse', prepared, context, stop)).catch((second: unknown) => {
          throw failed(second, deadline, `the MCP server at ${where} did not initialize over Streamable HTTP (${oneLine(error)}) nor HTTP+SSE`);
        });
      }
    }
    const connected = client!;
    // The listing that names an unknown tool or prompt ends with the send (its time limit, cancel).
    const limits = { timeoutMs, signal: abort.signal };
    const result = await raceAbort(callOnce(connected, options, args, requestOptions()), abort.signal).catch(async (error: unknown) => {
      throw await callFailed(error, deadline, connected, options, limits, program);
    });
    // Servers built with the SDK answer an unknown tool as an isError result: named as bad input.
    if (options.call === 'tool' && result.isError === true) {
      const missing = await unknownName(connected, 'tool', options.name.trim(), limits, 'other');
      if (missing) throw missing;
    }
    return answer(result, connected, { prepared, options, transport: used, started, stderr: program?.stderr() });
  } catch (error) {
    // The time limit's line says what was still awaited, and from which server.
    const expired = deadline.error;
    if (error !== expired || expired?.kind !== 'timeout') throw error;
    const server = `the MCP server ${chosen === 'stdio' ? where : `at ${where}`}`;
    const awaited = client?.getServerVersion() ? `${server} had not answered the ${options.call} call ${JSON.stringify(options.name.trim())}` : `${server} had not finished initialize`;
    throw new SendError(expired.message.replace(/; no complete response by then\.$/, `; ${awaited} by then. Raise the time limit, or check why the server is slow.`), 'timeout');
  } finally {
    deadline.clear();
    await endSession(client?.transport);
    await client?.close().catch(() => {}); // also stops a started program: stdin closed, then SIGTERM, then SIGKILL
    if (!client) await program?.transport.close().catch(() => {});
  }
}

function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SendError(`mcp.arguments is not valid JSON: ${(error as Error).message}.`, 'other');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SendError('mcp.arguments must be a JSON object.', 'other');
  return value as Record<string, unknown>;
}

type CallResult = Record<string, unknown>;

async function callOnce(client: Client, options: McpOptions, args: Record<string, unknown>, requestOptions: { signal: AbortSignal; timeout: number }): Promise<CallResult> {
  const name = options.name.trim();
  if (name === '') throw new SendError(`mcp.name is empty; give the ${options.call === 'resource' ? 'resource URI' : `${options.call} name`}.`, 'other');
  if (options.call === 'tool') return (await client.callTool({ name, arguments: args }, undefined, requestOptions)) as CallResult;
  if (options.call === 'resource') {
    const uri = name.includes('{') ? new UriTemplate(name).expand(Object.fromEntries(Object.entries(args).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]))) : name;
    return (await client.readResource({ uri }, requestOptions)) as CallResult;
  }
  // Prompt arguments are strings in MCP.
  const promptArgs = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return (await client.getPrompt({ name, arguments: promptArgs }, requestOptions)) as CallResult;
}

/** A failure of connect: the deadline's or cancel's own line first, then the connection's, then the server's words. */
function failed(error: unknown, deadline: Deadline, what: string, program?: StartedProgram): SendError {
  if (error instanceof SendError && error.kind === 'tooLarge') return error; // past maxResponseMb: said as such, whatever else the program wrote
  const stray = program?.strayOutput();
  if (stray && deadline.error?.kind !== 'other') {
    return new SendError(`${what}: the program wrote something other than MCP messages to its standard output (${stray.replace(/\.$/, '')}); an MCP server over stdio writes only JSON-RPC messages there, its logs go to stderr.`, 'protocol');
  }
  if (deadline.error) return deadline.error;
  if (error instanceof SendError) return error;
  const code = systemCode(error);
  if (program && code === 'ENOENT') return programNotFound(what.replace(/^the MCP server /, '').replace(/ did not initialize$/, ''));
  const connection = program ? undefined : connectionErrorByCode(code, what.replace(/^.* at (\S+) .*$/, '$1'), innermostMessage(error));
  if (connection) return connection;
  // A JSON-RPC error the server answered is its own reason: its stderr's last line (a banner such
  // as "server running on stdio") would read as the cause. Only the SDK's own errors (no answer
  // came: the connection closed, its timeout) get it.
  const answered = error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout;
  const stderr = answered ? undefined : program?.stderr().trim().split('\n').at(-1);
  const ended = program?.ended();
  // The SDK's 'Connection closed' when the program ended: said as how it ended.
  const why = ended && error instanceof McpError && error.code === ErrorCode.ConnectionClosed ? `the program ${ended} before answering` : oneLine(error);
  return new SendError(`${what}: ${why}${stderr ? ` (its stderr: ${stderr.slice(0, 200)})` : ''}.`, 'protocol');
}

async function callFailed(error: unknown, deadline: Deadline, client: Client, options: McpOptions, limits: { timeoutMs: number; signal: AbortSignal }, program?: StartedProgram): Promise<SendError> {
  if (deadline.error) return failed(error, deadline, `the ${options.call} call failed`, program);
  if (error instanceof SendError) return error;
  // Said as it was when the call failed, whatever becomes of the listing below.
  const said = failed(error, deadline, `the ${options.call} call failed`, program);
  // An error of the server's may be an unknown name; one answered for it (no answer came) is not, and the server is not asked again.
  if (error instanceof McpError && !unansweredText(error) && options.call !== 'resource') {
    return (await unknownName(client, options.call, options.name.trim(), limits, 'other')) ?? said;
  }
  return said;
}

function oneLine(error: unknown): string {
  // The SDK's client prefixes a server's error with its code, which the SDK's servers already did.
  return errorLine(error).replace(/^(MCP error -?\d+: )\1+/, '$1');
}

function answer(result: CallResult, client: Client, about: { prepared: PreparedRequest; options: McpOptions; transport: string; started: number; stderr?: string }): ProtocolResult {
  const totalMs = performance.now() - about.started;
  const isError = about.options.call === 'tool' && result.isError === true;
  const body = Buffer.from(JSON.stringify(result), 'utf8');
  return {
    // No status code of MCP's own: 0 and 1 are Ferry's (pm.response.code), so the label leaves them out and gives the error's text.
    outcome: isError
      ? { status: 1, text: 'isError', ok: false, label: errorLabel(result), rule: 'an MCP tool call without tests fails when its result is an error (isError: true)', noCode: true }
      : { status: 0, text: 'OK', ok: true, label: 'OK', noCode: true },
    headers: [],
    body,
    bodySize: body.length,
    size: body.length,
    url: about.prepared.url,
    timings: { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: totalMs, totalMs },
    detail: {
      transport: about.transport,
      call: about.options.call,
      name: about.options.name,
      server: client.getServerVersion() ?? null,
      capabilities: client.getServerCapabilities() ?? null,
      ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}),
      ...(about.stderr ? { stderr: about.stderr } : {}),
      // Reports carry no bodies; the call's result is what an MCP request is run for.
      result,
    },
  };
}

/** A tool's error result as reports show it: `isError` and the first line of its first text (`isError: no such city`). */
function errorLabel(result: CallResult): string {
  const content = (result as { content?: unknown }).content;
  const first = Array.isArray(content) ? content.find((c): c is { type: 'text'; text: string } => (c as { type?: unknown })?.type === 'text' && typeof (c as { text?: unknown }).text === 'string') : undefined;
  const line = first?.text.trim().split('\n')[0]?.slice(0, 200) ?? '';
  return `isError${line ? `: ${line}` : ''}`;
}

/** Rejects with the abort's reason when the signal fires first (a hung connect or call ends at once). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
