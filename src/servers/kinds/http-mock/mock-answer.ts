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
  const names = rows.map((row) => compile(row.key, 'mock.header'));
  const values = rows.map((row) => compile(row.value, 'mock.header'));
  const namesStatic = names.every((name) => name.isStatic);
  const valuesStatic = values.every((value) => value.isStatic);
  const headerTemplates = [...names, ...values];
  const noBody = NO_BODY.has(status);
  const body = noBody ? undefined : compile(route.body, 'mock.body');
  const contentType = noBody ? undefined : defaultContentType(route.body);
  // Names are placed once (spelling, merging) unless they are templated themselves; values are
  // filled once unless templated.
  const plan = namesStatic ? planHeaders(names.map((name) => name.source), contentType) : undefined;
  const staticHeaders = plan !== undefined && valuesStatic ? fillHeaders(plan, values, undefined) : undefined;
  const buildHeaders = (context: RenderContext): BuiltHeaders =>
    staticHeaders ?? fillHeaders(plan ?? planHeaders(names.map((name) => name.render(context)), contentType), values, context);
  const templates: Template[] = body === undefined ? headerTemplates : [body, ...headerTemplates];
  const usesRequest = templates.some((t) => t.usesRequest);
  const usesBody = templates.some((t) => t.usesRequestBody);

  if (body === undefined) {
    const empty = Buffer.alloc(0);
    return {
      usesRequest,
      usesBody,
      render: (context) => ({ status, headers: buildHeaders(context).headers, body: empty, bodyBytes: 0 }),
    };
  }
  if (body.isStatic) {
    const bytes = Buffer.from(body.source, 'utf8');
    if (staticHeaders) {
      const headers = staticHeaders.headers;
      headers['Content-Length'] = String(bytes.length);
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
      const built = buildHeaders(context);
      // Static headers are one object for every answer: its length is set anew each time, and it
      // is written (synchronously) before the next answer is rendered.
      const headers = built.headers;
      headers['Content-Length'] = String(bodyBytes);
      // Node writes a text body in one piece with the head, all as UTF-8, which would encode the
      // header bytes of a non-ASCII value a second time; as bytes, the head goes out as it is.
      return { status, headers, body: built.wide ? Buffer.from(text, 'utf8') : text, bodyBytes };
    },
  };
}

interface BuiltHeaders {
  headers: HeaderValues;
  /** Some value has text beyond ASCII. */
  wide: boolean;
}

interface HeaderPlan {
  /** Per row, the name it is sent under (the first row's spelling of that name), or undefined when left out. */
  keys: (string | undefined)[];
  /** The guessed Content-Type, when no row gives one. */
  defaultType: string | undefined;
}

/**
 * Where header rows go in Node's header object: names compared without case, each sent as the
 * route spells it (the first row's spelling when a name repeats, so a repeated name such as
 * Set-Cookie is sent once per row under one spelling). A name that is not an HTTP token is left
 * out, and so are Content-Length and Transfer-Encoding: Ferry measures the body itself.
 */
function planHeaders(names: readonly string[], contentType: string | undefined): HeaderPlan {
  const keys: (string | undefined)[] = [];
  const spelled = new Map<string, string>();
  let hasType = false;
  for (const raw of names) {
    const name = raw.trim();
    const lower = name.toLowerCase();
    if (lower === '' || !isToken(lower) || lower === 'content-length' || lower === 'transfer-encoding') {
      keys.push(undefined);
      continue;
    }
    if (lower === 'content-type') hasType = true;
    let key = spelled.get(lower);
    if (key === undefined) spelled.set(lower, (key = name));
    keys.push(key);
  }
  return { keys, defaultType: hasType ? undefined : contentType };
}

/** The header object of one answer: values (rendered with `context`, else as written) made sendable by `headerValue`. */
function fillHeaders(plan: HeaderPlan, values: readonly Template[], context: RenderContext | undefined): BuiltHeaders {
  const headers: HeaderValues = {};
  let wide = false;
  const keys = plan.keys;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === undefined) continue;
    const template = values[i]!;
    const value = headerValue(context === undefined ? template.source : template.render(context));
    if (!wide && NON_ASCII.test(value)) wide = true;
    const previous = headers[key];
    if (previous === undefined) headers[key] = value;
    else headers[key] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  if (plan.defaultType !== undefined) headers['Content-Type'] = plan.defaultType;
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
