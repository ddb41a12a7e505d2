/**
 * Prepared requests for the codegen tests: the shapes request preparation hands over,
 * built directly (preparation itself is tested in test/request).
 */
import type { PreparedHeader, PreparedMultipartPart, PreparedRequest } from '../../src/request/prepared.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const h = (name: string, value: string): PreparedHeader => ({ name, value });

export function textBody(source: 'json' | 'text' | 'xml' | 'formUrlencoded' | 'graphql', text: string): PreparedRequest['body'] {
  return { kind: 'bytes', source, bytes: utf8(text), isText: true };
}

export function binaryBody(bytes: Uint8Array, path = 'files/blob.bin', absolutePath = '/home/me/api/files/blob.bin'): PreparedRequest['body'] {
  return { kind: 'bytes', source: 'binary', bytes, isText: false, file: { path, absolutePath } };
}

/** Every byte value, NUL first. */
export const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

/**
 * A JSON body of about 300 KB: longer than one command-line argument may be (Linux: 128 KiB) and
 * than one Java string constant (65535 bytes).
 */
export const LONG_JSON = JSON.stringify({ items: Array.from({ length: 6000 }, (_, i) => ({ id: i, name: `item ${i} héllo 'q' "d" $x` })) });

/** A text with everything that breaks quoting somewhere. */
export const HOSTILE_TEXT =
  `line1\nsingle 'quoted' and "double" quotes, $HOME $(id) \`id\` \${x}, back\\slash \\n \\", ` +
  `%PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, ` +
  `unicode héllo 日本 🚀, typographic ‘quotes’\r\nend`;

export const HOSTILE_HEADERS: PreparedHeader[] = [
  h('X-Quote', `it's "quoted"`),
  h('X-Dollar', '$HOME $(id) `id` ${x} #{y}'),
  h('X-Backslash', 'C:\\path\\n\\"end\\'),
  h('X-Percent', '%PATH% 100% %%'),
  h('X-Caret', 'a^b & c | d > e < f !g'),
  h('X-Multi', 'one'),
  h('X-Multi', 'two'),
  h('Cookie', 'a=1'),
  h('Cookie', 'b=2'),
];

const BASE = 'https://api.example.com';

export interface Case {
  name: string;
  request: (base: string) => PreparedRequest;
}

function req(partial: Partial<PreparedRequest> & Pick<PreparedRequest, 'method' | 'url'>): PreparedRequest {
  return { headers: [], body: { kind: 'none' }, authType: 'none', ...partial };
}

function multipartParts(dir: string): PreparedMultipartPart[] {
  return [
    { name: 'title', value: 'Holiday "photo" $5 & more\nsecond line' },
    { name: 'photo', file: { path: 'files/my photo.png', absolutePath: `${dir}/my photo.png` }, contentType: 'image/png' },
    { name: 'note', value: 'unicode héllo 日本' },
    // No type: Ferry sends application/octet-stream, where curl, HTTPie and httpx would guess
    // text/plain from the extension and requests would send none.
    { name: 'notes', file: { path: 'files/notes.txt', absolutePath: `${dir}/notes.txt` } },
  ];
}

/** Body types × auth types for the golden files (spec: none, JSON, text, form, multipart, binary, GraphQL; basic, bearer, API key in query, OAuth 2.0 with and without token, Digest). */
export const GOLDEN_CASES: Case[] = [
  { name: 'get-none', request: (b) => req({ method: 'GET', url: `${b}/users?page=2&sort=name`, headers: [h('Accept', 'application/json'), h('X-Trace', 'abc')] }) },
  {
    name: 'post-json-basic',
    request: (b) =>
      req({
        method: 'POST',
        url: `${b}/users`,
        authType: 'basic',
        headers: [h('X-Workspace', 'ferry'), h('Authorization', 'Basic dXNlcjpwQHNz'), h('Content-Type', 'application/json')],
        body: textBody('json', '{\n  "name": "Ada",\n  "tags": ["a", "b"]\n}'),
      }),
  },
  {
    name: 'put-text-bearer',
    request: (b) =>
      req({
        method: 'PUT',
        url: `${b}/notes/1`,
        authType: 'bearer',
        headers: [h('Authorization', 'Bearer eyJhbGciOi.J9'), h('Content-Type', 'text/plain')],
        body: textBody('text', 'Hello, world.\nSecond line.'),
      }),
  },
  {
    name: 'post-form-apikey-query',
    request: (b) =>
      req({
        method: 'POST',
        url: `${b}/login?api_key=k3y%2B1`,
        authType: 'apiKey',
        headers: [h('Content-Type', 'application/x-www-form-urlencoded')],
        body: textBody('formUrlencoded', 'user=ada&pass=p%40ss+word'),
      }),
  },
  {
    name: 'post-multipart-file',
    request: (b) =>
      req({
        method: 'POST',
        url: `${b}/upload`,
        headers: [h('Content-Type', 'multipart/form-data; boundary=--ferry1234')],
        body: {
          kind: 'multipart',
          parts: [
            { name: 'title', value: 'Holiday' },
            { name: 'meta', value: '{"a":1}', contentType: 'application/json' },
            { name: 'photo', file: { path: 'files/photo.png', absolutePath: '/home/me/api/files/photo.png' }, contentType: 'image/png' },
          ],
        },
      }),
  },
  {
    name: 'post-binary',
    request: (b) =>
      req({
        method: 'POST',
        url: `${b}/blobs`,
        headers: [h('Content-Type', 'application/octet-stream')],
        body: binaryBody(Uint8Array.from([0, 1, 2, 0xfe, 0xff, 0x22, 0x5c, 0x3f, 0x0a, 0x41])),
      }),
  },
  {
    name: 'post-graphql-oauth2-cached',
    request: (b) =>
      req({
        method: 'POST',
        url: `${b}/graphql`,
        authType: 'oauth2',
        oauth2TokenCached: true,
        headers: [h('Authorization', 'Bearer cached-token-123'), h('Content-Type', 'application/json')],
        body: textBody('graphql', JSON.stringify({ query: 'query User($id: ID!) { user(id: $id) { name } }', variables: { id: '1' }, operationName: 'User' })),
      }),
  },
  {
    name: 'get-oauth2-no-token',
    request: (b) =>
      req({ method: 'GET', url: `${b}/me`, authType: 'oauth2', oauth2TokenCached: false, headers: [h('Authorization', 'Bearer <access-token>')] }),
  },
  { name: 'get-digest', request: (b) => req({ method: 'GET', url: `${b}/private`, authType: 'digest' }) },
  {
    name: 'get-awsv4-signed',
    request: (b) =>
      req({
        method: 'GET',
        url: `${b}/bucket/key`,
        authType: 'awsv4',
        headers: [h('X-Amz-Date', '20260101T000000Z'), h('Authorization', 'AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc')],
      }),
  },
  {
    name: 'left-out-headers',
    request: (b) =>
      req({
        method: 'GET',
        url: `${b}/things#section`,
        headers: [
          h('Host', 'api.example.com'),
          h('Content-Length', '12'),
          h('Accept-Encoding', 'gzip'),
          h('Connection', 'keep-alive'),
          h('Content-Type', 'application/json'),
          h('X-Empty', ''),
        ],
        body: textBody('json', '{"q":"body on GET"}'),
      }),
  },
  {
    name: 'hostile',
    request: (b) =>
      req({
        method: 'PATCH',
        url: `${b}/ünï côdé/"q"?name=a b&quote='x'&dollar=$HOME&pct=100%25&caret=^&tick=\`&back=\\&uni=日本`,
        headers: [...HOSTILE_HEADERS, h('Content-Type', 'text/plain; charset=utf-8')],
        body: textBody('text', HOSTILE_TEXT),
      }),
  },
  {
    name: 'text-with-nul',
    request: (b) =>
      req({ method: 'POST', url: `${b}/raw`, headers: [h('Content-Type', 'text/plain')], body: textBody('text', 'a\u0000b\u0001c\u001b[0m\u007fd') }),
  },
  {
    name: 'custom-method-template',
    request: () => req({ method: 'PROPFIND', url: '{{baseUrl}}/dav/{{folder}}?depth={{depth}}', headers: [h('Depth', '1')] }),
  },
];

export const GOLDEN_BASE = BASE;

/** Requests the execution tests send; `dir` holds the files multipart parts refer to. */
export function executionCases(dir: string): Case[] {
  return [
    {
      name: 'hostile-text',
      request: (b) =>
        req({
          method: 'POST',
          url: `${b}/echo/ünï côdé/"q"?name=a b&quote='x'&dollar=$HOME&pct=100%25&caret=^&tick=\`&back=\\&uni=日本`,
          authType: 'basic',
          headers: [...HOSTILE_HEADERS, h('Authorization', 'Basic dXNlcjpwQHNz'), h('Content-Type', 'text/plain; charset=utf-8')],
          body: textBody('text', HOSTILE_TEXT),
        }),
    },
    {
      name: 'json-patch',
      request: (b) =>
        req({
          method: 'PATCH',
          url: `${b}/users/1?api_key=k%2By`,
          authType: 'oauth2',
          oauth2TokenCached: true,
          // Connection headers: Ferry never sends them, and fetch would throw on Keep-Alive.
          headers: [h('Authorization', 'Bearer tok$en"x'), h('Connection', 'keep-alive'), h('Keep-Alive', 'timeout=5'), h('TE', 'trailers'), h('Content-Type', 'application/json')],
          body: textBody('json', JSON.stringify({ name: 'O\'Brien "the $1"', path: 'C:\\dir', emoji: '🚀', nl: 'a\nb' }, null, 2)),
        }),
    },
    {
      name: 'binary',
      request: (b) =>
        req({ method: 'PUT', url: `${b}/blobs/all-bytes`, headers: [h('Content-Type', 'application/octet-stream')], body: binaryBody(ALL_BYTES) }),
    },
    {
      name: 'text-with-control-bytes',
      request: (b) =>
        req({ method: 'POST', url: `${b}/raw`, headers: [h('Content-Type', 'text/plain')], body: textBody('text', 'a\u0000b\u0001c\u001b[0m\u007fd\r\n') }),
    },
    {
      name: 'multipart',
      request: (b) =>
        req({
          method: 'POST',
          url: `${b}/upload`,
          headers: [h('X-Upload', 'yes')],
          body: { kind: 'multipart', parts: multipartParts(dir) },
        }),
    },
    {
      name: 'long-text',
      request: (b) => req({ method: 'POST', url: `${b}/long`, headers: [h('Content-Type', 'application/json')], body: textBody('json', LONG_JSON) }),
    },
    {
      name: 'long-binary',
      request: (b) =>
        req({ method: 'PUT', url: `${b}/blobs/long`, headers: [h('Content-Type', 'application/octet-stream')], body: binaryBody(Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) % 256)) }),
    },
    {
      name: 'get-query-key',
      request: (b) =>
        // Brackets as PHP and Rails APIs take arrays: curl reads them as a glob unless --globoff.
        req({ method: 'GET', url: `${b}/search?q=caf%C3%A9&ids[0]=1&tags[]=a&api_key=abc`, authType: 'apiKey', headers: [h('Accept', 'application/json'), h('X-Request-Id', '42')] }),
    },
  ];
}
