/**
 * A mock route's answer, compiled once: status (never templated), headers (names and values at the
 * `mock.header` place) and body (`mock.body`). A part without placeholders is prepared to the byte
 * when the route is compiled, so an answer with a static body costs no rendering at all.
 */
import type { MockRoute } from '../../model/index.js';
import { compile, type RenderContext, type Template } from '../../template/index.js';
import type { HeaderValues } from '../http-types.js';

export interface RenderedAnswer {
  status: number;
  headers: HeaderValues;
  body: string | Buffer;
  bodyBytes: number;
}

export interface CompiledAnswer {
  /** True when rendering reads the request (so its values must be built). */
  readonly usesRequest: boolean;
  /** True when rendering reads the request body. */
  readonly usesBody: boolean;
  render(context: RenderContext): RenderedAnswer;
}

export function compileAnswer(route: MockRoute): CompiledAnswer {
  const status = route.status;
  const rows = route.headers.filter((row) => row.enabled !== false && row.key !== '');
  const headerTemplates = rows.map((row) => ({ name: compile(row.key, 'mock.header'), value: compile(row.value, 'mock.header') }));
  const body = compile(route.body, 'mock.body');
  const contentType = defaultContentType(route.body);
  const headersStatic = headerTemplates.every((h) => h.name.isStatic && h.value.isStatic);
  const templates: Template[] = [body, ...headerTemplates.flatMap((h) => [h.name, h.value])];
  const usesRequest = templates.some((t) => t.usesRequest);
  const usesBody = templates.some((t) => t.usesRequestBody);

  const staticHeaders = headersStatic ? buildHeaders(headerTemplates.map((h) => [h.name.source, h.value.source]), contentType) : undefined;
  if (body.isStatic) {
    const bytes = Buffer.from(body.source, 'utf8');
    if (staticHeaders) {
      staticHeaders['content-length'] = String(bytes.length);
      const answer: RenderedAnswer = { status, headers: staticHeaders, body: bytes, bodyBytes: bytes.length };
      // Headers are copied per answer: CORS and the listener may add to them.
      return { usesRequest, usesBody, render: () => ({ ...answer, headers: { ...staticHeaders } }) };
    }
  }
  return {
    usesRequest,
    usesBody,
    render(context) {
      const text = body.render(context);
      const bodyBytes = Buffer.byteLength(text, 'utf8');
      const headers = staticHeaders
        ? { ...staticHeaders }
        : buildHeaders(headerTemplates.map((h) => [h.name.render(context), h.value.render(context)]), contentType);
      headers['content-length'] = String(bodyBytes);
      return { status, headers, body: text, bodyBytes };
    },
  };
}

/**
 * Header rows into Node's header object: names compared without case, a repeated name (such as
 * Set-Cookie) sent once per row. A value with a line break would split the header; it is cut there.
 */
function buildHeaders(rows: [string, string][], contentType: string | undefined): HeaderValues {
  const headers: HeaderValues = {};
  let hasType = false;
  for (const [rawName, rawValue] of rows) {
    const name = rawName.trim().toLowerCase();
    if (name === '' || !isToken(name)) continue;
    if (name === 'content-length' || name === 'transfer-encoding') continue; // Ferry measures the body itself
    const value = cutAtLineBreak(rawValue);
    if (name === 'content-type') hasType = true;
    const previous = headers[name];
    if (previous === undefined) headers[name] = value;
    else headers[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  if (!hasType && contentType) headers['content-type'] = contentType;
  return headers;
}

/** Without a Content-Type row: JSON when the body looks like JSON, else plain UTF-8 text; none for no body. */
function defaultContentType(body: string): string | undefined {
  const start = body.trimStart();
  if (start === '') return undefined;
  if (start.startsWith('{') || start.startsWith('[')) return 'application/json; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
function isToken(name: string): boolean {
  return TOKEN.test(name);
}

function cutAtLineBreak(value: string): string {
  const at = value.search(/[\r\n]/);
  return at < 0 ? value : value.slice(0, at);
}
