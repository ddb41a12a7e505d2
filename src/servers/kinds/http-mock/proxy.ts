/**
 * `fallback: proxy` (spec 2.11): an unmatched request goes to the real backend at `proxyUrl`,
 * streamed both ways. The client's headers pass through (except those that belong to one
 * connection), the backend's answer comes back as sent. HTTP/2 clients are forwarded over HTTP/1.1.
 */
import http from 'node:http';
import https from 'node:https';
import type { AnyRequest, AnyResponse, HeaderValues } from '../../http-types.js';
import { answerable, forgetStatusMessage, plainTextHeaders } from '../../http-types.js';
import { findPlaceholders } from '../../../template/index.js';

/** Headers that describe one connection, never forwarded (RFC 9110 7.6.1), plus HTTP/2's own. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'proxy-authenticate', 'proxy-authorization', 'host', 'http2-settings',
]);

const agents = {
  http: new http.Agent({ keepAlive: true }),
  https: new https.Agent({ keepAlive: true }),
};

export interface ForwardOutcome {
  status: number;
  responseBytes: number;
  failed: boolean;
}

/** The name of a placeholder the rendering left as written (a variable the server does not have), if any. */
function leftPlaceholder(text: string): string | undefined {
  return findPlaceholders(text)[0]?.name;
}

/** Checks a rendered `proxyUrl`; returns the URL or an explanation. */
export function parseBackendUrl(text: string): URL | string {
  const trimmed = text.trim();
  if (trimmed === '') return 'proxyUrl is empty; give the base URL of the real backend, e.g. https://api.example.com';
  const left = leftPlaceholder(trimmed);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    if (left !== undefined) return `proxyUrl "${trimmed}" is not a URL: ${notDefined(left)}`;
    return `proxyUrl "${trimmed}" is not a URL; give the base URL of the real backend, e.g. https://api.example.com`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `proxyUrl "${trimmed}" must start with http:// or https://`;
  // `http://{{host}}:8080` parses (braces may be in a host name) and would fail every forwarded request.
  const inHost = leftPlaceholder(decodeURIComponent(url.hostname));
  if (inHost !== undefined) return `proxyUrl "${trimmed}" still holds {{${inHost}}} where the host should be: ${notDefined(inHost)}`;
  return url;
}

function notDefined(name: string): string {
  return `the variable ${name} is not defined (servers fill the environment's and ferry.yaml's variables, never secret ones); define it there or give it with ferry serve --var ${name}=VALUE`;
}

/**
 * Forwards one request; `body` is the already-read body, or undefined to stream it from `req`.
 * `decorate` may add headers to the backend's answer (CORS) before it goes to the client.
 */
export function forward(
  req: AnyRequest,
  res: AnyResponse,
  backend: URL,
  body: Buffer | undefined,
  done: (outcome: ForwardOutcome) => void,
  decorate?: (headers: HeaderValues) => void,
): void {
  const url = req.url ?? '/';
  const basePath = backend.pathname.endsWith('/') ? backend.pathname.slice(0, -1) : backend.pathname;
  const target = new URL(backend.origin);
  const headers: Record<string, string | string[]> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (lower.startsWith(':') || HOP_BY_HOP.has(lower)) continue;
    const previous = headers[lower];
    headers[lower] = previous === undefined ? raw[i + 1]! : Array.isArray(previous) ? [...previous, raw[i + 1]!] : [previous, raw[i + 1]!];
  }
  headers.host = target.host;
  if (body !== undefined) {
    headers['content-length'] = String(body.length);
  }
  const failureHeaders = (text: string): HeaderValues => {
    const headers = plainTextHeaders(text);
    decorate?.(headers);
    return headers;
  };
  const client = backend.protocol === 'https:' ? https : http;
  const out = answerable(res);
  let finished = false;
  let sentStatus = 0;
  let responseBytes = 0;
  const finish = (outcome: ForwardOutcome) => {
    if (finished) return;
    finished = true;
    done(outcome);
  };
  const upstream = client.request(
    {
      protocol: target.protocol,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port,
      method: req.method,
      path: basePath + (url.startsWith('/') ? url : `/${url}`),
      headers,
      agent: backend.protocol === 'https:' ? agents.https : agents.http,
    },
    (answer) => {
      const status = answer.statusCode ?? 502;
      // Node's values (a repeated header joined, Set-Cookie kept apart) under the backend's
      // spelling of each name (its first), as the backend sent it.
      const back: HeaderValues = {};
      const values = answer.headers;
      const raw = answer.rawHeaders;
      const seen = new Set<string>();
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!;
        const lower = name.toLowerCase();
        if (seen.has(lower)) continue;
        seen.add(lower);
        const value = values[lower];
        if (value === undefined) continue;
        if (HOP_BY_HOP.has(lower)) continue; // Transfer-Encoding too: Node frames the answer itself
        back[name] = value;
      }
      decorate?.(back);
      try {
        out.writeHead(status, back);
        sentStatus = status;
      } catch {
        forgetStatusMessage(req, res);
        const text = "Ferry could not pass on the backend's answer: its headers are not valid here.\n";
        out.writeHead(502, failureHeaders(text));
        out.end(text);
        answer.destroy();
        finish({ status: 502, responseBytes: 0, failed: true });
        return;
      }
      answer.on('data', (chunk: Buffer) => {
        responseBytes += chunk.length;
        if (!out.write(chunk)) {
          answer.pause();
          (res as NodeJS.EventEmitter).once('drain', () => answer.resume());
        }
      });
      answer.on('end', () => {
        out.end();
        finish({ status, responseBytes, failed: false });
      });
      answer.on('error', () => {
        (res as { destroy(): void }).destroy();
        finish({ status, responseBytes, failed: true });
      });
    },
  );
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (!out.headersSent) {
      const text = `Ferry could not reach the backend ${backend.origin} (proxyUrl): ${error.code ?? error.message}.\n`;
      out.writeHead(502, failureHeaders(text));
      out.end(text);
      finish({ status: 502, responseBytes: Buffer.byteLength(text), failed: true });
    } else {
      (res as { destroy(): void }).destroy();
      finish({ status: 0, responseBytes: 0, failed: true });
    }
  });
  res.on('close', () => {
    if (finished) return;
    upstream.destroy(); // the client went away: stop talking to the backend too
    finish({ status: sentStatus, responseBytes, failed: true });
  });
  if (body !== undefined) {
    upstream.end(body);
  } else {
    (req as NodeJS.ReadableStream).pipe(upstream);
  }
}
