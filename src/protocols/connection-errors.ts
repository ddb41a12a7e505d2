/**
 * Connection failures every kind words the same way (refused, unknown host, TLS, reset, timeout,
 * unreachable): HTTP, WebSocket, Socket.IO, MQTT, TCP, UDP, DNS, gRPC and MCP name the address
 * and say what to do. Kinds add their own protocol errors around it.
 */
import { SendError } from './send-error.js';

/** Certificate problems that turning off `verifyTls` gets past. */
export const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);

export type ErrnoLike = NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };

/**
 * The HTTP parser's words (llhttp's, in undici and node:http) for a header name or value holding a
 * character HTTP does not allow: "Invalid header token" is a response's header name.
 */
const HEADER_CHAR = /Invalid header (?:(?:value|field) char|token)/i;

/**
 * The text of an HTTP parser error from undici that carries no code, or undefined. undici 7 loses
 * the parser's code (it looks the number up in a table keyed by name), so only the text says what.
 */
function codelessParserError(error: unknown): string | undefined {
  for (const e of errorChain(error, 3) as Array<{ name?: unknown; code?: unknown; message?: unknown }>) {
    if (e?.name === 'HTTPParserError' && !e.code && typeof e.message === 'string') return e.message;
  }
  return undefined;
}

/** The error code of a socket error, or of the error it wraps. */
export function errorCode(error: unknown): string {
  const err = error as ErrnoLike;
  const code = err?.code ?? err?.cause?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * The shared wording for a failure to reach `host` (`host:port` as typed), or undefined when the
 * error is not one of these (the kind then words it itself). `hostname`: the name alone.
 */
export function connectionError(error: unknown, host: string, hostname: string): SendError | undefined {
  const err = error as ErrnoLike;
  const parserText = errorCode(error) ? undefined : codelessParserError(error);
  // The parser's code for a header character, which the text names; any other parser text stays codeless.
  const code = errorCode(error) || (parserText && HEADER_CHAR.test(parserText) ? 'HPE_INVALID_HEADER_TOKEN' : '');
  const message = parserText ?? err?.message ?? String(error);
  if (code === 'ECONNREFUSED') {
    return new SendError(`connection refused by ${host}: nothing is listening there. Is the server running, and is the port right?`, 'refused');
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new SendError(`unknown host ${hostname}: the name could not be resolved. Check the URL and the environment's variables.`, 'unknownHost');
  }
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /certificate|ssl|tls/i.test(message)) {
    const notTls = notTlsReason(`${message} ${code.replace(/_/g, ' ')}`);
    if (notTls) {
      return new SendError(`TLS error with ${host}: the server does not answer TLS (${notTls.toLowerCase()}); it may be a plaintext server: use the URL's scheme without TLS (http://, ws://, mqtt://, tcp://…) or check the port.`, 'tls');
    }
    const insecure = TLS_CODES.has(code) ? ' To send anyway, turn off TLS verification (settings.verifyTls: false, or -k/--insecure).' : '';
    // OpenSSL's own text can run over several lines; its first says what happened.
    const what = message.split('\n')[0]!.trim();
    return new SendError(`TLS error with ${host}: ${what} (${code || 'TLS'}).${insecure}`, 'tls');
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return new SendError(`the connection to ${host} was closed before a complete response arrived (${code}).`, 'reset');
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return new SendError(`could not connect to ${host}: ${message}.`, 'timeout');
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new SendError(`${host} cannot be reached from this computer (${code}).`, 'refused');
  }
  // Endless or huge headers: Ferry's pools (undici) read 1 MB of them, node:http (a WebSocket
  // upgrade, Socket.IO's long-polling) Node's 16 KB.
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') {
    return new SendError(`${host} answered with response headers larger than Ferry reads (${code === 'HPE_HEADER_OVERFLOW' ? "16 KB, Node's limit for this connection" : '1 MB in all'}); check the URL's port.`, 'protocol');
  }
  // A header holding a control character: an HTTP server at the right port wrote a bad header
  // (an id made of raw random bytes, such as an MCP session id), so the port is not the thing to check.
  if (code === 'HPE_INVALID_HEADER_TOKEN') {
    const words = HEADER_CHAR.exec(message)?.[0] ?? 'Invalid header char';
    return new SendError(
      `${host} answered with a response header holding a character HTTP does not allow in one, such as a control character (${words}, ${code}); the server must send its header names and values as visible text. Fix the server: a session id or token it makes from raw random bytes is the usual cause.`,
      'protocol',
    );
  }
  // Node's HTTP parser refused the answer (a WebSocket upgrade, Socket.IO's or MCP's requests):
  // the port most often belongs to something else.
  if (code.startsWith('HPE_') || parserText) {
    return new SendError(`${host} answered something that is not valid HTTP: ${message.split('\n')[0]!.trim()}${code ? ` (${code})` : ''}; check the URL's port.`, 'protocol');
  }
  return undefined;
}

/** `connectionError` for a URL: its `host:port` and host name. */
export function describeConnectionError(error: unknown, url: URL): SendError | undefined {
  return connectionError(error, url.host, url.hostname);
}

/** Any failure while connecting: a connection error as above, else one line with the library's own words. */
export function describeSocketError(error: unknown, url: URL, doing = 'connecting to'): SendError {
  if (error instanceof SendError) return error;
  const known = describeConnectionError(error, url);
  if (known) return known;
  const code = errorCode(error);
  const message = ((error as Error)?.message ?? String(error)).split('\n')[0]!.trim();
  return new SendError(`${doing} ${url.host} failed: ${message}${code ? ` (${code})` : ''}.`, 'other');
}

/**
 * The first system error code (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`…) in an error, its
 * causes or its text: for libraries that report failures as text (gRPC's status details, the MCP
 * SDK's fetch errors).
 */
export function systemCode(error: unknown): string {
  for (const e of errorChain(error) as Array<{ code?: unknown; message?: unknown }>) {
    if (typeof e.code === 'string' && /^[A-Z_0-9]+$/.test(e.code) && e.code.length > 3) return e.code;
    const text = typeof e.message === 'string' ? e.message : typeof e === 'string' ? e : '';
    const found = /\b(E[A-Z]{3,}|ERR_[A-Z_0-9]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_HAS_EXPIRED)\b/.exec(text);
    if (found) return found[1]!;
    if (/self[- ]signed certificate|unable to verify the first certificate|certificate has expired/i.test(text)) return 'DEPTH_ZERO_SELF_SIGNED_CERT';
    // undici's parser error keeps no code once the MCP SDK has it as text: its text says it.
    if (HEADER_CHAR.test(text)) return 'HPE_INVALID_HEADER_TOKEN';
    if (/does not match the HTTP\/1\.1 protocol/i.test(text)) return 'HPE_INVALID_CONSTANT';
  }
  return '';
}

/** The words of the innermost cause of an error (fetch's `fetch failed` hides what failed in its causes). */
export function innermostMessage(error: unknown): string {
  let message = String((error as Error)?.message ?? error);
  for (const e of errorChain(error, 6).slice(1)) {
    if (typeof (e as Error).message === 'string' && (e as Error).message) message = (e as Error).message;
  }
  return message;
}

/**
 * The error and the errors it wraps (`cause`), outermost first, at most `depth` of them: fetch,
 * undici and the MCP SDK wrap the failure that says what happened in their own.
 */
export function errorChain(error: unknown, depth = 5): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < depth; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** `connectionError` for a code found by `systemCode`, with the library's text as the detail. */
export function connectionErrorByCode(code: string, host: string, detail = ''): SendError | undefined {
  if (!code) return undefined;
  return connectionError({ code, message: detail }, host, host.replace(/:\d+$/, ''));
}

/** OpenSSL's words for a peer that answered the TLS handshake with something that is not TLS, when `text` has them. */
export function notTlsReason(text: string): string | undefined {
  return /wrong version number|packet length too long|unknown protocol/i.exec(text)?.[0];
}

/**
 * What to check when an HTTP handshake (a WebSocket upgrade, Socket.IO's) is answered with a
 * gateway status: a reverse proxy's (nginx's 502 with the server behind it down), so the path,
 * auth and headers are not the problem. Undefined for other statuses.
 */
export function gatewayHint(status: number): string | undefined {
  if (status !== 502 && status !== 503 && status !== 504) return undefined;
  return `a proxy in front of the server (such as nginx) answers ${status} when the server behind it is down or does not answer: check that it runs, and the proxy's upstream`;
}
