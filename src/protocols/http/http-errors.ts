/** Network failures of one send as messages for people: what happened, where, what to do. */

import { connectionError } from '../connection-errors.js';
import { SendError } from '../send-error.js';
import { proxyError } from './proxy-errors.js';

/**
 * The response body passed the `maxResponseMb` application setting. `decodedFrom`: the
 * Content-Encoding when it was the decoded body that grew past it (a compression bomb).
 */
export function responseTooLarge(maxResponseMb: number, decodedFrom?: string): SendError {
  const what = decodedFrom ? `the response body, once its Content-Encoding (${decodedFrom}) is undone, is larger than` : 'the response body is larger than';
  return new SendError(
    `${what} ${maxResponseMb} MB (maxResponseMb), so Ferry stopped reading it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`,
    'tooLarge',
  );
}

/**
 * Turns an error from the socket or undici into an SendError naming the URL. `httpVersion`: the
 * setting the send used; `proxy`: the proxy it went through, whose own failures are worded apart.
 */
export function describeNetworkError(error: unknown, url: URL, httpVersion?: string, proxy?: string, clientCertificate?: string): SendError {
  if (error instanceof SendError) return error;
  const viaProxy = proxy ? proxyError(error, proxy, url) : undefined;
  if (viaProxy) return viaProxy;
  const certificate = clientCertificateError(error, url, clientCertificate);
  if (certificate) return certificate;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException; reason?: string };
  const code = err.code ?? err.cause?.code ?? '';
  const host = url.host;
  const useAuto = 'Set settings.httpVersion to auto or http1 for this request.';
  if (code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' || /no application protocol/i.test(err.message ?? '')) {
    return new SendError(`${host} does not speak HTTP/2: its TLS handshake offered no h2 protocol, and httpVersion is http2. ${useAuto}`, 'protocol');
  }
  if (/FRAME_SIZE_ERROR/.test(err.message ?? '')) {
    // The server reset the stream: it could not send a frame it built, most often response headers
    // over its own limit (Node's HTTP/2 server refuses to send more than 64 KB of them).
    return new SendError(
      `${host} reset the HTTP/2 stream with FRAME_SIZE_ERROR instead of answering: the server could not send something it built, most often response headers larger than its own HTTP/2 limit. This is on the server's side (it would have to send smaller headers or raise its limit); over HTTP/1.1 (settings.httpVersion: http1) Ferry reads up to 1 MB of headers.`,
      'protocol',
    );
  }
  if (/too many CONTINUATION frames/i.test(err.message ?? '')) {
    // Node's HTTP/2 layer reads a header block in at most 8 CONTINUATION frames (a guard against
    // CONTINUATION floods), so about 144 KB of compressed headers at the default frame size.
    return new SendError(
      `${host} sent HTTP/2 response headers larger than Ferry reads over HTTP/2 (about 144 KB after compression, more than 8 CONTINUATION frames). Over HTTP/1.1 (settings.httpVersion: http1) Ferry reads up to 1 MB of headers.`,
      'protocol',
    );
  }
  if (httpVersion === 'http2' && url.protocol === 'http:' && code.startsWith('ERR_HTTP2')) {
    return new SendError(
      `${host} did not answer in HTTP/2 (${code}): over http:// with httpVersion http2, Ferry speaks HTTP/2 at once (prior knowledge), which a server that speaks only HTTP/1.1 cannot read. ${useAuto}`,
      'protocol',
    );
  }
  const shared = connectionError(error, host, url.hostname);
  // A TLS server drops a plaintext request without a word: the usual cause of a reset at once on
  // http:// (as the WebSocket, Socket.IO and MCP kinds say it).
  if (shared?.kind === 'reset' && url.protocol === 'http:') return new SendError(`${shared.message.replace(/\.$/, '')}; if it is a TLS server, use https://.`, 'reset');
  if (shared) return shared;
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') {
    return new SendError(`${host} answered with response headers larger than Ferry reads (1 MB in all).`, 'protocol');
  }
  if (code.startsWith('ERR_HTTP2') || code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_') || code === 'UND_ERR_INFO') {
    return new SendError(`${host} answered something that is not valid HTTP: ${err.message} (${code}).`, 'protocol');
  }
  return new SendError(`request to ${host} failed: ${err.message ?? String(error)}${code ? ` (${code})` : ''}.`, 'other');
}

/**
 * A server that ends the TLS handshake with an alert about the client's certificate (TLS 1.2
 * handshake failure, TLS 1.3 certificate required, bad or unknown certificate): it may want a
 * client certificate, or not accept the one sent.
 */
export function clientCertificateError(error: unknown, url: URL, sent?: string): SendError | undefined {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if ((err?.code ?? err?.cause?.code) === 'FERRY_CLIENT_CERTIFICATE') return new SendError(err.message ?? err.cause?.message, 'tls');
  const code = err?.code ?? err?.cause?.code ?? '';
  const message = `${err?.message ?? ''} ${code}`;
  if (!/CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|ACCESS_DENIED|alert (certificate required|handshake failure|bad certificate|unknown ca)/i.test(message)) return undefined;
  const alert = (/ALERT_([A-Z_]+)/.exec(message)?.[1] ?? 'handshake failure').toLowerCase().replace(/_/g, ' ');
  if (sent) {
    return new SendError(`TLS error with ${url.host}: the server refused the handshake (${alert}) after Ferry sent the client certificate ${sent}; it does not accept that certificate. Check the clientCertificates setting.`, 'tls');
  }
  return new SendError(
    `TLS error with ${url.host}: the server refused the handshake (${alert}); it may need a client certificate. Set one with ferry config set clientCertificates '[{"host":"${url.hostname}","certPath":"…","keyPath":"…"}]'.`,
    'tls',
  );
}
