/**
 * A request serialized once into the bytes the plain-HTTP client writes. Targets without
 * per-request values are serialized once per generator; others once per request. Names and
 * values that could split the request (CR, LF, NUL) are refused, as undici refuses them.
 */

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSAFE = /[\r\n\0]/;
/** Framing is the client's: these come from the body and the keepAlive option. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);
const SENDS_LENGTH = new Set(['POST', 'PUT', 'PATCH']);

export class BadRequestValue extends Error {
  override name = 'BadRequestValue';
}

/** `headers`: flat [name, value, name, value…]. */
export function requestBytes(method: string, url: URL, headers: readonly string[], body: Uint8Array | undefined, keepAlive: boolean): Buffer {
  if (!TOKEN.test(method)) throw new BadRequestValue(`bad method "${method}"`);
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  let host = false;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    if (!TOKEN.test(name) || UNSAFE.test(value)) throw new BadRequestValue(`bad header "${name.slice(0, 40)}"`);
    const lower = name.toLowerCase();
    if (FRAMING.has(lower)) continue;
    if (lower === 'host') host = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!host) head += `host: ${url.host}\r\n`;
  if (!keepAlive) head += 'connection: close\r\n';
  if (body && body.byteLength > 0) head += `content-length: ${body.byteLength}\r\n`;
  else if (SENDS_LENGTH.has(method)) head += 'content-length: 0\r\n';
  head += '\r\n';
  const start = Buffer.from(head, 'latin1');
  return body && body.byteLength > 0 ? Buffer.concat([start, body]) : start;
}
