/**
 * The HTTP client (spec 2.7): sends a PreparedRequest over undici with the request's settings:
 * HTTP/1.1, HTTP/2 (ALPN or cleartext prior knowledge), redirects, a whole-request timeout,
 * TLS verification, decoding of gzip/deflate/br/zstd, the cookie jar, Digest and NTLM answers, and the
 * response size limit (`maxResponseMb`, checked as the body streams in and again as it is decoded).
 * The result keeps status, headers in wire order (repeated ones too), body bytes, sizes,
 * the remote address and timings.
 */
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { PreparedRequest, PreparedSettings } from '../../request/prepared.js';
import { DEFAULT_SETTINGS } from '../../model/index.js';
import { digestAuthorization, pickDigestChallenge, type DigestNonce } from './digest.js';
import { randomBytes } from 'node:crypto';
import { ntlmAuthenticate, ntlmChallenge, ntlmNegotiate } from './ntlm.js';
import { Deadline } from '../deadline.js';
import { peerKey, reportingConnection, type ConnectionTimings } from './http-agents.js';
import { describeNetworkError, responseTooLarge } from './http-errors.js';
import { SendError } from '../send-error.js';
import type { HttpResult, HttpSendContext } from './types.js';
import { encodeMultipart, withMultipartType } from './multipart.js';
import { defaultHeaders } from './default-headers.js';
import { headersSent, type SentHead } from './sent-head.js';
import { undiciAgent } from './undici-parts.js';
import { exchange, requestTarget, values, type BodyLimit } from './http-exchange.js';
import { loadOnce } from '../../support/load-once.js';
import { maxResponseBytes } from '../response-limit.js';

export { HttpAgents, type HostLookup } from './http-agents.js';
export { CookieStore } from './cookie-jar.js';
export { SendError, type SendErrorKind } from '../send-error.js';
/** For load-test captures (load/generator.ts), which read answers decoded as this client does. */
export type { HttpResult, HttpSendContext, HttpTimings, StreamReader } from './types.js';

// Loaded with the first same-origin redirect of a signed request; a send without one never loads it.
const hopSigner = loadOnce(() => import('../sign-hop.js'));
// Loaded at the first encoded body (most answers of a short run have none); shared with the fetch of MCP, OAuth 2.0 and Socket.IO.
const contentCoding = loadOnce(() => import('../../support/content-coding.js'));

/** `headers` with its Authorization replaced by `value` (or taken off without one): one per request. */
function withAuthorization(headers: Array<[string, string]>, value: string | undefined): Array<[string, string]> {
  const others = headers.filter(([name]) => name.toLowerCase() !== 'authorization');
  if (value !== undefined) others.push(['Authorization', value]);
  return others;
}

/** Headers undici computes itself or refuses; an imported request may still carry them. */
const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'content-length', 'expect', 'te']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);


/** Loads undici's parts a send uses (undici-parts.ts), ahead of the first send. */
export function loadUndici(): void {
  undiciAgent();
}

export async function sendHttp(prepared: PreparedRequest, ctx: HttpSendContext): Promise<HttpResult> {
  // Without the request's own settings, the defaults (the proxy field is the request's choice only).
  const settings: PreparedSettings = prepared.settings ?? (DEFAULT_SETTINGS as unknown as PreparedSettings);
  if (settings.httpVersion === 'http3') {
    throw new SendError('HTTP/3 is not supported yet: set settings.httpVersion to auto, http1 or http2 for this request.', 'unsupported');
  }
  const direct = settings.proxy === false;
  // NTLM authenticates the connection, which HTTP/2 shares between requests (IIS resets such a
  // stream with HTTP_1_1_REQUIRED): it goes over HTTP/1.1 whatever httpVersion says, as curl does.
  const httpVersion = prepared.ntlm ? 'http1' : settings.httpVersion;
  const dispatcher = ctx.agents.get(settings.verifyTls, httpVersion, direct);
  const started = performance.now();
  const report: ConnectionTimings = {};

  let url = new URL(prepared.url);
  const firstOrigin = url.origin;
  let method = prepared.method;
  let headers = prepared.headers.filter((h) => !DROPPED_HEADERS.has(h.name.toLowerCase())).map((h) => [h.name, h.value] as [string, string]);
  let body: Buffer | undefined;
  if (prepared.body.kind === 'bytes') body = Buffer.from(prepared.body.bytes.buffer, prepared.body.bytes.byteOffset, prepared.body.bytes.byteLength);
  else if (prepared.body.kind === 'multipart') {
    const encoded = await encodeMultipart(prepared.body.parts);
    body = encoded.body;
    headers = withMultipartType(headers, encoded.contentType);
  }
  const defaults = defaultHeaders(headers, settings);
  headers.push(...defaults);
  const defaultNames = new Set(defaults.map(([name]) => name.toLowerCase()));
  // Every Cookie header of the request, as one line (RFC 6265 allows one), then the jar's.
  let userCookie = headers.filter(([name]) => name.toLowerCase() === 'cookie').map(([, value]) => value).filter(Boolean).join('; ');
  // That line goes where the request's first Cookie header was, as Postman sends it: before the
  // first of the headers that followed it still there (the list changes between hops).
  const firstCookie = headers.findIndex(([name]) => name.toLowerCase() === 'cookie');
  let cookieFollowers = userCookie && firstCookie >= 0 ? headers.slice(firstCookie + 1).filter(([name]) => name.toLowerCase() !== 'cookie') : [];
  headers = headers.filter(([name]) => name.toLowerCase() !== 'cookie');

  const maxResponseMb = ctx.maxResponseMb ?? DEFAULT_SETTINGS.maxResponseMb;
  const limit: BodyLimit = { maxMb: maxResponseMb, maxBytes: maxResponseBytes(maxResponseMb) };
  const deadline = new Deadline(settings.timeoutMs, ctx.signal);
  const redirects: Array<{ url: string; status: number }> = [];
  // Set once a redirect leaves the first origin: credentials are not sent again for the rest of the send.
  let leftOrigin = false;
  // Digest: one answer, and one more when the server says the nonce was stale (RFC 7616 3.3).
  let digestAnswers = 0;
  // A nonce this origin's server gave an earlier send is answered with at once; a 401 to it is
  // answered afresh. `digestSent`: the nonce the latest hop answered with, kept once it is taken.
  let digestSent: DigestNonce | undefined = prepared.digest ? ctx.agents.digestNonces.reuse(firstOrigin) : undefined;
  let digestReused = digestSent !== undefined;
  const digestAnswer = (nonce: DigestNonce) => digestAuthorization({
    challenge: nonce.challenge, username: prepared.digest!.username, password: prepared.digest!.password,
    method, uri: requestTarget(url), body: body ?? new Uint8Array(), nc: nonce.nc, cnonce: nonce.cnonce,
  });
  if (digestSent) headers = withAuthorization(headers, digestAnswer(digestSent));
  // NTLM: negotiate on the first send, answer the challenge once (same origin, same connection).
  let ntlmAnswered = !prepared.ntlm;
  if (prepared.ntlm) headers = withAuthorization(headers, ntlmNegotiate(prepared.ntlm));
  let sent: { headers: [string, string][]; cookie: Parameters<typeof headersSent>[3]; head: SentHead } = { headers, cookie: { value: '', inPlace: false }, head: {} };
  try {
    for (;;) {
      const jar = ctx.cookies?.cookieHeader(url.href) ?? '';
      const cookie = [userCookie, jar].filter(Boolean).join('; ');
      const at = userCookie ? headers.findIndex((header) => cookieFollowers.includes(header)) : -1;
      const hopHeaders: [string, string][] = !cookie ? headers : at < 0 ? [...headers, ['Cookie', cookie]] : [...headers.slice(0, at), ['Cookie', cookie], ...headers.slice(at)];
      const hop = await reportingConnection(report, () => exchange(dispatcher, url, method, hopHeaders, body, deadline, limit, ctx.streamBody));
      // The request's own Cookie line is one of its headers, in its place; the jar's alone comes last.
      const inPlace = userCookie !== '';
      sent = { headers: inPlace ? hopHeaders : headers, cookie: { value: cookie, inPlace }, head: hop.sentHead };
      const completedAt = performance.now();
      // undici frees an HTTP/1.1 connection for the next request one event-loop turn after the
      // response ends; sending sooner would open a second connection to the same origin.
      await new Promise((resolve) => setImmediate(resolve));
      ctx.cookies?.store(url.href, values(hop.rawHeaders, 'set-cookie'));
      if (digestSent) {
        if (hop.status !== 401) ctx.agents.digestNonces.remember(firstOrigin, digestSent);
        else if (digestReused) ctx.agents.digestNonces.refused(firstOrigin, digestSent.challenge, pickDigestChallenge(values(hop.rawHeaders, 'www-authenticate')));
        digestSent = undefined;
      }

      // The password answers only the origin the request was written for, never a redirect's target.
      if (hop.status === 401 && prepared.digest && digestAnswers < 2 && url.origin === firstOrigin) {
        const challenge = pickDigestChallenge(values(hop.rawHeaders, 'www-authenticate'));
        if (challenge && (digestAnswers === 0 || challenge.stale)) {
          digestAnswers++;
          digestSent = { challenge, nc: 1, cnonce: randomBytes(16).toString('hex') };
          headers = withAuthorization(headers, digestAnswer(digestSent));
          continue;
        }
      }

      if (hop.status === 401 && prepared.ntlm && !ntlmAnswered && url.origin === firstOrigin) {
        ntlmAnswered = true;
        const challenge = ntlmChallenge(values(hop.rawHeaders, 'www-authenticate'));
        if (challenge) {
          let answer: string;
          try {
            answer = ntlmAuthenticate(challenge, prepared.ntlm);
          } catch (error) {
            throw new SendError(`${url.host}: ${(error as Error).message}.`, 'protocol');
          }
          headers = withAuthorization(headers, answer);
          continue;
        }
      }

      const location = values(hop.rawHeaders, 'location')[0];
      if (settings.followRedirects && REDIRECTS.has(hop.status) && location !== undefined) {
        if (redirects.length >= settings.maxRedirects) {
          throw new SendError(
            `stopped after ${redirects.length} redirect${redirects.length === 1 ? '' : 's'} (maxRedirects is ${settings.maxRedirects}); the last one pointed to ${location}.`,
            'redirects',
          );
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new SendError(`${url.host} redirected to "${location}", which is not a valid URL.`, 'redirects');
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new SendError(`${url.host} redirected to ${next.href}; only http and https redirects are followed.`, 'redirects');
        }
        redirects.push({ url: url.href, status: hop.status });
        // 303 always, and 301/302 after POST, continue as GET without a body (what browsers do).
        if (hop.status === 303 ? method !== 'HEAD' : (hop.status === 301 || hop.status === 302) && method === 'POST') {
          method = 'GET';
          body = undefined;
          headers = headers.filter(([name]) => !/^content-(type|length|encoding|language|location)$/i.test(name));
        }
        // Credentials never travel to another origin: Authorization, an API key's header, the
        // headers a signing auth added (X-Amz-Date…) and the request's own Cookie header (as curl
        // since CVE-2022-27776); the jar's cookies follow their own domain rules.
        if (next.origin !== url.origin) {
          leftOrigin = true;
          const dropped = ['authorization', 'proxy-authorization', ...(prepared.credentialHeaders ?? []), ...(prepared.signEachHop?.added ?? [])];
          const credentials = new Set(dropped.map((name) => name.toLowerCase()));
          headers = headers.filter(([name]) => !credentials.has(name.toLowerCase()));
          userCookie = '';
          cookieFollowers = [];
        }
        url = next;
        // Within the first origin, auth that covers the method and URL is made again for this hop
        // (as curl -L and Postman do): a signing auth signs it afresh; Digest answers with the nonce
        // just accepted, its count one higher, for the new method and path (or the hop's 401).
        if (!leftOrigin && prepared.signEachHop) ({ url, headers, body } = await (await hopSigner()).signHop(prepared.signEachHop, method, url, headers, body, prepared.body));
        if (!leftOrigin && prepared.digest) {
          digestAnswers = 0;
          digestSent = ctx.agents.digestNonces.reuse(firstOrigin);
          digestReused = digestSent !== undefined;
          headers = withAuthorization(headers, digestSent && digestAnswer(digestSent));
        }
        continue;
      }

      const ended = completedAt;
      let decoded: Uint8Array = hop.body;
      if (settings.decompress) {
        const encoding = values(hop.rawHeaders, 'content-encoding').join(', ');
        const codings = encoding.trim() && hop.body.length > 0 ? await contentCoding() : undefined;
        try {
          if (codings) decoded = codings.decodeBody(hop.body, encoding, limit.maxBytes);
        } catch (error) {
          if (codings && error instanceof codings.DecodedTooLargeError) throw responseTooLarge(limit.maxMb, encoding);
          throw new SendError((error as Error).message, 'protocol');
        }
      }
      const peer = report.remoteAddress ? report : ctx.agents.lastPeer.get(peerKey(settings.verifyTls, httpVersion, `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`));
      const h2 = peer?.alpn === 'h2';
      return {
        status: hop.status,
        statusText: hop.statusText || STATUS_CODES[hop.status] || '',
        httpVersion: h2 ? '2' : '1.1',
        headers: hop.rawHeaders,
        sentHeaders: headersSent(sent.headers, defaultNames, sent.head, sent.cookie),
        body: decoded,
        bodySize: hop.body.length,
        headersSize: hop.headersSize,
        size: hop.headersSize + hop.body.length,
        url: url.href,
        redirects,
        ...(peer?.remoteAddress ? { remoteAddress: peer.remoteAddress, remotePort: peer.remotePort } : {}),
        timings: {
          dnsMs: round(report.dnsMs ?? 0),
          connectMs: round(report.connectMs ?? 0),
          tlsMs: round(report.tlsMs ?? 0),
          firstByteMs: round(hop.firstByteAt - started),
          totalMs: round(ended - started),
        },
      };
    }
  } catch (error) {
    // undici words a connection the server closed after its TLS alert as "other side closed"; the alert says why.
    const closed = (error as { code?: string })?.code === 'UND_ERR_SOCKET';
    if (report.afterHandshake && closed) error = report.afterHandshake;
    const certificate = ctx.agents.clientCertificateFor(url);
    // A TLS 1.3 server that refuses a client certificate may just close: no alert reaches Node.
    if (!deadline.error && closed && certificate && report.tlsMs !== undefined && !report.afterHandshake) {
      throw new SendError(`${url.host} closed the connection right after the TLS handshake, before answering: it may not accept the client certificate Ferry sent (${certificate}). Check the clientCertificates setting.`, 'tls');
    }
    const failure = deadline.error ?? describeNetworkError(error, url, httpVersion, ctx.agents.proxyFor(url, direct), certificate);
    throw redirects.length && !ctx.signal?.aborted ? afterRedirect(failure, redirects.at(-1)!, url) : failure;
  } finally {
    deadline.clear();
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * A failure at an address a redirect gave (a mock answering a documented `Location`, a login
 * page on another host) says so: the message would otherwise name a host the request never
 * held and send the reader to check its URL and variables.
 */
function afterRedirect(failure: SendError, last: { url: string; status: number }, target: URL): SendError {
  if (failure.kind === 'redirects') return failure;
  return new SendError(
    `after a redirect (${last.status} from ${last.url} to ${target.href}): ${failure.message} To get the redirect itself as the response, set settings.followRedirects to false.`,
    failure.kind,
  );
}

