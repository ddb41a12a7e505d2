/**
 * The JSON report (documented in docs/running.md): `version`, `summary`, and one entry per send.
 * Fields beyond the documented ones may be added; none is removed or renamed within version 1.
 */
import type { Reporter, RequestResult, RunEvent, RunSummary } from '../events.js';

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
    messages?: RequestResult['messages'];
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
      ...(r.messages ? { messages: r.messages } : {}),
      ...(r.detail ? { detail: r.detail } : {}),
    })),
  };
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
