/**
 * How an MCP request reaches its server (spec 2.8 `mcp.transport`): Streamable HTTP or HTTP+SSE for
 * http(s) URLs (with the request's headers and auth, through Ferry's own HTTP connection pools so
 * `verifyTls` and the proxy settings apply), or a program over stdio — started only when this computer allows it.
 */
import type { ChildProcess } from 'node:child_process';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { limitedResponse } from '../http/limited-response.js';
import type { PreparedBody, PreparedRequest } from '../../request/prepared.js';
import { loadOnce } from '../../support/load-once.js';
import type { SendContext } from '../kind.js';
import { preparedFetch } from '../prepared-fetch.js';
import { commandWords, programRefused, type ProgramSpec } from '../programs.js';
import { connectionErrorByCode, innermostMessage, systemCode } from '../connection-errors.js';
import { SendError } from '../send-error.js';
import { maxResponseBytes } from '../response-limit.js';
import { AnswerWatch } from './answer-watch.js';
import { errorLine } from './error-line.js';
import { BoundedStdoutBuffer, OutputTooLarge } from './stdout-buffer.js';

const hopSigner = loadOnce(() => import('../sign-hop.js'));

export type McpTransportName = 'auto' | 'streamableHttp' | 'sse' | 'stdio';

export interface McpOptions {
  transport: McpTransportName;
  call: 'tool' | 'resource' | 'prompt';
  name: string;
  arguments: string;
  cwd: string;
  env: Array<{ key: string; value: string; enabled: boolean }>;
}

/** Headers the transports set themselves. */
const OWN_HEADERS = new Set(['content-type', 'accept', 'content-length', 'host', 'connection']);

/** No time limit set: the SDK's own per-request limit would cut in at 60 s, so give it a day. */
export const NO_LIMIT_MS = 24 * 60 * 60 * 1000;

/** What a send, a live session and a listing all start from: the target and the transport it takes. */
export interface McpTarget {
  options: McpOptions;
  target: string;
  http: boolean;
  chosen: Exclude<McpTransportName, 'auto'>;
  /** How messages name the server: its host, or the quoted command. */
  where: string;
}

/** The request's MCP target; a transport that does not fit the URL (or command) is refused. */
export function mcpTarget(prepared: PreparedRequest): McpTarget {
  const options = prepared.options as unknown as McpOptions;
  const target = prepared.url.trim();
  const http = isHttpTarget(target);
  const chosen = options.transport === 'auto' ? (http ? 'streamableHttp' : 'stdio') : options.transport;
  if (chosen !== 'stdio' && !http) throw new SendError(`mcp.transport ${chosen} needs an http:// or https:// URL, not "${target}".`, 'unsupported');
  if (chosen === 'stdio' && http) throw new SendError('mcp.transport stdio needs the command that starts the server, not a URL.', 'unsupported');
  return { options, target, http, chosen, where: http ? new URL(target).host : `"${target}"` };
}

export function isHttpTarget(target: string): boolean {
  return /^https?:\/\//i.test(target);
}

/**
 * `onTooLarge`: told when an answer (a JSON answer, or an event stream as it arrives) passes
 * maxResponseMb, with the error to end the send with; the SDK only sees the body cut off, and
 * would wait on (or reconnect an event stream), so the caller stops the request with it.
 */
export function httpTransport(which: 'streamableHttp' | 'sse', prepared: PreparedRequest, context: SendContext, onTooLarge: (error: SendError) => void): Transport {
  const headers: Record<string, string> = {};
  for (const { name, value } of prepared.headers) {
    if (OWN_HEADERS.has(name.toLowerCase())) continue;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  // Ferry's pools (and so verifyTls, its limits and the run's proxy, or none with settings.proxy: false), not the global fetch.
  // undici's fetch would refuse the Fetch standard's "bad ports" (fetch-on.ts).
  const send = preparedFetch(prepared, context);
  const again = prepared.signEachHop;
  const url = new URL(prepared.url);
  // A request whose answer ended without it fails at once (the SDK waits on); an HTTP+SSE stream that ends, ends the session.
  const watch = new AnswerWatch(url.host, (message) => transport.onmessage?.(message));
  const fetch = (async (to: string | URL, init?: RequestInit) => {
    // A signing auth signs each request of the session for its own method, URL and body (with its
    // own nonce and time): the POSTs (initialize, notifications, the call), the event stream's GET,
    // the session's DELETE, and HTTP+SSE's POSTs to the endpoint the server names.
    const sent = again ? await signedRequest(again, new URL(to), init) : { url: to, init };
    const method = (init?.method ?? 'GET').toUpperCase();
    const ids = method === 'POST' ? watch.sent(init?.body) : [];
    const answer = limitedResponse(await send(sent.url, sent.init), context.maxResponseMb, () => onTooLarge(answerTooLarge(to, context.maxResponseMb)));
    // Refusals are read and said by the SDK.
    if (!answer.ok || method === 'DELETE') return answer;
    if (which === 'sse') return method === 'GET' ? watch.stream(answer, () => void transport.close()) : answer;
    await watch.refuseOther(answer, ids);
    return watch.answer(answer, ids);
  }) as unknown as typeof globalThis.fetch;
  const transport: Transport = which === 'sse' ? new SSEClientTransport(url, { requestInit: { headers }, fetch }) : new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch });
  return transport;
}

function answerTooLarge(url: string | URL, maxResponseMb: number): SendError {
  return new SendError(`the MCP server at ${new URL(url).host} sent an answer larger than ${maxResponseMb} MB (maxResponseMb), so Ferry stopped reading it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`, 'tooLarge');
}

/** The SDK's request to `url` signed afresh (sign-hop.ts): the URL and init to send. */
async function signedRequest(again: NonNullable<PreparedRequest['signEachHop']>, url: URL, init: RequestInit | undefined): Promise<{ url: URL; init: RequestInit }> {
  const method = (init?.method ?? 'GET').toUpperCase();
  const headers = [...new Headers(init?.headers).entries()];
  // The SDK sends its JSON-RPC messages as text.
  const bytes = typeof init?.body === 'string' ? Buffer.from(init.body, 'utf8') : undefined;
  const body: PreparedBody = bytes ? { kind: 'bytes', source: 'json', bytes, isText: true } : { kind: 'none' };
  const couldNotSign = (reason: string) => new SendError(`the MCP ${method} to ${url.host}${url.pathname} could not be signed: ${reason}`, 'other');
  const signed = await (await hopSigner()).signHop(again, method, url, headers, bytes, body, couldNotSign);
  return { url: signed.url, init: { ...init, headers: signed.headers, ...(signed.body ? { body: signed.body.toString('utf8') } : {}) } };
}

/** How long leaving waits for the server to end a session. */
const END_SESSION_MS = 2000;

/**
 * Streamable HTTP: tells the server the session is over (DELETE), as the MCP spec asks of a client
 * that leaves, so a stateful server does not keep one session per request sent. A server that does
 * not support it (405) or does not answer within `END_SESSION_MS` is left as it is.
 */
export async function endSession(transport: Transport | undefined): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || !transport.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, END_SESSION_MS)));
  await Promise.race([transport.terminateSession().catch(() => {}), waited]);
  clearTimeout(timer);
}

/** The program as the allow-list knows it. */
export function programSpec(prepared: PreparedRequest, options: McpOptions, workspaceRoot: string): ProgramSpec {
  const env: Record<string, string> = {};
  for (const row of options.env) if (row.enabled && row.key.trim() !== '') env[row.key.trim()] = row.value;
  return { command: prepared.url.trim(), cwd: path.resolve(workspaceRoot, options.cwd.trim() || '.'), env };
}

/** A program whose command could not be found (spawn's ENOENT): said once for sends, live sessions and listings. */
export function programNotFound(where: string): SendError {
  return new SendError(`could not start the program ${where}: the command was not found; check its name, or give its full path (it is looked up on this computer's PATH, without a shell).`, 'other');
}

/**
 * Why connecting failed, said once for live sessions and listings: a program not found, the
 * connection's own words (refused, reset…), else the server did not initialize.
 */
export function connectFailed(error: unknown, chosen: string, where: string): SendError {
  if (error instanceof SendError) return error;
  const code = systemCode(error);
  if (chosen === 'stdio' && code === 'ENOENT') return programNotFound(where);
  return connectionErrorByCode(code, where, innermostMessage(error)) ?? new SendError(`the MCP server ${where} did not initialize: ${errorLine(error)}.`, 'protocol');
}

export interface StartedProgram {
  transport: StdioClientTransport;
  /** The program's stderr so far (the first 64 KB), for the report. */
  stderr(): string;
  /** Why the first line the program wrote to stdout that is not a JSON-RPC message was refused, if one was. */
  strayOutput(): string | undefined;
  /** How the program ended, once it has (`exited with code 3`, `was killed by SIGKILL`, `… in the middle of a message`). */
  ended(): string | undefined;
}

const STDERR_KEPT = 64 * 1024;

/** How long a program whose stdout ended may take to exit before it is taken as hung. */
const STDOUT_END_GRACE_MS = 500;

/**
 * Starts the program once the policy allows it; its stderr is kept. `stop`: told, with the error
 * to end the send with, when the program's standard output (all of it, as HTTP+SSE's one stream
 * is counted) passes maxResponseMb (the SDK then stops the program), or when the program closed
 * its standard output and runs on.
 */
export async function stdioTransport(program: ProgramSpec, context: SendContext, stop: (error: SendError) => void): Promise<StartedProgram> {
  const allowed = context.programs ? await context.programs.allow(program) : false;
  if (!allowed) throw programRefused(program, context.workspaceRoot, context.face);
  const [command, ...args] = commandWords(program.command);
  if (!command) throw new SendError('the command line is empty; give the program that starts the MCP server.', 'other');
  // A start folder that is not there made the spawn fail as ENOENT, read as a command not found.
  // The entry itself (a symbolic link is not followed), or undefined when nothing is there.
  const folder = await lstat(program.cwd).catch(() => undefined);
  if (!folder?.isDirectory()) {
    const shown = path.relative(context.workspaceRoot, program.cwd) || '.';
    throw new SendError(`could not start the program "${program.command}": its start folder ${shown} (mcp.cwd) ${!folder ? 'does not exist' : folder.isSymbolicLink() ? 'is a symbolic link, which Ferry does not follow' : 'is not a folder'}; create it, or fix mcp.cwd (a folder relative to the workspace folder).`, 'other');
  }
  const transport = new StdioClientTransport({ command, args, cwd: program.cwd, env: { ...getDefaultEnvironment(), ...program.env }, stderr: 'pipe' });
  // The SDK reads stdout into this field (private in its types): ours keeps to maxResponseMb. An
  // SDK that renamed it must fail here (and in the tests), not leave the program unbounded.
  const inner = transport as unknown as { _readBuffer?: unknown };
  if (!inner._readBuffer) throw new Error('@modelcontextprotocol/sdk: StdioClientTransport has no _readBuffer to bound (stdout-buffer.ts)');
  const stdout = new BoundedStdoutBuffer(maxResponseBytes(context.maxResponseMb));
  inner._readBuffer = stdout;
  // The SDK says only 'Connection closed' when the program ends: its exit code or signal is kept
  // to say how (its process is private too, there once started).
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const child = (transport as unknown as { _process?: ChildProcess })._process;
    child?.once('exit', (code, signal) => (exit = { code, signal }));
    // A program that closes its stdout but runs on can answer nothing: the SDK would wait for it
    // to exit (to the time limit, or forever). Its exit usually follows its stdout's end at once.
    child?.stdout?.once('end', () => {
      setTimeout(() => {
        if (!exit && child.exitCode === null && child.signalCode === null) stop(new SendError(`the MCP server "${program.command}" closed its standard output but kept running, so no answer could come; Ferry stopped it.`, 'protocol'));
      }, STDOUT_END_GRACE_MS).unref();
    });
  };
  // Read when the SDK says the connection closed: by then all the program wrote was read.
  const ended = () => exit && `${exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`}${stdout.partial ? ' in the middle of a message' : ''}`;
  let text = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (text.length < STDERR_KEPT) text += chunk.toString('utf8').slice(0, STDERR_KEPT - text.length);
  });
  // The SDK drops a stdout line that is not JSON-RPC (a banner, a log line) and waits on: kept, so
  // a server that then never answers is said to have written the wrong thing, not just to be slow.
  // The client chains this handler when it connects.
  let stray: string | undefined;
  transport.onerror = (error: Error) => {
    if (error instanceof OutputTooLarge) stop(outputTooLarge(program, context.maxResponseMb));
    else if (error instanceof SyntaxError) stray ??= error.message;
    else if (/ZodError/.test(error.name)) stray ??= 'a JSON value that is not a JSON-RPC message';
  };
  return { transport, stderr: () => text, strayOutput: () => stray, ended };
}

function outputTooLarge(program: ProgramSpec, maxResponseMb: number): SendError {
  return new SendError(`the MCP server "${program.command}" sent more than ${maxResponseMb} MB (maxResponseMb) on its standard output, so Ferry stopped reading it and stopped the program; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`, 'tooLarge');
}
