/**
 * A mock route's answer, compiled once: status (never templated), headers (names and values at the
 * `mock.header` place) and body (`mock.body`). A part without placeholders is prepared to the byte
 * when the route is compiled, so an answer with a static body costs no rendering at all.
 */
import type { MockRoute } from '../../../model/index.js';
import { compile, type RenderContext, type Template } from '../../../template/index.js';
import type { HeaderValues } from '../../http-types.js';

export interface RenderedAnswer {
  status: number;
  /** Shared between answers of the route when it has no templated header: copy it before changing it. */
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

/** Statuses whose answers have no body (RFC 9110 15.3.5, 15.4.5): the route's body is not sent, nor a length. */
const NO_BODY = new Set([204, 304]);

export function compileAnswer(route: MockRoute): CompiledAnswer {
  const status = route.status;
  const rows = route.headers.filter((row) => row.enabled !== false && row.key !== '');
  const headerTemplates = rows.map((row) => ({ name: compile(row.key, 'mock.header'), value: compile(row.value, 'mock.header') }));
  if (NO_BODY.has(status)) {
    const headersStatic = headerTemplates.every((h) => h.name.isStatic && h.value.isStatic);
    const fixed = headersStatic ? buildHeaders(headerTemplates.map((h) => [h.name.source, h.value.source]), undefined).headers : undefined;
    const empty = Buffer.alloc(0);
    return {
      usesRequest: headerTemplates.some((h) => h.name.usesRequest || h.value.usesRequest),
      usesBody: headerTemplates.some((h) => h.name.usesRequestBody || h.value.usesRequestBody),
      render: (context) => ({
        status,
        headers: fixed ?? buildHeaders(headerTemplates.map((h) => [h.name.render(context), h.value.render(context)]), undefined).headers,
        body: empty,
        bodyBytes: 0,
      }),
    };
  }
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
      const headers = staticHeaders.headers;
      headers['content-length'] = String(bytes.length);
      // The same answer every time: one object, read (never changed) by the server.
      const answer: RenderedAnswer = { status, headers, body: bytes, bodyBytes: bytes.length };
      return { usesRequest, usesBody, render: () => answer };
    }
  }
  return {
    usesRequest,
    usesBody,
    render(context) {
      const text = body.render(context);
      const bodyBytes = Buffer.byteLength(text, 'utf8');
      const built = staticHeaders ?? buildHeaders(headerTemplates.map((h) => [h.name.render(context), h.value.render(context)]), contentType);
      // Static headers are one object for every answer: its length is set anew each time, and it
      // is written (synchronously) before the next answer is rendered.
      const headers = built.headers;
      headers['content-length'] = String(bodyBytes);
      // Node writes a text body in one piece with the head, all as UTF-8, which would encode the
      // header bytes of a non-ASCII value a second time; as bytes, the head goes out as it is.
      return { status, headers, body: built.wide ? Buffer.from(text, 'utf8') : text, bodyBytes };
    },
  };
}

/**
 * Header rows into Node's header object: names compared without case, a repeated name (such as
 * Set-Cookie) sent once per row. A name that is not an HTTP token is left out; values are made
 * sendable by `headerValue`.
 */
function buildHeaders(rows: [string, string][], contentType: string | undefined): { headers: HeaderValues; wide: boolean } {
  const headers: HeaderValues = {};
  let hasType = false;
  let wide = false;
  for (const [rawName, rawValue] of rows) {
    const name = rawName.trim().toLowerCase();
    if (name === '' || !isToken(name)) continue;
    if (name === 'content-length' || name === 'transfer-encoding') continue; // Ferry measures the body itself
    const value = headerValue(rawValue);
    if (!wide && NON_ASCII.test(value)) wide = true;
    if (name === 'content-type') hasType = true;
    const previous = headers[name];
    if (previous === undefined) headers[name] = value;
    else headers[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  if (!hasType && contentType) headers['content-type'] = contentType;
  return { headers, wide };
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

const UNSENDABLE = /[^\t\x20-\x7e]/;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A header value as it can go on the wire, whatever a template filled in (a client's query value,
 * say): cut at a line break (it would split the header), other control characters dropped, and
 * text beyond ASCII sent as its UTF-8 bytes. Node would refuse the answer otherwise.
 */
export function headerValue(value: string): string {
  if (!UNSENDABLE.test(value)) return value;
  const lineBreak = value.search(/[\r\n]/);
  const cut = (lineBreak < 0 ? value : value.slice(0, lineBreak)).replace(CONTROL, '');
  return NON_ASCII.test(cut) ? Buffer.from(cut, 'utf8').toString('latin1') : cut;
}
