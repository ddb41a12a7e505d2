/**
 * The JSON report (documented in docs/running.md): `version`, `summary`, and one entry per send.
 * Fields beyond the documented ones may be added; none is removed or renamed within version 1.
 */
import type { StreamMessage } from '../../protocols/index.js';
import type { Reporter, RequestResult, RunEvent, RunSummary } from '../events.js';

/** Bytes of a message's text kept in the report; the rest is cut, with a mark saying so. */
export const MAX_MESSAGE_TEXT_BYTES = 64 * 1024;

export interface JsonReport {
  version: 1;
  summary: RunSummary & { bailed: boolean; startedAt: string; environment: string | null; workspace: string };
  results: Array<{
    path: string;
    name: string;
    kind: string;
    folder: string;
    method: string;
    url: string;
    status: number | null;
    statusText: string | null;
    durationMs: number;
    size: number | null;
    error: string | null;
    skipped: string | null;
    passed: boolean;
    iteration: number;
    tests: Array<{ name: string; passed: boolean; skipped?: boolean; message: string | null }>;
    console: string[];
    timings: RequestResult['timings'] | null;
    httpVersion: string | null;
    remoteAddress: string | null;
    attempts?: number;
    stream?: RequestResult['stream'];
    /** Streaming kinds: the messages kept (the first 1,000), each text cut at 64 KB (`cut: true`). */
    messages?: Array<StreamMessage & { cut?: true }>;
    detail?: RequestResult['detail'];
  }>;
}

export function jsonReport(start: Extract<RunEvent, { type: 'start' }> | undefined, end: Extract<RunEvent, { type: 'end' }>): JsonReport {
  return {
    version: 1,
    summary: {
      ...end.summary,
      bailed: end.bailed,
      startedAt: start?.startedAt ?? '',
      environment: start?.environment ?? null,
      workspace: start?.workspace ?? '',
    },
    results: end.results.map((r) => ({
      path: r.path,
      name: r.name,
      kind: r.kind,
      folder: r.folder,
      method: r.method,
      url: r.url,
      status: r.status ?? null,
      statusText: r.statusText ?? null,
      durationMs: r.durationMs,
      size: r.size ?? null,
      error: r.error ?? null,
      skipped: r.skipped ?? null,
      passed: r.passed,
      iteration: r.iteration,
      tests: r.tests.map((t) => ({ name: t.name, passed: t.passed, ...(t.skipped ? { skipped: true } : {}), message: t.message ?? null })),
      console: r.console,
      timings: r.timings ?? null,
      httpVersion: r.httpVersion ?? null,
      remoteAddress: r.remoteAddress ?? null,
      ...(r.attempts ? { attempts: r.attempts } : {}),
      ...(r.stream ? { stream: r.stream } : {}),
      ...(r.messages ? { messages: r.messages.map(reportedMessage) } : {}),
      ...(r.detail ? { detail: r.detail } : {}),
    })),
  };
}

/** A message with its text cut at 64 KB (UTF-8 bytes, on a character boundary), marked at the cut. */
export function reportedMessage(message: StreamMessage): StreamMessage & { cut?: true } {
  const bytes = Buffer.byteLength(message.text);
  if (bytes <= MAX_MESSAGE_TEXT_BYTES) return message;
  let kept = Buffer.from(message.text).subarray(0, MAX_MESSAGE_TEXT_BYTES).toString('utf8');
  if (kept.endsWith('\uFFFD')) kept = kept.slice(0, -1); // a character cut in two
  return { ...message, text: `${kept}… [cut at 64 KB; ${bytes} bytes in all]`, cut: true };
}

/** Writes the report with `write` once the run ends (to a file or to stdout). */
export class JsonReporter implements Reporter {
  private start: Extract<RunEvent, { type: 'start' }> | undefined;
  private report: JsonReport | undefined;

  constructor(private readonly write: (text: string) => Promise<void> | void) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'start') this.start = event;
    if (event.type === 'end') this.report = jsonReport(this.start, event);
  }

  async finish(): Promise<void> {
    if (this.report) await this.write(`${JSON.stringify(this.report, null, 2)}\n`);
  }
}
