/**
 * Where a gRPC request's calls go: its `method` read as the call it names (split into service and
 * method, and the HTTP/2 path the call goes to) and the authority of its URL, as grpc-js sends them
 * (what auth signs). Free of grpc-js: the kind's module loads it when a gRPC request is signed, and
 * the call (call.ts, descriptors.ts) when it is sent.
 */
import { SendError } from '../send-error.js';

/** Splits `package.Service/Method` (also `/package.Service/Method` and `package.Service.Method`). */
export function splitMethod(method: string): { service: string; method: string } {
  const trimmed = method.trim().replace(/^\//, '');
  const slash = trimmed.lastIndexOf('/');
  const cut = slash >= 0 ? slash : trimmed.lastIndexOf('.');
  if (cut <= 0 || cut === trimmed.length - 1) {
    throw new SendError(`the method "${method}" is not package.Service/Method (for example helloworld.Greeter/SayHello).`, 'other');
  }
  return { service: trimmed.slice(0, cut), method: trimmed.slice(cut + 1) };
}

/**
 * The channel's target and so the `:authority` grpc-js sends for `url`: host and port, the scheme's
 * (80 for grpc://, 443 for grpcs://) when none is typed, as grpc-js adds it (grpcurl needs it typed).
 */
export function callAuthority(url: URL): string {
  return url.port ? url.host : `${url.host}:${defaultPort(url)}`;
}

/** The URL a call to `path` is signed for: `url` with the authority grpc-js sends and that path (the URL's when undefined). */
export function callUrl(url: URL, path: string | undefined): URL {
  const wire = new URL(url.href);
  if (!url.port) wire.port = defaultPort(url);
  if (path !== undefined) wire.pathname = path;
  return wire;
}

const defaultPort = (url: URL) => (url.protocol === 'grpcs:' ? '443' : '80');

/** The HTTP/2 `:path` of the call `method` names (`/package.Service/Method`); undefined when it names none. */
export function callPath(method: string): string | undefined {
  try {
    const split = splitMethod(method);
    return `/${split.service}/${split.method}`;
  } catch (error) {
    if (error instanceof SendError) return undefined;
    throw error;
  }
}
