/**
 * The wording of connection failures every kind shares (refused, unknown host, TLS, reset): one
 * line naming the address and what to do. Kinds whose library reports failures as text (gRPC's
 * status details, the MCP SDK's fetch errors) find the system code with `systemCode`.
 */
import { SendError } from './send-error.js';

const TLS_CODES = /SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH/;

/** The first system error code (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`…) in an error, its causes or a text. */
export function systemCode(error: unknown): string {
  for (let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[A-Z_0-9]+$/.test(e.code) && e.code.length > 3) return e.code;
    const text = typeof e.message === 'string' ? e.message : typeof e === 'string' ? e : '';
    const found = /\b(E[A-Z]{3,}|ERR_[A-Z_0-9]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_HAS_EXPIRED)\b/.exec(text);
    if (found) return found[1]!;
    if (/self[- ]signed certificate|unable to verify the first certificate|certificate has expired/i.test(text)) return 'DEPTH_ZERO_SELF_SIGNED_CERT';
  }
  return '';
}

/** A connection failure with `host` (host:port) as one line, or undefined when the code is not one. */
export function connectionError(code: string, host: string, detail = ''): SendError | undefined {
  if (code === 'ECONNREFUSED') return new SendError(`connection refused by ${host}: nothing is listening there. Is the server running, and is the port right?`, 'refused');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new SendError(`unknown host ${host.replace(/:\d+$/, '')}: the name could not be resolved. Check the URL and the environment's variables.`, 'unknownHost');
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new SendError(`${host} cannot be reached from this computer (${code}).`, 'refused');
  if (TLS_CODES.test(code)) {
    const what = detail.split('\n')[0]!.trim();
    return new SendError(
      `TLS error with ${host}: ${what ? `${what} ` : ''}(${code}). To send anyway, turn off TLS verification (settings.verifyTls: false, or -k/--insecure).`,
      'tls',
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') return new SendError(`the connection to ${host} was closed before a complete answer arrived (${code}).`, 'reset');
  return undefined;
}
