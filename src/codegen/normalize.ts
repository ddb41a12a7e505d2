import { basename } from 'node:path';
import type { PreparedRequest } from '../request/prepared.js';
import { FILE_PART_CONTENT_TYPE } from '../model/constants.js';
import type { LibraryRules } from './target.js';
import { urlForCode } from './urls.js';
import { authComments } from './comments.js';

export interface CodeHeader {
  name: string;
  value: string;
}

export interface CodePart {
  name: string;
  /** Text value of a text part. */
  value?: string;
  /** File of a file part: where it is on this computer, and the file name sent. */
  file?: { path: string; fileName: string };
  contentType?: string;
}

export type CodeBody =
  | { kind: 'none' }
  /** UTF-8 text (JSON, XML, form, GraphQL, text). */
  | { kind: 'text'; text: string; bytes: Uint8Array }
  /** Anything else: embedded as Base64 or bytes. */
  | { kind: 'binary'; bytes: Uint8Array; base64: string }
  | { kind: 'multipart'; parts: CodePart[] };

/** One request, shaped for one library: what its snippet writes, and the comments that explain what it leaves out. */
export interface CodeRequest {
  method: string;
  /** Absolute URL, percent-encoded where RFC 3986 requires (see urls.ts). */
  url: string;
  /** Headers to write, in order; repeated names joined when the library holds one value per name. */
  headers: CodeHeader[];
  body: CodeBody;
  /** Comment lines for the top of the snippet, without comment markers. */
  comments: string[];
}

const ALWAYS_LEFT_OUT = new Set(['host', 'content-length']);

/** Methods Ferry's client (undici) sends `Content-Length: 0` with when there is no body (as written, in upper case). */
const LENGTH_WITHOUT_BODY = new Set(['POST', 'PUT', 'PATCH', 'QUERY', 'PROPFIND', 'PROPPATCH']);

/**
 * Headers about one connection, not the request. Ferry's HTTP client never sends them (undici
 * refuses them), and several libraries refuse or rewrite them (fetch throws on most), so the
 * code leaves them out too and sends what Ferry sends.
 */
export const CONNECTION_HEADERS: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'expect']);

/**
 * The file name a multipart part carries: the one Ferry's sender writes (`path.basename` of the
 * workspace path, src/protocols/http/multipart.ts), so a `\` in a Linux file name is kept as it is sent.
 */
export function fileNameOf(filePath: string): string {
  return basename(filePath) || filePath;
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function bodyOf(prepared: PreparedRequest): CodeBody {
  const body = prepared.body;
  if (body.kind === 'none') return body;
  if (body.kind === 'multipart') {
    return {
      kind: 'multipart',
      parts: body.parts.map((p) => ({
        name: p.name,
        ...(p.file ? { file: { path: p.file.absolutePath, fileName: fileNameOf(p.file.path) } } : { value: p.value ?? '' }),
        // A file part without a type goes out as octet-stream from Ferry; the code says so, since
        // libraries would otherwise guess from the extension (curl, HTTPie, httpx) or send none (requests).
        ...(p.contentType || p.file ? { contentType: p.contentType || FILE_PART_CONTENT_TYPE } : {}),
      })),
    };
  }
  const text = body.isText ? decodeUtf8(body.bytes) : undefined;
  if (text !== undefined) return { kind: 'text', text, bytes: body.bytes };
  return { kind: 'binary', bytes: body.bytes, base64: Buffer.from(body.bytes).toString('base64') };
}

function joinRepeated(headers: CodeHeader[], only?: ReadonlySet<string>): CodeHeader[] {
  const out: CodeHeader[] = [];
  const byName = new Map<string, CodeHeader>();
  for (const h of headers) {
    const key = h.name.toLowerCase();
    if (only && !only.has(key)) {
      out.push({ ...h });
      continue;
    }
    const seen = byName.get(key);
    if (seen) seen.value += (key === 'cookie' ? '; ' : ', ') + h.value;
    else {
      const copy = { ...h };
      byName.set(key, copy);
      out.push(copy);
    }
  }
  return out;
}

function listNames(names: string[]): string {
  const unique = [...new Set(names)];
  return unique.length <= 1 ? unique.join('') : `${unique.slice(0, -1).join(', ')} and ${unique[unique.length - 1]}`;
}

/**
 * Applies the content rules of spec 4.7 for one library: what is left out and why,
 * repeated headers, the auth comments. `libraryName` appears in the comments.
 */
export function shapeRequest(prepared: PreparedRequest, rules: LibraryRules, libraryName: string): CodeRequest {
  const comments = authComments(prepared);
  let body = bodyOf(prepared);
  const refused = new Set((rules.refusedHeaders ?? []).map((h) => h.toLowerCase()));
  const leftOut: string[] = [];
  const refusedFound: string[] = [];
  const connectionFound: string[] = [];
  let acceptEncodingDropped = false;
  let multipartTypeDropped = false;
  const kept: CodeHeader[] = [];
  for (const h of prepared.headers) {
    const key = h.name.toLowerCase();
    if (ALWAYS_LEFT_OUT.has(key)) leftOut.push(h.name);
    else if (refused.has(key)) refusedFound.push(h.name);
    else if (CONNECTION_HEADERS.has(key)) connectionFound.push(h.name);
    else if (key === 'accept-encoding' && rules.decompresses) acceptEncodingDropped = true;
    else if (key === 'content-type' && body.kind === 'multipart') multipartTypeDropped = true;
    else kept.push({ name: h.name, value: h.value });
  }
  if (leftOut.length) comments.push(`${listNames(leftOut)} left out: ${libraryName} sets ${leftOut.length > 1 ? 'them' : 'it'} from the URL and the body.`);
  if (refusedFound.length) comments.push(`${listNames(refusedFound)} left out: ${libraryName} refuses to set ${refusedFound.length > 1 ? 'these headers' : 'this header'}.`);
  if (connectionFound.length) {
    comments.push(`${listNames(connectionFound)} left out: ${connectionFound.length > 1 ? 'they manage' : 'it manages'} one connection, not the request, and Ferry does not send ${connectionFound.length > 1 ? 'them' : 'it'} either.`);
  }
  if (acceptEncodingDropped) comments.push(`Accept-Encoding left out: ${libraryName} sends its own and decompresses the answer.`);
  if (multipartTypeDropped && !rules.buildsMultipart) comments.push(`Content-Type left out: ${libraryName} sets it with the multipart boundary.`);
  if (body.kind !== 'none' && rules.noBodyWith.includes(prepared.method.toUpperCase())) {
    comments.push(`Body left out: ${libraryName} cannot send a body with ${prepared.method.toUpperCase()}.`);
    body = { kind: 'none' };
  }
  if (rules.noLengthWithoutBody && body.kind === 'none' && prepared.body.kind === 'none' && LENGTH_WITHOUT_BODY.has(prepared.method) && leftOut.every((n) => n.toLowerCase() !== 'content-length')) {
    kept.push({ name: 'Content-Length', value: '0' });
  }
  return {
    method: prepared.method,
    url: urlForCode(prepared.url),
    headers:
      rules.repeatedHeaders === 'join'
        ? joinRepeated(kept)
        : rules.joinedHeaders?.length
          ? joinRepeated(kept, new Set(rules.joinedHeaders))
          : kept,
    body,
    comments,
  };
}
