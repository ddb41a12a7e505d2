/** Sorting a failed send into the error kinds of a load result (issue 14): timeout, refused, reset, TLS, other. */
import type { ErrorKind } from './wire.js';

export class LoadTimeout extends Error {
  override name = 'LoadTimeout';
}

export function errorKind(error: unknown): ErrorKind {
  if (error instanceof LoadTimeout) return 'timeout';
  const codes: string[] = [];
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') codes.push(e.code);
  }
  for (const code of codes) {
    if (code === 'ECONNREFUSED') return 'refused';
    if (/TIMEOUT|ETIMEDOUT/.test(code)) return 'timeout';
    if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code)) return 'tls';
  }
  for (const code of codes) if (/ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|ECONNABORTED/.test(code)) return 'reset';
  return 'other';
}
