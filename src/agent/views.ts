/**
 * What a tool returns about a send and a prepared request: the runner's result with the answer's
 * headers and a bounded body, and stream messages cut to a readable size. Values only; masking
 * happens once, over the whole result (tools.ts).
 */
import type { PreparedBody, PreparedRequest } from '../request/index.js';
import type { ProtocolResult } from '../protocols/index.js';
import type { JsonReport, RequestResult } from '../runner/index.js';
import { findPlaceholders } from '../template/index.js';
import { cutText, LIMITS } from './limits.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body as text when it is UTF-8, cut at `maxChars`; otherwise its size and a note. */
export function bodyView(bytes: Uint8Array, contentType: string, maxChars: number): Record<string, unknown> {
  const view: Record<string, unknown> = { ...(contentType ? { contentType } : {}), bytes: bytes.byteLength };
  if (bytes.byteLength === 0) return view;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ...view, binary: true, note: `A binary body of ${bytes.byteLength} bytes; not shown as text.` };
  }
  const cut = cutText(text, maxChars);
  return { ...view, text: cut.text, ...(cut.cut ? { cut: true, note: `The body was cut at ${maxChars} characters; ask with a larger maxBodyChars (up to ${LIMITS.maxBodyChars}) to see more.` } : {}) };
}

/** A test name or message, console line or error, cut at the messages' limit. */
function short(text: string): string {
  return cutText(text, LIMITS.messageChars).text;
}

/** The first tests of a request with their names and messages cut (a thrown error's message can be megabytes). */
function boundedTests<T extends { name: string; message?: string | null }>(tests: readonly T[]): { tests: T[]; testsNote?: string } {
  return {
    tests: tests.slice(0, LIMITS.tests).map((t) => ({ ...t, name: short(t.name), ...(typeof t.message === 'string' ? { message: short(t.message) } : {}) })),
    ...(tests.length > LIMITS.tests ? { testsNote: `${tests.length} tests; the first ${LIMITS.tests} are shown.` } : {}),
  };
}

/** A result of a run's JSON report with its texts bounded as a send's are (for a report too long to return whole). */
export function boundedReportResult(result: JsonReport['results'][number]): Record<string, unknown> {
  return {
    ...result,
    error: result.error === null ? null : short(result.error),
    ...boundedTests(result.tests),
    console: result.console.slice(0, 100).map(short),
    ...(result.messages ? { messages: result.messages.slice(0, LIMITS.messages).map((m) => ({ ...m, text: short(m.text) })) } : {}),
  };
}

function headerValue(headers: ReadonlyArray<readonly [string, string]>, name: string): string {
  return headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? '';
}

/** The result of one send: status, headers, a bounded body, tests, timings; streaming kinds' messages. */
export function sendView(result: RequestResult, response: ProtocolResult | undefined, maxBodyChars: number): Record<string, unknown> {
  const messages = result.messages ?? [];
  return {
    path: result.path,
    name: result.name,
    kind: result.kind,
    method: result.method,
    url: result.url,
    passed: result.passed,
    ...(result.status !== undefined ? { status: result.status, statusText: result.statusText ?? '' } : {}),
    // The kind's own words for it where `status statusText` is not all (gRPC's status message), as the reports write it.
    ...(result.statusLabel !== undefined ? { statusLabel: result.statusLabel } : {}),
    ...(result.error ? { error: short(result.error) } : {}),
    ...(result.skipped ? { skipped: result.skipped } : {}),
    durationMs: result.durationMs,
    ...(result.size !== undefined ? { size: result.size } : {}),
    ...(result.httpVersion ? { httpVersion: result.httpVersion } : {}),
    ...(result.timings ? { timings: result.timings } : {}),
    ...boundedTests(result.tests),
    ...(result.console.length ? { console: result.console.slice(0, 100).map(short) } : {}),
    ...(response
      ? {
          response: {
            url: response.url,
            headers: response.headers,
            body: bodyView(response.body, headerValue(response.headers, 'content-type'), maxBodyChars),
          },
        }
      : {}),
    ...(result.stream ? { stream: result.stream } : {}),
    ...(messages.length
      ? {
          messages: messages.slice(0, LIMITS.messages).map((m) => ({ ...m, text: cutText(m.text, LIMITS.messageChars).text })),
          ...(messages.length > LIMITS.messages ? { messagesNote: `${messages.length} messages; the first ${LIMITS.messages} are shown.` } : {}),
        }
      : {}),
    ...(result.detail ? { detail: result.detail } : {}),
  };
}

function preparedBody(body: PreparedBody, contentType: string): Record<string, unknown> {
  if (body.kind === 'none') return { type: 'none' };
  if (body.kind === 'multipart') {
    return {
      type: 'multipart',
      parts: body.parts.map((p) => ({ name: p.name, ...(p.file ? { file: p.file.path } : { value: cutText(p.value ?? '', LIMITS.messageChars).text }), ...(p.contentType ? { contentType: p.contentType } : {}) })),
    };
  }
  return { type: body.source, ...(body.file ? { file: body.file.path } : {}), ...bodyView(body.bytes, contentType, LIMITS.bodyChars) };
}

/**
 * The `{{names}}` still in a prepared request (URL, headers, a text body): variables nothing
 * defines, which are sent as written (spec 8.2). Dynamic values (`{{$guid}}`) are left out.
 */
export function unresolvedVariables(prepared: PreparedRequest): string[] {
  const texts = [prepared.url, ...prepared.headers.map((h) => h.value)];
  if (prepared.body.kind === 'bytes' && prepared.body.isText && !prepared.body.file) texts.push(Buffer.from(prepared.body.bytes).toString('utf8'));
  const names = new Set<string>();
  for (const text of texts) {
    // The URL parser and form encoding percent-encode the braces of a placeholder left in place.
    const braces = text.replace(/%7B/gi, '{').replace(/%7D/gi, '}');
    for (const p of findPlaceholders(braces)) if (!p.name.startsWith('$')) names.add(p.name);
  }
  return [...names];
}

/** A request as it would go out: method, URL, headers, body, the kind's options and settings. */
export function preparedView(prepared: PreparedRequest): Record<string, unknown> {
  const contentType = prepared.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  return {
    kind: prepared.kind ?? 'http',
    method: prepared.method,
    url: prepared.url,
    headers: prepared.headers.map((h) => [h.name, h.value]),
    body: preparedBody(prepared.body, contentType),
    auth: prepared.authType,
    ...(prepared.authType === 'oauth2' ? { oauth2TokenCached: prepared.oauth2TokenCached === true } : {}),
    ...(prepared.options ? { options: prepared.options } : {}),
    ...(prepared.stream ? { stream: prepared.stream } : {}),
    ...(prepared.settings ? { settings: prepared.settings } : {}),
  };
}
