/**
 * The JSON report (documented in docs/running.md): `version`, `summary`, and one entry per send.
 * Fields beyond the documented ones may be added; none is removed or renamed within version 1.
 */
import type { StreamMessage } from '../../protocols/index.js';
import type { Reporter, RequestResult, RunEvent, RunSummary } from '../events.js';
import { SpoolFolder } from '../report-spool.js';
import { cutText, REPORT_BODY_BYTES, type CapturedResponse } from '../response-capture.js';

/** Bytes of a message's text kept in the report; the rest is cut, with a mark saying so. */
export const MAX_MESSAGE_TEXT_BYTES = 64 * 1024;

/** Warnings the report keeps (a run may warn once per iteration: a `setNextRequest` loop cut off); the rest are counted. */
const MAX_WARNINGS = 100;

export interface JsonReport {
  version: 1;
  /** The run's warnings (file problems, secrets without a value, values not saved…), as stderr shows them without `ferry: warning: `. */
  warnings: string[];
  /** `stoppedBy`: what interrupted the run (`Ctrl-C`, `SIGTERM`); `null` when nothing did (or the stop had no name). */
  summary: RunSummary & { bailed: boolean; interrupted: boolean; stoppedBy: string | null; startedAt: string; environment: string | null; workspace: string };
  results: Array<{
    path: string;
    name: string;
    kind: string;
    folder: string;
    method: string;
    url: string;
    status: number | null;
    statusText: string | null;
    /** The status as the other reports show it, where the kind gives more than `status statusText` (gRPC: `5 NOT_FOUND: no such user`). */
    statusLabel?: string;
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
    /** With `--report-bodies`: the response's headers and the start of its body (64 KB; `truncated` when cut). */
    response?: { headers: Array<{ name: string; value: string }>; body: string | null; bodySize: number; truncated: boolean; binary?: true };
  }>;
}

export function jsonReport(start: Extract<RunEvent, { type: 'start' }> | undefined, end: { summary: RunSummary; bailed: boolean; interrupted?: boolean; stoppedBy?: string; results: readonly RequestResult[] }): JsonReport {
  return { version: 1, summary: reportSummary(start, end), warnings: [], results: end.results.map((r) => reportEntry(r)) };
}

function reportSummary(start: Extract<RunEvent, { type: 'start' }> | undefined, end: { summary: RunSummary; bailed: boolean; interrupted?: boolean; stoppedBy?: string }): JsonReport['summary'] {
  return {
    ...end.summary,
    bailed: end.bailed,
    interrupted: end.interrupted === true,
    stoppedBy: (end.interrupted && end.stoppedBy) || null,
    startedAt: start?.startedAt ?? '',
    environment: start?.environment ?? null,
    workspace: start?.workspace ?? '',
  };
}

/** One send as the report shows it (with its response when `bodies` and one was kept). */
export function reportEntry(r: RequestResult, bodies = false): JsonReport['results'][number] {
  return {
    path: r.path,
    name: r.name,
    kind: r.kind,
    folder: r.folder,
    method: r.method,
    url: r.url,
    status: r.status ?? null,
    statusText: r.statusText ?? null,
    ...(r.statusLabel !== undefined ? { statusLabel: r.statusLabel } : {}),
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
    ...(bodies && r.response ? { response: reportedResponse(r.response) } : {}),
  };
}

function reportedResponse(response: CapturedResponse): NonNullable<JsonReport['results'][number]['response']> {
  const cut = response.body === null ? { text: null, cut: false } : cutText(response.body, REPORT_BODY_BYTES);
  return {
    headers: response.headers.map(([name, value]) => ({ name, value })),
    body: cut.text,
    bodySize: response.bodySize,
    truncated: response.truncated || cut.cut,
    ...(response.binary ? { binary: true as const } : {}),
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

/** JSON text indented to sit `depth` levels deep in the report (as `JSON.stringify(report, null, 2)` puts it). */
function nested(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/**
 * Streams the report: each result is turned into its entry as it arrives and spooled (memory
 * stays flat however long the run); when the run ends, the summary and then the entries are
 * passed to `write` in pieces (to a report file or stdout), the same text
 * `JSON.stringify(report, null, 2)` would give.
 */
export class JsonReporter implements Reporter {
  private start: Extract<RunEvent, { type: 'start' }> | undefined;
  private end: Extract<RunEvent, { type: 'end' }> | undefined;
  private readonly spools = new SpoolFolder();
  private readonly entries = this.spools.spool();
  private count = 0;
  private readonly warnings: string[] = [];
  private moreWarnings = 0;

  constructor(
    private readonly write: (text: string) => Promise<void> | void,
    private readonly options: { bodies?: boolean } = {},
  ) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'start') this.start = event;
    if (event.type === 'warning') {
      if (this.warnings.length < MAX_WARNINGS) this.warnings.push(event.message);
      else this.moreWarnings++;
    }
    if (event.type === 'request') this.entries.append(`${this.count++ ? ',\n' : '\n'}    ${nested(reportEntry(event.result, this.options.bodies), 2)}`);
    if (event.type === 'end') this.end = event;
  }

  async finish(): Promise<void> {
    if (!this.end) return;
    try {
      const warnings = this.moreWarnings ? [...this.warnings, `… and ${this.moreWarnings} more warnings.`] : this.warnings;
      await this.write(`{\n  "version": 1,\n  "summary": ${nested(reportSummary(this.start, this.end), 1)},\n  "warnings": ${nested(warnings, 1)},\n  "results": [`);
      for await (const piece of this.entries.read()) await this.write(piece);
      await this.write(`${this.count ? '\n  ' : ''}]\n}\n`);
    } finally {
      await this.spools.remove();
    }
  }
}
